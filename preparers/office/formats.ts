/** The office formats LibreOffice round-trips for us, with the filters that read and write them. */
export const OFFICE_FORMATS = ['xlsx', 'docx', 'pptx'] as const;
export type OfficeFormat = (typeof OFFICE_FORMATS)[number];

interface FormatFilters {
  /** Import filter, forced so a damaged file fails instead of being guessed as plain text. */
  input: string;
  /** `--convert-to` argument that saves the same format again. */
  roundTrip: string;
}

export const FILTERS: Record<OfficeFormat, FormatFilters> = {
  xlsx: { input: 'Calc MS Excel 2007 XML', roundTrip: 'xlsx:Calc MS Excel 2007 XML' },
  docx: { input: 'MS Word 2007 XML', roundTrip: 'docx:MS Word 2007 XML' },
  pptx: { input: 'Impress MS PowerPoint 2007 XML', roundTrip: 'pptx:Impress MS PowerPoint 2007 XML' },
};

/** The office format of a path by its extension (case-insensitive), or undefined for other files. */
export function officeFormatOf(path: string): OfficeFormat | undefined {
  const ext = path.toLowerCase().split('.').pop() ?? '';
  return (OFFICE_FORMATS as readonly string[]).includes(ext) ? (ext as OfficeFormat) : undefined;
}
