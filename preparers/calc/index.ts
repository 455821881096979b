import { documentNamedPaths, officeProfilePolicy } from '../office/profilePolicy.ts';
import type { Preparer } from '../types.ts';
import { cellName, parseRange } from './a1.ts';
import { applyCalcEdits } from './apply.ts';
import { buildWorkbook } from './build.ts';
import { calcTargets } from './discoveryTargets.ts';
import { calcGoldReadings } from './goldReading.ts';
import { calcInvariants } from './invariants.ts';
import { calcLabelRights } from './labelRight.ts';
import { calcMutants } from './mutants.ts';
import { calcOsworld } from './osworld.ts';
import { probeCalc } from './probe.ts';
import { calcRights } from './rights.ts';
import {
  type CalcCheck,
  type CalcDoc,
  type CalcEdit,
  calcCheckSchema,
  calcDocSchema,
  calcEditSchema,
} from './schema.ts';

export * from './schema.ts';

/** The Calc preparer: xlsx workbooks built with exceljs, plus chart parts written directly. */
export const calcPreparer: Preparer<CalcDoc, CalcEdit, CalcCheck> = {
  app: 'calc',
  docSchema: calcDocSchema,
  editSchema: calcEditSchema,
  checkSchema: calcCheckSchema,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: calcOsworld,
  goldReadings: calcGoldReadings,
  staging: {
    osworldDomain: 'libreoffice_calc',
    launch: [],
    launchers: [
      ['libreoffice', '--calc'],
      ['soffice', '--calc'],
    ],
    documentWindow: 'LibreOffice Calc',
  },
  owns: (path) => path.toLowerCase().endsWith('.xlsx'),
  instruction: {
    // A CSV export is known by its file name, a column by its header; cells by cellAddresses.
    targets: calcTargets,
    cellAddresses: true,
    literalFields: {
      'calc.cell_value': ['value'],
      'calc.chart': ['title'],
      'calc.sheet_exists': ['sheet'],
      'calc.sheet_names': ['names'],
    },
  },
  namedPaths: documentNamedPaths,
  profilePolicy: officeProfilePolicy,
  // cell_value, formula and number_format checks take a `matches` regex.
  usesRegex: (item) => typeof item.kind === 'string' && item.matches !== undefined,
  async build(target, doc) {
    return { [target]: await buildWorkbook(calcDocSchema.parse(doc)) };
  },
  apply(files, edits) {
    return applyCalcEdits(
      files,
      edits.map((e) => calcEditSchema.parse(e)),
    );
  },
  probe(files, check) {
    return probeCalc(files, calcCheckSchema.parse(check));
  },
  async invariants(initial, solved, files) {
    return (await calcInvariants(initial, solved, files)).map((c) => calcCheckSchema.parse(c));
  },
  bulk: bulkCalc,
  rights: calcRights,
  rightsBeside: calcLabelRights,
  mutants: calcMutants,
};

/** Formatting applied to whole columns, header and a margin below the table included. */
function bulkCalc(edits: CalcEdit[]): CalcEdit[] | undefined {
  let widened = false;
  const out = edits.map((e) => {
    if (
      e.op !== 'calc.set_number_format' &&
      e.op !== 'calc.set_style' &&
      e.op !== 'calc.conditional_format' &&
      e.op !== 'calc.data_validation'
    )
      return e;
    const r = parseRange(e.range);
    widened = true;
    return { ...e, range: `${cellName(1, r.left)}:${cellName(r.bottom + 10, r.right)}` };
  });
  return widened ? out : undefined;
}
