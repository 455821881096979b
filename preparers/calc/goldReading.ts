import { OoxmlPackage } from '../ooxml/package.ts';
import { type GoldReading, tableRuleReading } from '../osworld.ts';

/**
 * compare_table reads the gold workbook only through its sheet_name rule (the one rule our mapping
 * marks as needing gold): the sheet names, in order, hidden ones too.
 */
export const calcGoldReadings: Record<string, GoldReading> = {
  [tableRuleReading({ type: 'sheet_name' })]: async (bytes) => {
    const workbook = await (await OoxmlPackage.open(bytes, 'workbook')).part('xl/workbook.xml');
    // By local name: a workbook may carry the spreadsheet namespace under a prefix.
    const sheets = workbook.elements().find((e) => e.localName === 'sheets');
    return (sheets?.elements() ?? []).filter((e) => e.localName === 'sheet').map((e) => e.attrs.name ?? '');
  },
};
