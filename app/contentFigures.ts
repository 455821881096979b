import JSZip from 'jszip';
import { listTar } from '../preparers/os/tarball.ts';
import { parseMbox } from '../preparers/thunderbird/mbox.ts';
import { parseMessage } from '../preparers/thunderbird/mime.ts';
import { stringsOf } from '../skills/stringsOf.ts';
import { namedAddresses, nameMatchesAddress, type Pair } from '../taskcore/verify/people.ts';

/**
 * Measurable content figures over a set of tasks (forge report content): people whose display
 * name does not match their address, honorific suffixes on names, how often the most-named
 * address recurs, sentences repeated within one file, and natural/goal instructions that name a
 * file setup has already opened. Pure over what a task holds (instruction, context, files), so a
 * round's stored tasks and tasks built in-process are measured alike.
 */
export interface TaskContent {
  taskId: string;
  skillId: string;
  level: string;
  instruction: string;
  /** The task's node outputs (its stored context without `task`). */
  context: unknown;
  /** Home-relative paths of files open when the task starts (prepares with `open`). */
  openFiles: string[];
  /** Text of the task's initial files, one entry per file (see fileContent); a deck's by slide too. */
  files: { path: string; units: string[]; slides?: string[][] }[];
}

export interface ContentFigures {
  tasks: number;
  /** Display name and address of one person that do not belong together ("Ann Lee <bo.chan@…>"). */
  nameAddressMismatches: number;
  mismatchExamples: { taskId: string; skillId: string; name: string; address: string }[];
  /** Distinct names with a generator's honorific suffix (Jr., III, PhD, DVM…), over all tasks. */
  honorificSuffixes: number;
  suffixExamples: { taskId: string; skillId: string; name: string }[];
  /** The e-mail address named in the most tasks (as recipient, sender or mailbox owner). */
  topRecipient: { address: string; tasks: number; share: number } | null;
  /** Sentences (six words or more) that occur twice or more in one prose file (documents, slides, mail, text). */
  duplicateSentences: number;
  filesWithDuplicates: number;
  duplicateExamples: { taskId: string; skillId: string; path: string; sentence: string }[];
  /** Natural and goal instructions, and those of them naming a file that is already open at start. */
  naturalGoalTasks: number;
  namingOpenFile: number;
  namingOpenFileShare: number;
  namingOpenFileExamples: { taskId: string; skillId: string; file: string }[];
  /**
   * Documents (.docx/.odt) against the task's own content set: those whose heading names one of its
   * topics, those whose heading names none ("Our flyer", or a task whose content has no topics), and of the body lines that come from a
   * topic, the share from the heading's own, or from the chapter's when a later heading is another
   * topic's title (a press release headed "Spring appeal results" should not go on about the
   * printer driver).
   */
  headedDocuments: number;
  unheadedDocuments: number;
  topicLinesInBodies: number;
  headingTopicLines: number;
  headingAgreement: number;
  offSubjectExamples: { taskId: string; skillId: string; path: string; heading: string; line: string }[];
  /**
   * Decks (.pptx/.odp): of the lines from a topic that sit on a slide titled by a topic, the share
   * from that slide's own title (a "Help desk trends" slide should not list the mail server's).
   */
  slideTopicLines: number;
  slideTitleLines: number;
  slideAgreement: number;
  offTitleExamples: { taskId: string; skillId: string; path: string; title: string; line: string }[];
  /**
   * Paragraphs (two sentences or more, in a prose file) that another task of the same skill also
   * has: the content kit should be large enough that a skill's tasks never share one. Out of the
   * distinct paragraphs of each skill's tasks, summed over the skills.
   */
  skillParagraphs: number;
  sharedParagraphs: number;
  sharedParagraphExamples: { taskIds: string[]; skillId: string; paragraph: string }[];
}

const EXAMPLES = 20;

/** A name ending in one of the suffixes faker's en locale appends (and common variants): "Ann Lee DVM". */
export const HONORIFIC_SUFFIX =
  /^[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)+,? (?:Jr\.?|Sr\.?|I|II|III|IV|V|MD|M\.D\.|DDS|DVM|PhD|Ph\.D\.|Esq\.?|CPA)$/;

