import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { namesFile } from '../../app/contentFigures.ts';
import { referToOpenFiles } from '../../skills/run/openFileMentions.ts';

const calc = { app: 'calc', target: 'Documents/stock count.xlsx', open: true };
const say = (text: string, files = [calc], level = 'natural') => referToOpenFiles(text, files, level);

describe('natural and goal instructions refer to an open file as a person would', () => {
  test('the name becomes "this spreadsheet", "the open workbook"… at natural and goal, never at explicit', () => {
    const text = 'Help me fill in the blank Warehouse cells in stock count.xlsx with the value above.';
    for (const level of ['natural', 'goal']) {
      const out = say(text, [calc], level);
      assert.match(
        out,
        /^Help me fill in the blank Warehouse cells in (the open|this|my) (spreadsheet|workbook) with/,
      );
      assert.ok(!namesFile(out, calc.target), out);
    }
    assert.equal(say(text, [calc], 'explicit'), text);
    // Deterministic: the same task reads the same every time it is materialised.
    assert.equal(say(text), say(text));
  });

  test('paths, sentence starts, appositions and parentheses', () => {
    assert.match(
      say('~/Documents/stock count.xlsx should list every item once.'),
      /^(The open|This|My) \w+ should/,
    );
    assert.equal(say('The stock list in stock count.xlsx has duplicates.'), 'The stock list has duplicates.');
    assert.equal(
      say('Please update the tracker stock count.xlsx today.'),
      'Please update the tracker today.',
    );
    const gimp = { app: 'gimp', target: 'Pictures/travel/market-stall.png', open: true };
    assert.equal(
      say('The market stall photo (~/Pictures/travel/market-stall.png) looks washed out.', [gimp]),
      'The market stall photo looks washed out.',
    );
    assert.equal(
      say('Could you help me convert the image at ~/Pictures/travel/market-stall.png to .svg format?', [
        gimp,
      ]),
      'Could you help me convert the image to .svg format?',
    );
    const vscode = { app: 'vscode', target: 'projects/order-sync', open: true };
    assert.equal(
      say('Rename load across the ~/projects/order-sync project.', [vscode]),
      'Rename load across the project.',
    );
    assert.match(say('Open stock count.xlsx and sort it by Date.'), /^Sort it by Date\.$/);
    assert.match(say('Whoever opens stock count.xlsx should see Totals first.'), /^Whoever opens (this|my) /);
  });

  test('names stay where they carry information', () => {
    // Not open: the agent has to find it by its name.
    const closed = { ...calc, open: false };
    const text = 'Fill in the blanks in stock count.xlsx.';
    assert.equal(say(text, [closed]), text);
    // Two open workbooks: only the names tell them apart.
    const two = [calc, { app: 'calc', target: 'Documents/prices.xlsx', open: true }];
    assert.equal(
      say('Copy the prices from prices.xlsx into stock count.xlsx.', two),
      'Copy the prices from prices.xlsx into stock count.xlsx.',
    );
    // A quoted subject that happens to hold the name is text the agent looks for.
    const quoted = 'Reply to "Questions about stock count.xlsx" once stock count.xlsx is sorted.';
    const out = say(quoted);
    assert.ok(out.startsWith('Reply to "Questions about stock count.xlsx" once '), out);
    assert.ok(!out.endsWith('once stock count.xlsx is sorted.'), out);
    // A writer document open beside the open workbook keeps its own kind of reference.
    const doc = { app: 'writer', target: 'Desktop/budget_v2.docx', open: true };
    const both = say('Total Amount in stock count.xlsx and put it in budget_v2.docx.', [calc, doc]);
    assert.match(
      both,
      /in (the open|this|my) (spreadsheet|workbook) and put it in (the open|this|my) document\.$/,
    );
  });
});
