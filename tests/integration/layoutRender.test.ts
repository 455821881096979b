import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildPptx } from '../../preparers/impress/build.ts';
import { closeOffice, convertToPdf } from '../../preparers/office/index.ts';
import { preparers } from '../../preparers/registry.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';
import { overlappingLines, pdfTextLines } from '../support/pdfText.ts';

/**
 * Every Impress file a skill prepares, rendered by the real LibreOffice to PDF: no text line is
 * drawn over another (a wrapped title over the first bullet was seen in agenda slides), and all
 * text stays on the page.
 */
after(() => closeOffice());

const PAGE = { w: 720, h: 405 };

function problemsOf(name: string, pdf: Uint8Array): string[] {
  const lines = pdfTextLines(pdf);
  const problems = overlappingLines(lines).map(
    ([a, b]) => `${name} slide ${a.page}: text at y=${a.y.toFixed(0)} overlaps text at y=${b.y.toFixed(0)}`,
  );
  for (const l of lines) {
    if (
      l.y - 0.2 * l.size < -1 ||
      l.y + 0.75 * l.size > PAGE.h + 1 ||
      l.x + l.glyphs * l.size * 0.45 > PAGE.w + 4
    )
      problems.push(
        `${name} slide ${l.page}: text at (${l.x.toFixed(0)}, ${l.y.toFixed(0)}) runs off the slide`,
      );
  }
  return problems;
}

test('every skill’s initial slides render without overlapping text', async () => {
  const decks: { name: string; format: 'pptx'; bytes: Uint8Array }[] = [];
  for (const [id, { spec }] of loadSkillLibrary()) {
    if (!spec.nodes.some((n) => 'prepare' in n && n.prepare.app === 'impress')) continue;
    for (const seed of [3, 4]) {
      const authored = await authorTask(spec, seed * 7919 + id.length, offlineCaller, { level: 'natural' });
      assert.ok(authored.ok, `${id}: ${authored.ok ? '' : authored.detail}`);
      const m = await materializeTask(spec, authored.context);
      for (const p of m.prepares.filter((x) => x.app === 'impress')) {
        const files = await preparers.impress.build(p.target, p.doc);
        decks.push({ name: `${id}#${seed}.pptx`, format: 'pptx', bytes: files[p.target]! });
      }
    }
  }
  assert.ok(decks.length >= 26, `expected the Impress skills' decks, got ${decks.length}`);
  const pdfs = await convertToPdf(decks);
  const problems = pdfs.flatMap((pdf, i) => problemsOf(decks[i]!.name, pdf));
  assert.deepEqual(problems, []);
});

test('a long wrapping title and long bullets shrink to fit instead of overlapping', async () => {
  const long =
    'Quarterly review of every open purchase request, the supplier delays behind them and what we will do next';
  const bullets = Array.from(
    { length: 7 },
    (_, i) =>
      `Point ${i + 1}: the warehouse in Leeds reported late deliveries from two suppliers, and the team agreed to check each order by Friday.`,
  );
  const bytes = await buildPptx({
    slides: [{ layout: 'title_content', title: long, body: bullets, right: [], images: [], tables: [] }],
  } as Parameters<typeof buildPptx>[0]);
  const [pdf] = await convertToPdf([{ name: 'long.pptx', format: 'pptx', bytes }]);
  const lines = pdfTextLines(pdf!);
  assert.ok(lines.length > 8, 'the title and bullets wrap over several lines');
  assert.deepEqual(problemsOf('long.pptx', pdf!), []);
});
