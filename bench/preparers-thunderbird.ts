import { pathToFileURL } from 'node:url';
import { packProfile, thunderbirdPreparer as tb } from '../preparers/thunderbird/index.ts';

/** A typical spec: 200 messages in 5 folders (some with attachments, HTML, flags and tags). */
function typicalDoc() {
  const folders = ['Inbox', 'Sent', 'Archive', 'Projects/Alpha', 'Receipts'].map((path, f) => ({
    path,
    messages: Array.from({ length: 40 }, (_, i) => ({
      from: `Sender ${i} <sender${i}@example.org>`,
      to: ['ann@example.com'],
      subject: `${path} message ${i}: quarterly numbers`,
      date: new Date(Date.UTC(2024, f, 1 + (i % 28), 9, i)).toISOString(),
      text: `Hello Ann,\n\nFrom our side, item ${i} is ready.\n`.repeat(5),
      html: i % 3 === 0 ? `<p>Item <b>${i}</b> is ready.</p>` : undefined,
      attachments: i % 5 === 0 ? [{ filename: `report-${i}.csv`, content: 'a,b,c\n1,2,3\n'.repeat(20) }] : [],
      read: i % 2 === 0,
      flagged: i % 7 === 0,
      tags: i % 4 === 0 ? ['Work'] : [],
    })),
  }));
  return tb.docSchema.parse({
    identities: [{ name: 'Ann Lee', email: 'ann@example.com', signature: 'Ann' }],
    folders,
    filters: [
      {
        name: 'Receipts',
        conditions: [{ field: 'subject', value: 'receipt' }],
        actions: [{ action: 'move', folder: 'Receipts' }],
      },
    ],
    contacts: Array.from({ length: 20 }, (_, i) => ({ name: `Contact ${i}`, email: `c${i}@example.org` })),
  });
}

/** Profiles per second (build + packProfile) and files per second for the typical spec. */
export async function benchThunderbird(
  rounds = 5,
): Promise<{ profilesPerSecond: number; filesPerSecond: number; bytes: number }> {
  const doc = typicalDoc();
  await packProfile(await tb.build('forge.default', doc)); // warm-up
  const start = performance.now();
  let files = 0;
  let bytes = 0;
  for (let i = 0; i < rounds; i++) {
    const built = await tb.build('forge.default', doc);
    files += Object.keys(built).length;
    bytes = (await packProfile(built)).length;
  }
  const seconds = (performance.now() - start) / 1000;
  return { profilesPerSecond: rounds / seconds, filesPerSecond: files / seconds, bytes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchThunderbird();
  console.log(
    `thunderbird (200 messages, 5 folders): ${result.profilesPerSecond.toFixed(2)} profiles/s, ` +
      `${result.filesPerSecond.toFixed(1)} files/s, packed ${result.bytes} bytes`,
  );
}
