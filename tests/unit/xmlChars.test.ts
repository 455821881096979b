import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OoxmlPackage } from '../../preparers/ooxml/package.ts';
import { el, parseXml, serializeXml } from '../../preparers/ooxml/xml.ts';
import { stripXmlInvalid } from '../../preparers/ooxml/xmlChars.ts';
import { parseCheck, parseDoc, preparers } from '../../preparers/registry.ts';

/** Text the `text` output type allows but XML 1.0 cannot hold. */
const hostile = 'Q3 plan\ufffe for\u0001 the \uffffteam\u000b \ud800done';

describe('XML-invalid characters never reach an OOXML part', () => {
  test('the one gate strips them from docs and checks of every office app', async () => {
    assert.equal(stripXmlInvalid(hostile), 'Q3 plan for the team done');
    assert.equal(stripXmlInvalid('tab\there\nline 😀'), 'tab\there\nline 😀', 'valid text and pairs stay');
    const file = 'Documents/plan.docx';
    const doc = parseDoc('writer', {
      blocks: [{ type: 'paragraph', runs: [{ text: hostile }] }],
      section: { orientation: 'portrait' },
    });
    const files = await preparers.writer.build(file, doc);
    const xml = new TextDecoder().decode(
      Buffer.from(
        serializeXml(await (await OoxmlPackage.open(files[file]!, file)).part('word/document.xml')),
      ),
    );
    assert.doesNotMatch(xml, /[\u0001\u000b\ufffe\uffff\ud800]/);
    assert.match(xml, /Q3 plan for the team done/);
    parseXml(xml);
    const check = parseCheck({ kind: 'writer.text_present', file, text: hostile }) as { text?: string };
    assert.equal(check.text, 'Q3 plan for the team done');
  });

  test('our own serializer drops them too', () => {
    const out = serializeXml(el('w:t', {}, hostile));
    assert.equal(out.split('\n')[1], '<w:t>Q3 plan for the team done</w:t>');
  });
});
