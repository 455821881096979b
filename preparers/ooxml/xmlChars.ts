/**
 * Characters XML 1.0 cannot hold at all (C0 controls but tab, newline and carriage return; lone
 * surrogates; U+FFFE and U+FFFF). A document holding one is not well-formed: LibreOffice refuses
 * the docx and silently drops the pptx text. Every office doc spec, edit and check passes here
 * (preparers/registry.ts), so all OOXML writers — ExcelJS, PptxGenJS and our own — see clean text.
 */
const INVALID =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function stripXmlInvalid(text: string): string {
  return text.replace(INVALID, '');
}

/** Every string inside a JSON-like value (keys included), with XML-invalid characters removed. */
export function stripXmlInvalidDeep<T>(value: T): T {
  if (typeof value === 'string') return stripXmlInvalid(value) as T;
  if (Array.isArray(value)) return value.map(stripXmlInvalidDeep) as T;
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [stripXmlInvalid(k), stripXmlInvalidDeep(v)]),
    ) as T;
  }
  return value;
}