const EMAIL = /[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** Sentences of a text unit, normalised (case, spacing, quotes), six words or more. */
export function sentencesOf(text: string): string[] {
  return (text.match(/[^.!?\n]+[.!?]+/g) ?? [])
    .map((s) =>
      s
        .replace(/[\u2018\u2019]/g, "'")
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((s) => s.split(' ').length >= 6);
}

/**
 * A unit's paragraphs of prose (two sentences or more), whitespace and quotes made even: a mail
 * body or a page splits at blank lines and block tags, a document's paragraph is one already.
 */
function paragraphsOf(unit: string): string[] {
  return unit
    .split(/\n\s*\n|<\/?(?:p|li|h[1-6]|div|tr|td)\b[^>]*>/i)
    .filter((p) => sentencesOf(p).length >= 2)
    .map((p) => norm(p.replace(/<[^>]+>/g, ' ')));
}

/** Spreadsheets and tables repeat values by design: only prose files count for repeated sentences. */
const PROSE_FILE = /\.(docx|pptx|odt|odp|txt|md|html?|eml)$|(^|\/)Mail\/.+\/[^./]+$|ImapMail\/.+\/[^./]+$/i;

const SITE_PAGE = /\.html?$/i;

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Whether an instruction names a file: its name with the extension, or a stem no common words
 * could be ("budget_v2", "board-deck-q1"; "expense claims" is how anyone says what the file holds).
 * A stem that only starts a longer name ("rota-planner-small.png", a file the agent makes) does not
 * count, nor does an app's own state under a dot folder (~/.config/chromium is named "Chromium").
 */
export function namesFile(instruction: string, filePath: string): boolean {
  if (filePath.split('/').some((s) => s.startsWith('.'))) return false;
  const text = norm(instruction);
  const base = filePath.split('/').filter(Boolean).pop() ?? filePath;
  if (text.includes(norm(base))) return true;
  const stem = norm(base.replace(/\.(tar\.gz|[a-z0-9]+)$/i, ''));
  if (!/[^a-z ]/i.test(stem) || stem.length < 4) return false;
  const escaped = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-]|\\.\\w)`).test(text);
}

export function contentFigures(tasks: TaskContent[]): ContentFigures {
  const f: ContentFigures = {
    tasks: tasks.length,
    nameAddressMismatches: 0,
    mismatchExamples: [],
    honorificSuffixes: 0,
    suffixExamples: [],
    topRecipient: null,
    duplicateSentences: 0,
    filesWithDuplicates: 0,
    duplicateExamples: [],
    naturalGoalTasks: 0,
    namingOpenFile: 0,
    namingOpenFileShare: 0,
    namingOpenFileExamples: [],
    headedDocuments: 0,
    unheadedDocuments: 0,
    topicLinesInBodies: 0,
    headingTopicLines: 0,
    headingAgreement: 0,
    offSubjectExamples: [],
    slideTopicLines: 0,
    slideTitleLines: 0,
    slideAgreement: 0,
    offTitleExamples: [],
    skillParagraphs: 0,
    sharedParagraphs: 0,
    sharedParagraphExamples: [],
  };
  // skill -> paragraph -> the tasks holding it
  const paragraphTasks = new Map<string, Map<string, Set<string>>>();
  const suffixed = new Set<string>();
  const addressTasks = new Map<string, number>();
  for (const t of tasks) {
    const texts = [t.instruction, ...stringsOf(t.context)];
    // People: one verdict per distinct pair of a task.
    const pairs = new Map<string, Pair>();
    for (const p of namedAddresses([t.instruction, t.context])) pairs.set(`${p.name}\u0000${p.address}`, p);
    for (const p of pairs.values()) {
      if (nameMatchesAddress(p.name, p.address)) continue;
      f.nameAddressMismatches++;
      keep(f.mismatchExamples, { taskId: t.taskId, skillId: t.skillId, ...p, name: p.name });
    }
    const names = new Set<string>([...pairs.values()].map((p) => p.name));
    for (const s of stringsOf(t.context)) if (s.length <= 60) names.add(s.trim());
    for (const name of names) {
      if (!HONORIFIC_SUFFIX.test(name) || suffixed.has(name)) continue;
      suffixed.add(name);
      keep(f.suffixExamples, { taskId: t.taskId, skillId: t.skillId, name });
    }
    const addresses = new Set(texts.flatMap((s) => (s.match(EMAIL) ?? []).map((a) => a.toLowerCase())));
    for (const a of addresses) addressTasks.set(a, (addressTasks.get(a) ?? 0) + 1);
    // Files: a sentence said twice in one prose file.
    for (const file of t.files) {
      if (!PROSE_FILE.test(file.path)) continue;
      const seen = new Map<string, number>();
      const skillParagraphs = paragraphTasks.get(t.skillId) ?? new Map<string, Set<string>>();
      paragraphTasks.set(t.skillId, skillParagraphs);
      for (const unit of file.units) {
        for (const s of sentencesOf(unit)) seen.set(s, (seen.get(s) ?? 0) + 1);
        // A site's page is the same page whichever task opens it, as OSWorld reuses its sites.
        if (!SITE_PAGE.test(file.path))
          for (const paragraph of paragraphsOf(unit))
            skillParagraphs.set(paragraph, (skillParagraphs.get(paragraph) ?? new Set()).add(t.taskId));
      }
      const repeated = [...seen].filter(([, n]) => n > 1);
      if (repeated.length === 0) continue;
      f.filesWithDuplicates++;
      f.duplicateSentences += repeated.length;
      for (const [sentence] of repeated)
        keep(f.duplicateExamples, { taskId: t.taskId, skillId: t.skillId, path: file.path, sentence });
    }
    measureHeadings(t, f);
    measureSlides(t, f);
    if (t.level === 'natural' || t.level === 'goal') {
      f.naturalGoalTasks++;
      const named = t.openFiles.find((p) => namesFile(t.instruction, p));
      if (named) {
        f.namingOpenFile++;
        keep(f.namingOpenFileExamples, { taskId: t.taskId, skillId: t.skillId, file: named });
      }
    }
  }
  f.honorificSuffixes = suffixed.size;
  for (const [skillId, paragraphs] of paragraphTasks)
    for (const [paragraph, holders] of paragraphs) {
      f.skillParagraphs++;
      if (holders.size < 2) continue;
      f.sharedParagraphs++;
      keep(f.sharedParagraphExamples, { taskIds: [...holders], skillId, paragraph });
    }
  const top = [...addressTasks].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (top)
    f.topRecipient = { address: top[0], tasks: top[1], share: tasks.length ? top[1] / tasks.length : 0 };
  f.namingOpenFileShare = f.naturalGoalTasks ? f.namingOpenFile / f.naturalGoalTasks : 0;
  f.headingAgreement = f.topicLinesInBodies ? f.headingTopicLines / f.topicLinesInBodies : 0;
  f.slideAgreement = f.slideTopicLines ? f.slideTitleLines / f.slideTopicLines : 0;
  return f;
}

const DOCUMENT_FILE = /\.(docx|odt)$/i;

/** A content line as a pattern: its slots ({person}, {date}…) stand for what the task's cast filled in. */
const linePattern = (line: string) =>
  new RegExp(line.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[a-z0-9]+\\?\}/g, '.+?'));

type Topic = { title: string; sentences: string[] };

/** The task's content topics, and each of their lines as a pattern. */
function topicLines(t: TaskContent): { topics: Topic[]; lines: { topic: Topic; line: RegExp }[] } {
  const topics = (t.context as { content?: { topics?: Topic[] } } | null)?.content?.topics ?? [];
  return {
    topics,
    lines: topics.flatMap((topic) => topic.sentences.map((line) => ({ topic, line: linePattern(line) }))),
  };
}

/** The topic lines a paragraph holds, each with the text that matched. */
function topicHits(unit: string, lines: { topic: Topic; line: RegExp }[]): { topic: Topic; text: string }[] {
  return lines.flatMap(({ topic, line }) => {
    const hit = line.exec(unit);
    return hit ? [{ topic, text: hit[0] }] : [];
  });
}

/** Keeps an example while the list is short. */
function keep<E>(examples: E[], example: E): void {
  if (examples.length < EXAMPLES) examples.push(example);
}

/**
 * A deck's slides, each its paragraphs with the title first: the topic lines on a slide titled by a
 * topic, and of those the share from its own (a line that is another topic's title counts as that
 * topic's: "Network upgrade" as a bullet of "Help desk trends" is off its title too).
 */
function measureSlides(t: TaskContent, f: ContentFigures): void {
  const { topics, lines } = topicLines(t);
  for (const file of t.files)
    for (const [head, ...body] of file.slides ?? []) {
      const where = { taskId: t.taskId, skillId: t.skillId, path: file.path };
      const title = topics.find((topic) => topic.title === head?.trim());
      if (!title) continue;
      for (const unit of body) {
        const named = topics.find((topic) => topic.title === unit.trim());
        for (const { topic, text } of named
          ? [{ topic: named, text: unit.trim() }]
          : topicHits(unit, lines)) {
          f.slideTopicLines++;
          if (topic === title) f.slideTitleLines++;
          else keep(f.offTitleExamples, { ...where, title: title.title, line: text });
        }
      }
    }
}

function measureHeadings(t: TaskContent, f: ContentFigures): void {
  const { topics, lines } = topicLines(t);
  for (const file of t.files) {
    if (!DOCUMENT_FILE.test(file.path) || file.units.length < 2) continue;
    const heading = file.units[0]!;
    // The longest title inside the heading: "Budget review" over "Budget".
    const subject = topics
      .filter((topic) => heading.includes(topic.title))
      .sort((a, b) => b.title.length - a.title.length)[0];
    if (!subject) {
      f.unheadedDocuments++;
      continue;
    }
    f.headedDocuments++;
    // A later heading that is another topic's title starts that chapter: its lines are measured
    // against it (a handbook of two chapters keeps each to its own subject).
    let current = subject;
    let currentHeading = heading;
    for (const unit of file.units.slice(1)) {
      const chapter = topics.find((topic) => topic.title === unit.trim());
      if (chapter) {
        current = chapter;
        currentHeading = unit;
        continue;
      }
      for (const { topic, text } of topicHits(unit, lines)) {
        f.topicLinesInBodies++;
        if (topic === current) f.headingTopicLines++;
        else
          keep(f.offSubjectExamples, {
            taskId: t.taskId,
            skillId: t.skillId,
            path: file.path,
            heading: currentHeading,
            line: text,
          });
      }
    }
  }
}

const decodeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');

/** The text of each paragraph (<w:p>, <a:p>, <text:p>) of an XML part. */
function xmlParagraphs(xml: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(/<(w:p|a:p|text:p|text:h)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    // OOXML keeps the text in <w:t>/<a:t> runs (field codes live elsewhere); ODF in the element itself.
    const inner = m[2]!;
    const runs = m[1]!.startsWith('text:')
      ? [inner]
      : (inner.match(/<(?:w:t|a:t)\b[^>]*>[^<]*<\/(?:w:t|a:t)>/g) ?? []);
    const text = decodeXml(runs.map((x) => x.replace(/<[^>]+>/g, '')).join(''));
    if (text.trim()) out.push(text);
  }
  return out;
}

/**
 * A file's text as units a reader sees (paragraphs of a document or slide, message bodies of a
 * mail folder, lines of a text file); undefined for files that hold no prose.
 */
export async function fileText(path: string, bytes: Uint8Array): Promise<string[] | undefined> {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  if (ext === 'docx' || ext === 'pptx' || ext === 'odt' || ext === 'odp') {
    try {
      const zip = await JSZip.loadAsync(bytes);
      const parts = Object.keys(zip.files)
        .filter((n) => /^(word\/document|ppt\/slides\/slide\d+|content)\.xml$/.test(n))
        // slide2 before slide10: the slides in their order.
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
      const units: string[] = [];
      for (const n of parts) units.push(...xmlParagraphs(await zip.file(n)!.async('string')));
      return units;
    } catch {
      return undefined;
    }
  }
  if (/^(txt|md|csv|html?|eml|ics|vcf)$/.test(ext))
    return Buffer.from(bytes)
      .toString('utf8')
      .split(/\n{2,}/);
  if (/(^|\/)(Mail|ImapMail)\/.+\/[^./]+$/.test(path)) {
    return parseMbox(bytes).map((m) => {
      // The body as a reader sees it: quoted-printable soft breaks joined, parts decoded.
      const body = parseMessage(m.raw).text;
      // Quoted lines of a reply repeat the message they answer: not the writer's own sentences.
      return body
        .split('\n')
        .filter((l) => !l.startsWith('>') && !/^[A-Za-z0-9+/=]{60,}$/.test(l))
        .join('\n');
    });
  }
  return undefined;
}

/** A file's text (fileText) and, for a deck, its slides' paragraphs slide by slide. */
export async function fileContent(
  path: string,
  bytes: Uint8Array,
): Promise<TaskContent['files'][number] | undefined> {
  const units = await fileText(path, bytes);
  if (!units) return undefined;
  if (!/\.pptx$/i.test(path)) return { path, units };
  try {
    const zip = await JSZip.loadAsync(bytes);
    const parts = Object.keys(zip.files)
      .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    const slides: string[][] = [];
    for (const n of parts) slides.push(xmlParagraphs(await zip.file(n)!.async('string')));
    return { path, units, slides };
  } catch {
    return { path, units };
  }
}

/** The files of a packed Thunderbird profile (the tar.gz setup unpacks into the home). */
export async function profileFiles(archive: Uint8Array): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const e of await listTar(archive)) if (e.type === 'file' && e.data) out[e.path] = e.data;
  return out;
}
