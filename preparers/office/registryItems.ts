/**
 * The plain-settings subset of LibreOffice's registrymodifications.xcu: an `oor:items` root whose
 * children are `<item oor:path="…"><prop oor:name="…" oor:op="fuse"><value>…</value></prop></item>`,
 * exactly the shape LibreOffice writes for a changed setting. Anything else — set nodes (`<node>`:
 * where event bindings and add-on menus live), a DOCTYPE or entities, comments, processing
 * instructions past the XML declaration — makes the file unreadable here, and an unreadable file
 * is refused rather than guessed at.
 */
export interface RegistryItem {
  path: string;
  prop: string;
  value: string;
}

const DECL = /^\s*(?:<\?xml[^?<>]*\?>)?\s*<oor:items(?:\s+[\w:.-]+="[^"<>]*")*\s*>/;
const END = /^\s*<\/oor:items>\s*$/;
const ITEM =
  /^\s*<item\s+oor:path="([^"<>]*)"\s*>\s*<prop\s+oor:name="([^"<>]*)"(?:\s+oor:(?:op|type)="[\w:]*")*\s*>\s*(?:<value(?:\s+[\w:]+="[^"<>]*")*\s*>([^<]*)<\/value>|<value\s*\/>)\s*<\/prop>\s*<\/item>/;

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string | null {
  // A bare `&` is not well-formed XML: the file is refused rather than read two ways.
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});)/.test(text)) return null;
  return text.replace(
    ENTITY,
    (_m, name: string | undefined, dec: string | undefined, hex: string | undefined) =>
      name
        ? NAMED[name]!
        : String.fromCodePoint(Math.min(0x10ffff, Number.parseInt(dec ?? hex!, dec ? 10 : 16))),
  );
}

/** The items of a registrymodifications.xcu, or why it is not the plain-settings shape. */
export function parseRegistryItems(text: string): { items: RegistryItem[] } | { problem: string } {
  const head = DECL.exec(text);
  if (!head) return { problem: 'not an oor:items document' };
  const items: RegistryItem[] = [];
  let rest = text.slice(head[0].length);
  while (!END.test(rest)) {
    const m = ITEM.exec(rest);
    if (!m) {
      const at = rest.trimStart().slice(0, 60);
      const item = rest.slice(0, rest.indexOf('</item>') + 1 || undefined);
      // Set entries are where event bindings, add-on menus and jobs live.
      if (/<node\b/.test(item))
        return { problem: `has a set node (<node>), not a plain setting: ${JSON.stringify(at)}` };
      return { problem: `only <item><prop><value> settings may appear, not ${JSON.stringify(at)}` };
    }
    const [path, prop, value] = [decode(m[1]!), decode(m[2]!), decode(m[3] ?? '')];
    if (path === null || prop === null || value === null) return { problem: 'has an undefined entity' };
    items.push({ path, prop, value });
    rest = rest.slice(m[0].length);
  }
  return { items };
}
