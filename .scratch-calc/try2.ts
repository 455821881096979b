import JSZip from 'jszip';
import { buildWorkbook } from '../preparers/calc/build.ts';
import { readCharts } from '../preparers/calc/charts.ts';
import { calcDocSchema } from '../preparers/calc/schema.ts';
import { loadWorkbook, plainValue, formulaOf } from '../preparers/calc/workbook.ts';
import { roundTripOffice, convertToPdf, closeOffice } from '../preparers/office/index.ts';
import { writeFileSync } from 'node:fs';
const doc = calcDocSchema.parse({
  sheets: [{ name: 'Sales Q1', columns: [{ header: 'Month', type: 'text' }, { header: 'Revenue', type: 'currency' }, { header: 'Date', type: 'date' }, {header:'Share', type:'percent'}],
    rows: [['Jan', 100, '2024-01-31', 0.1], ['Feb', 250.5, '2024-02-29', 0.2], ['Mar', 90, '2024-03-31', 0.3]],
    formulas: [{ cell: 'B5', formula: 'SUM(B2:B4)' }, { cell: 'B6', formula: 'AVERAGE(B2:B4)*2' }],
    freeze: { rows: 1, cols: 1 }, merges: ['E1:F1'], styles: [{ range: 'A2:A4', fill: 'FFEB9C' }], autoFilter: 'A1:D4' },
    { name: 'Other', columns: [], rows: [[1, 2]], formulas: [{cell: 'C1', formula: "SUM('Sales Q1'!B2:B4)"}] }],
  charts: [{ sheet: 'Sales Q1', type: 'col', title: 'Revenue by month', categories: 'A2:A4', values: ['B2:B4'] },
           { sheet: 'Other', type: 'pie', title: 'Pie', categories: 'A1:B1', values: ['A1:B1'] }],
});
const bytes = await buildWorkbook(doc);
writeFileSync('.scratch-calc/built.xlsx', bytes);
console.log('ours', JSON.stringify(await readCharts(await JSZip.loadAsync(bytes))));
const [lo] = await roundTripOffice([{ name: 'b.xlsx', bytes, format: 'xlsx' }]);
writeFileSync('.scratch-calc/lo.xlsx', lo);
const z = await JSZip.loadAsync(lo);
console.log(Object.keys(z.files).filter(f=>/chart|drawing/.test(f)));
console.log('lo', JSON.stringify(await readCharts(z)));
for (const b of [bytes, lo]) {
  const wb = await loadWorkbook(b, 'x');
  const ws = wb.getWorksheet('Sales Q1')!;
  console.log(['B2','C2','D2','B5','B6'].map(c => [plainValue(ws.getCell(c).value), formulaOf(ws.getCell(c)), ws.getCell(c).numFmt]), JSON.stringify(ws.views), JSON.stringify(ws.autoFilter), ws.getCell('A2').fill, ws.getCell('A1').font?.bold);
  console.log(plainValue(wb.getWorksheet('Other')!.getCell('C1').value));
}
const pdf = await convertToPdf([{ name: 'b.xlsx', bytes, format: 'xlsx' }]);
console.log('pdf', pdf[0].length);
await closeOffice();
