import { en } from '@faker-js/faker';

/**
 * Recognises machine filler in agent-visible text: faker's Latin lorem vocabulary and its
 * catch-phrase and product-name generators ("Multi-tiered cloud-native task-force", "Awesome Silk
 * Sausages"). Built from faker's own word lists, so what it flags is exactly what faker writes.
 */
const lower = (xs: readonly string[] | null | undefined) => new Set((xs ?? []).map((x) => x.toLowerCase()));

/** Latin words of faker's list that are everyday English too: a mail about a video's audio is no filler. */
const ENGLISH_TOO = new Set(['video', 'audio', 'minus', 'versus']);
const LOREM = new Set([...lower(en.lorem?.word)].filter((w) => w.length >= 5 && !ENGLISH_TOO.has(w)));
const company = en.company ?? {};
const CATCH_ADJ = lower([...(company.adjective ?? []), ...(company.buzz_adjective ?? [])]);
const CATCH_DESC = lower(company.descriptor);
/** Several-word entries ("face to face", "24 hour"), matched as one hyphenated word. */
const MULTI_WORD = [...CATCH_ADJ, ...CATCH_DESC].filter((x) => x.includes(' '));
const JOINED = new Set(MULTI_WORD.map((x) => x.replaceAll(' ', '-')));
for (const set of [CATCH_ADJ, CATCH_DESC])
  for (const x of [...set]) if (x.includes(' ')) set.add(x.replaceAll(' ', '-'));
const CATCH_NOUN = lower([...(company.noun ?? []), ...(company.buzz_noun ?? [])]);
const product: { adjective?: string[]; material?: string[]; product?: string[] } =
  en.commerce?.product_name ?? {};
const PRODUCT_ADJ = lower(product.adjective);
const PRODUCT_MATERIAL = lower(product.material);
const PRODUCT_NOUN = lower(product.product);

export interface PlaceholderHit {
  kind: 'lorem' | 'catch_phrase' | 'product_name';
  text: string;
}

/** The first filler found in a text, if any. */
export function placeholderIn(text: string): PlaceholderHit | undefined {
  let lowered = text.toLowerCase();
  for (const x of MULTI_WORD) lowered = lowered.replaceAll(x, x.replaceAll(' ', '-'));
  const words = lowered.match(/[a-z0-9/]+(?:-[a-z0-9]+)*/g) ?? [];
  const latin = new Set(words.filter((w) => LOREM.has(w)));
  if (latin.size >= 2) return { kind: 'lorem', text: [...latin].slice(0, 4).join(' ') };
  for (let i = 0; i + 2 < words.length; i++) {
    const [a, b, c] = [words[i]!, words[i + 1]!, words[i + 2]!];
    // Faker writes adjective, descriptor, noun: an adjective and a noun around any word
    // ("total in project") is ordinary English.
    if (CATCH_ADJ.has(a) && CATCH_DESC.has(b)) return { kind: 'catch_phrase', text: `${a} ${b} ${c}` };
    if (PRODUCT_ADJ.has(a) && PRODUCT_MATERIAL.has(b) && PRODUCT_NOUN.has(c))
      return { kind: 'product_name', text: `${a} ${b} ${c}` };
  }
  // Hyphenated buzz adjectives ("cloud-native", "multi-tiered") are the generator's tell.
  // Not the several-word ones joined above: "a face to face meeting" is English.
  const buzz = words.find(
    (w) => w.includes('-') && !JOINED.has(w) && CATCH_ADJ.has(w) && CATCH_DESC.size > 0,
  );
  if (buzz && words.some((w) => CATCH_NOUN.has(w))) return { kind: 'catch_phrase', text: buzz };
  return undefined;
}
