import type JSZip from 'jszip';
import { absoluteRef, type Cell, cellName, parseCell, parseRange, splitSheetRef } from './a1.ts';
import type { ChartSpec } from './schema.ts';
import {
  attr,
  escapeXml,
  findAll,
  first,
  parseXml,
  readPart,
  relationships,
  relsPathOf,
  sheetParts,
  text,
  type XmlNode,
} from './xml.ts';

/**
 * exceljs neither writes nor keeps charts, so charts are written as OOXML parts here (after
 * exceljs wrote the workbook) and read back from the raw parts, ours or LibreOffice's.
 */

const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL_DRAWING = `${NS_REL}/drawing`;
const REL_CHART = `${NS_REL}/chart`;
const CT_DRAWING = 'application/vnd.openxmlformats-officedocument.drawing+xml';
const CT_CHART = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml';

/** A chart as found in a file; `type` is 'other' for kinds the spec cannot express. */
export interface ChartInfo {
  sheet: string;
  type: ChartSpec['type'] | 'other';
  title: string;
  categories: string | undefined;
  values: string[];
  seriesNames: string[];
  anchor: { from: string; to: string } | undefined;
}

function seriesXml(chart: ChartSpec, i: number): string {
  const cat = absoluteRef(chart.sheet, parseRange(chart.categories));
  const val = absoluteRef(chart.sheet, parseRange(chart.values[i]));
  const name = chart.seriesNames?.[i];
  const tx = name === undefined ? '' : `<c:tx><c:v>${escapeXml(name)}</c:v></c:tx>`;
  const head = `<c:idx val="${i}"/><c:order val="${i}"/>${tx}`;
  if (chart.type === 'scatter') {
    return `<c:ser>${head}<c:spPr><a:ln w="28575"><a:noFill/></a:ln></c:spPr><c:xVal><c:numRef><c:f>${escapeXml(cat)}</c:f></c:numRef></c:xVal><c:yVal><c:numRef><c:f>${escapeXml(val)}</c:f></c:numRef></c:yVal><c:smooth val="0"/></c:ser>`;
  }
  const marker = chart.type === 'line' ? '<c:marker><c:symbol val="none"/></c:marker>' : '';
  return `<c:ser>${head}${marker}<c:cat><c:strRef><c:f>${escapeXml(cat)}</c:f></c:strRef></c:cat><c:val><c:numRef><c:f>${escapeXml(val)}</c:f></c:numRef></c:val>${chart.type === 'line' ? '<c:smooth val="0"/>' : ''}</c:ser>`;
}

const AXES_CAT = `<c:catAx><c:axId val="500000001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="500000002"/><c:crosses val="autoZero"/></c:catAx><c:valAx><c:axId val="500000002"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:crossAx val="500000001"/><c:crosses val="autoZero"/></c:valAx>`;
const AXES_VAL = `<c:valAx><c:axId val="500000001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="500000002"/><c:crosses val="autoZero"/></c:valAx><c:valAx><c:axId val="500000002"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:crossAx val="500000001"/><c:crosses val="autoZero"/></c:valAx>`;

export function chartXml(chart: ChartSpec): string {
  const series = chart.values.map((_, i) => seriesXml(chart, i)).join('');
  const axIds = '<c:axId val="500000001"/><c:axId val="500000002"/>';
  let plot: string;
  switch (chart.type) {
    case 'bar':
    case 'col':
      plot = `<c:barChart><c:barDir val="${chart.type}"/><c:grouping val="clustered"/><c:varyColors val="0"/>${series}<c:gapWidth val="150"/>${axIds}</c:barChart>${AXES_CAT}`;
      break;
    case 'line':
      plot = `<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>${series}<c:marker val="1"/>${axIds}</c:lineChart>${AXES_CAT}`;
      break;
    case 'pie':
      plot = `<c:pieChart><c:varyColors val="1"/>${series}<c:firstSliceAng val="0"/></c:pieChart>`;
      break;
    case 'scatter':
      plot = `<c:scatterChart><c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>${series}${axIds}</c:scatterChart>${AXES_VAL}`;
      break;
  }
  const title =
    chart.title === undefined
      ? '<c:autoTitleDeleted val="1"/>'
      : `<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>${escapeXml(chart.title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${NS_REL}"><c:roundedCorners val="0"/><c:chart>${title}<c:plotArea><c:layout/>${plot}</c:plotArea><c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart></c:chartSpace>`;
}

