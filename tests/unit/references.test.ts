import assert from 'node:assert/strict';
import { test } from 'node:test';
import { osPreparer as os } from '../../preparers/os/index.ts';
import { referenceProblems } from '../../taskcore/verify/references.ts';

test('a file name the instruction mentions may be a symlink the oracle creates (it lives in the OS manifest)', async () => {
  const initial = await os.build(
    '',
    os.docSchema.parse({ entries: [{ path: 'Shared/price-list.csv', content: 'a,b\n' }] }),
  );
  const solved = await os.apply(initial, [
    os.editSchema.parse({
      op: 'os.symlink',
      path: 'Projects/acme/prices.csv',
      target: '../../Shared/price-list.csv',
    }),
  ]);
  const say = (text: string) => referenceProblems(text, [], initial, solved);
  assert.deepEqual(say('Link prices.csv in ~/Projects/acme to ~/Shared/price-list.csv.'), []);
  assert.match(say('Link costs.csv to ~/Shared/price-list.csv.').join('\n'), /mentions costs\.csv/);
});
