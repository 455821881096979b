import assert from 'node:assert/strict';
import { test } from 'node:test';
import JSZip from 'jszip';
import { OoxmlPackage } from '../../preparers/ooxml/package.ts';
import { el, serializeXml } from '../../preparers/ooxml/xml.ts';

/** A part's XML without the declaration the serializer writes. */
const body = (root: Parameters<typeof serializeXml>[0]) => serializeXml(root).replace(/^<\?xml[^>]*>\s*/, '');

async function zipOf(parts: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(parts)) zip.file(name, text);
  return zip.generateAsync({ type: 'uint8array' });
}

test('a package opened again reads its parts as first written, whatever an earlier reader did to its tree', async () => {
  const bytes = await zipOf({ 'word/document.xml': '<w:document><w:p>first</w:p></w:document>' });
  const a = await OoxmlPackage.open(bytes, 'a');
  const root = await a.part('word/document.xml');
  root.children.push(el('w:p', {}, 'added by an edit'));
  (root.children[0] as ReturnType<typeof el>).attrs.changed = 'yes';

  const b = await OoxmlPackage.open(bytes, 'b');
  assert.equal(body(await b.part('word/document.xml')), '<w:document><w:p>first</w:p></w:document>');
  // The edited package saves its edits, and reads back what it saved.
  const saved = await OoxmlPackage.open(await a.save(), 'saved');
  assert.match(body(await saved.part('word/document.xml')), /added by an edit/);
});

test('a part replaced, removed or written as bytes is read as it is now, not from the cache', async () => {
  const bytes = await zipOf({ 'a.xml': '<a>old</a>', 'b.xml': '<b>old</b>', 'c.xml': '<c>old</c>' });
  const warm = await OoxmlPackage.open(bytes, 'warm');
  for (const p of ['a.xml', 'b.xml', 'c.xml']) await warm.part(p);

  const pkg = await OoxmlPackage.open(bytes, 'pkg');
  pkg.setPart('a.xml', el('a', {}, 'new'));
  assert.equal(body(await pkg.part('a.xml')), '<a>new</a>');
  pkg.deletePart('b.xml');
  await assert.rejects(pkg.part('b.xml'), /part b\.xml is missing/);
  pkg.setBinary('c.xml', new TextEncoder().encode('<c>bytes</c>'));
  assert.equal(body(await pkg.part('c.xml')), '<c>bytes</c>');
});
