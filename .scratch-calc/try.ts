import ExcelJS from 'exceljs';
import { roundTripOfficeSettled, convertToPdfSettled, closeOffice } from '/work/main/preparers/office/index.ts';
const wb = new ExcelJS.Workbook();
const ws = wb.addWorksheet('S');
ws.addRow([1, 2]);
ws.getCell('C1').value = { formula: 'A1+B1', result: 999 };
const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
let t = Date.now();
const out = await roundTripOfficeSettled([{ name: 'a.xlsx', bytes, format: 'xlsx' }, { name: 'bad.xlsx', bytes: new TextEncoder().encode('garbage,1,2'), format: 'xlsx' }]);
console.log(Date.now() - t, out.map((o) => (o.ok ? o.bytes.length : o.error)));
if (out[0].ok) { const w2 = new ExcelJS.Workbook(); await w2.xlsx.load(out[0].bytes); console.log(JSON.stringify(w2.getWorksheet('S')!.getCell('C1').value)); }
t = Date.now();
const pdf = await convertToPdfSettled([{ name: 'a.xlsx', bytes, format: 'xlsx' }]);
console.log(Date.now() - t, pdf.map((o) => (o.ok ? o.bytes.length : o.error)));
await closeOffice();
