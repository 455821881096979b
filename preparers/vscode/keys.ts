/**
 * Key chords as VS Code reads keybindings.json: case-insensitive, modifiers in any order (`cmd`
 * and `win` are `meta`), chords separated by whitespace. `normalizeChord` gives one spelling, so
 * "Shift+Ctrl+K" and "ctrl+shift+k" are the same binding (the checker's `norm_chord` agrees).
 */
const MODIFIERS: Record<string, string> = {
  ctrl: 'ctrl',
  shift: 'shift',
  alt: 'alt',
  meta: 'meta',
  cmd: 'meta',
  win: 'meta',
};
const ORDER = ['ctrl', 'shift', 'alt', 'meta'];

function normalizePart(part: string): string {
  let rest = part.toLowerCase();
  const mods = new Set<string>();
  for (;;) {
    const m = /^(ctrl|shift|alt|meta|cmd|win)\+(.+)$/.exec(rest);
    if (!m) break;
    mods.add(MODIFIERS[m[1]!]!);
    rest = m[2]!;
  }
  return [...ORDER.filter((o) => mods.has(o)), rest].join('+');
}

export function normalizeChord(key: string): string {
  return key.trim().split(/\s+/).map(normalizePart).join(' ');
}

export function sameChord(a: string, b: string): boolean {
  return normalizeChord(a) === normalizeChord(b);
}

/** A when clause with its whitespace dropped outside the operators' meaning (`a && b` = `a&&b`). */
export function normalizeWhen(when: string | undefined): string | undefined {
  return when === undefined ? undefined : when.replace(/\s+/g, '');
}