function defaultAnchor(chart: ChartSpec): { from: Cell; to: Cell } {
  if (chart.anchor) return { from: parseCell(chart.anchor.from), to: parseCell(chart.anchor.to) };
  const data = [chart.categories, ...chart.values].map((r) => parseRange(r));
  const col = Math.max(...data.map((r) => r.right)) + 2;
  const row = Math.min(...data.map((r) => r.top));
  return { from: { row, col }, to: { row: row + 15, col: col + 8 } };
}

function anchorXml(chart: ChartSpec, index: number, rid: string): string {
  const { from, to } = defaultAnchor(chart);
  const pos = (c: Cell) =>
    `<xdr:col>${c.col - 1}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${c.row - 1}</xdr:row><xdr:rowOff>0</xdr:rowOff>`;
  return `<xdr:twoCellAnchor editAs="oneCell"><xdr:from>${pos(from)}</xdr:from><xdr:to>${pos(to)}</xdr:to><xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${index + 2}" name="Chart ${index + 1}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="${rid}"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>`;
}

function nextFree(zip: JSZip, prefix: string, start: number): number {
  let n = start;
  while (zip.file(`${prefix}${n}.xml`)) n++;
  return n;
}

/** Adds the charts to a workbook package written without them (by exceljs), one drawing per sheet. */
export async function writeCharts(zip: JSZip, charts: ChartSpec[]): Promise<void> {
  if (charts.length === 0) return;
  const sheets = await sheetParts(zip);
  let types = (await readPart(zip, '[Content_Types].xml')) ?? '';
  const overrides: string[] = [];
  let chartNo = nextFree(zip, 'xl/charts/chart', 1);
  let drawingNo = nextFree(zip, 'xl/drawings/drawing', 1);
  for (const sheet of sheets) {
    const mine = charts.filter((c) => c.sheet.toLowerCase() === sheet.name.toLowerCase());
    if (mine.length === 0) continue;
    const sheetXml = await readPart(zip, sheet.path);
    if (!sheetXml) throw new Error(`workbook part ${sheet.path} is missing`);
    if (/<drawing\s/.test(sheetXml)) throw new Error(`sheet "${sheet.name}" already has a drawing`);
    const drawingPath = `xl/drawings/drawing${drawingNo++}.xml`;
    const anchors: string[] = [];
    const drawingRels: string[] = [];
    mine.forEach((chart, i) => {
      const chartPath = `xl/charts/chart${chartNo++}.xml`;
      zip.file(chartPath, chartXml({ ...chart, sheet: sheet.name }));
      overrides.push(`<Override PartName="/${chartPath}" ContentType="${CT_CHART}"/>`);
      drawingRels.push(
        `<Relationship Id="rId${i + 1}" Type="${REL_CHART}" Target="../charts/${chartPath.split('/').pop()}"/>`,
      );
      anchors.push(anchorXml(chart, i, `rId${i + 1}`));
    });
    zip.file(
      drawingPath,
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${NS_REL}">${anchors.join('')}</xdr:wsDr>`,
    );
    zip.file(
      relsPathOf(drawingPath),
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${drawingRels.join('')}</Relationships>`,
    );
    overrides.push(`<Override PartName="/${drawingPath}" ContentType="${CT_DRAWING}"/>`);
    // Link the drawing from the sheet.
    const relsPath = relsPathOf(sheet.path);
    let rels =
      (await readPart(zip, relsPath)) ??
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
    let rid = 1;
    while (rels.includes(`Id="rIdChart${rid}"`)) rid++;
    const id = `rIdChart${rid}`;
    rels = rels.replace(
      '</Relationships>',
      `<Relationship Id="${id}" Type="${REL_DRAWING}" Target="../drawings/${drawingPath.split('/').pop()}"/></Relationships>`,
    );
    zip.file(relsPath, rels);
    zip.file(sheet.path, insertDrawing(sheetXml, id));
  }
  types = types.replace('</Types>', `${overrides.join('')}</Types>`);
  zip.file('[Content_Types].xml', types);
}

/** `<drawing>` goes before these elements of CT_Worksheet, or at the end. */
function insertDrawing(sheetXml: string, rid: string): string {
  const el = `<drawing r:id="${rid}"/>`;
  const withNs = /<worksheet[^>]*xmlns:r=/.test(sheetXml)
    ? sheetXml
    : sheetXml.replace('<worksheet', `<worksheet xmlns:r="${NS_REL}"`);
  const m =
    /<(legacyDrawing|legacyDrawingHF|picture|oleObjects|controls|webPublishItems|tableParts|extLst)[\s>/]/.exec(
      withNs,
    );
  if (m) return withNs.slice(0, m.index) + el + withNs.slice(m.index);
  return withNs.replace('</worksheet>', `${el}</worksheet>`);
}

const TYPE_TAGS: Record<string, ChartSpec['type']> = {
  lineChart: 'line',
  line3DChart: 'line',
  pieChart: 'pie',
  pie3DChart: 'pie',
  doughnutChart: 'pie',
  scatterChart: 'scatter',
};

function chartType(plotArea: XmlNode): ChartInfo['type'] {
  for (const tag of ['barChart', 'bar3DChart']) {
    const bar = first(plotArea, tag);
    if (bar) return attr(first(bar, 'barDir'), 'val') === 'bar' ? 'bar' : 'col';
  }
  for (const [tag, type] of Object.entries(TYPE_TAGS)) if (first(plotArea, tag)) return type;
  return 'other';
}

function refOf(node: XmlNode | undefined): string | undefined {
  const f = node ? first(node, 'f') : undefined;
  if (!f) return undefined;
  try {
    return splitSheetRef(text(f)).range;
  } catch {
    return text(f);
  }
}

function anchorOf(anchor: XmlNode): ChartInfo['anchor'] {
  const pos = (n: XmlNode | undefined) =>
    n ? cellName(Number(text(first(n, 'row'))) + 1, Number(text(first(n, 'col'))) + 1) : undefined;
  const from = pos(first(anchor, 'from'));
  const to = pos(first(anchor, 'to'));
  return from && to ? { from, to } : undefined;
}

/** A series name is a literal `<c:v>` or a reference with a cached `<c:v>`; never the reference itself. */
function seriesName(series: XmlNode): string {
  const tx = first(series, 'tx');
  return tx ? findAll(tx, 'v').map(text).join('').trim() : '';
}

/** Every chart of the workbook with the sheet whose drawing holds it. */
export async function readCharts(zip: JSZip): Promise<ChartInfo[]> {
  const out: ChartInfo[] = [];
  for (const sheet of await sheetParts(zip)) {
    for (const drawing of (await relationships(zip, sheet.path)).filter((r) => r.type === REL_DRAWING)) {
      const drawingXml = await readPart(zip, drawing.target);
      if (!drawingXml) continue;
      const drawingRels = await relationships(zip, drawing.target);
      const root = parseXml(drawingXml);
      const anchors = [...findAll(root, 'twoCellAnchor'), ...findAll(root, 'oneCellAnchor')];
      for (const anchor of anchors) {
        const rid = attr(first(anchor, 'chart'), 'id');
        const rel = drawingRels.find((r) => r.id === rid && r.type === REL_CHART);
        if (!rel) continue;
        const xml = await readPart(zip, rel.target);
        if (!xml) continue;
        const chart = parseXml(xml);
        const plotArea = first(chart, 'plotArea') ?? chart;
        const series = findAll(plotArea, 'ser');
        const chartTitle = first(first(chart, 'chart') ?? chart, 'title');
        out.push({
          sheet: sheet.name,
          type: chartType(plotArea),
          title: text(chartTitle ? first(chartTitle, 'tx') : undefined).trim(),
          categories: series
            .map((s) => refOf(first(s, 'cat') ?? first(s, 'xVal')))
            .find((r) => r !== undefined),
          values: series
            .map((s) => refOf(first(s, 'val') ?? first(s, 'yVal')))
            .filter((r) => r !== undefined),
          seriesNames: series.map((s) => seriesName(s)),
          anchor: anchorOf(anchor),
        });
      }
    }
  }
  return out;
}

/** The spec that rewrites a chart found in a file, when the spec can express it. */
export function specOf(info: ChartInfo): ChartSpec | undefined {
  if (info.type === 'other' || info.categories === undefined || info.values.length === 0) return undefined;
  return {
    sheet: info.sheet,
    type: info.type,
    title: info.title === '' ? undefined : info.title,
    categories: info.categories,
    values: info.values,
    seriesNames: info.seriesNames.some((n) => n !== '') ? info.seriesNames : undefined,
    anchor: info.anchor,
  };
}
