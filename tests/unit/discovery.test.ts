import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { weightLongHorizon } from '../../skills/depth.ts';
import { DEFAULT_LEVEL_MIX, levelPlan } from '../../skills/levels.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import { prepareInMemory } from '../../taskcore/prepareCore.ts';
import { discoveryProblem, targetsOf } from '../../taskcore/verify/discovery.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/**
 * Issue 30 asks that ≥ 30% of goal-level tasks make the agent find its target. The library holds
 * what is reached so far (91 skills, 31.3% of 291; 91 of a default round's 303 goal tasks, 30.0%);
 * these floors keep it from slipping back.
 */
const DISCOVERY_SKILLS = 90;
const DISCOVERY_FLOOR = 0.3;

describe('discovery targets', () => {
  const prepares = [
    {
      app: 'os',
      target: 'home',
      open: false,
      doc: {
        entries: [
          { path: 'work/tickets/a_12.md', content: 'Re CASE-1: the form.\n' },
          { path: 'work/tickets/b_34.md', content: 'Re CASE-12: the form.\n' },
          { path: 'app/.env', content: 'HOST=db01.internal\nPORT=5432\n' },
        ],
      },
    },
    {
      app: 'writer',
      target: 'Documents/memo.docx',
      open: false,
      doc: { text: 'The host is db-staging.internal.' },
    },
    {
      app: 'thunderbird',
      target: 'forge.default',
      open: false,
      doc: {
        folders: [{ messages: [{ subject: 'Stock count for May' }, { subject: 'Contract draft v3' }] }],
      },
    },
  ];
  test('the files gathered, the value a file gains, the message answered, the cell', () => {
    const checks = [
      { kind: 'os.tree', path: 'review/CASE-1', entries: ['a_12.md'], recursive: true },
      { kind: 'os.content_equals', path: 'review/CASE-1/a_12.md', content: 'Re CASE-1: the form.\n' },
      { kind: 'os.content_equals', path: 'app/.env', content: 'HOST=db-staging.internal\nPORT=5432\n' },
      { kind: 'thunderbird.draft', subject: 'Re: Stock count for May', to: 'x@y.example' },
      { kind: 'calc.cell_value', file: 'Desktop/a.xlsx', sheet: 'S', cell: 'B7', value: 3 },
      // A new slide's title is the agent's to write: it points at nothing the task holds.
      { kind: 'impress.slide_title', file: 'Documents/a.pptx', slide: 3, text: 'Follow-ups' },
    ];
    assert.deepEqual(targetsOf(checks, prepares).sort(), [
      'B7',
      'Stock count for May',
      'a_12.md',
      'db-staging.internal',
    ]);
  });
  test('a bookmark removed is known by its address and the title it had; a cleared site by its host', () => {
    const browser = [
      {
        app: 'chromium',
        target: '.config/chromium',
        open: false,
        doc: {
          bookmarks: {
            bar: [
              {
                title: 'Insurance',
                children: [
                  {
                    title: 'Old car policy - Swift Cover',
                    url: 'https://swiftcover.example.com/policy/88231',
                  },
                  { title: 'Home insurance', url: 'https://homeshield.example.com/account' },
                ],
              },
            ],
          },
        },
      },
    ];
    const checks = [{ kind: 'chromium.no_bookmark', url: 'https://swiftcover.example.com/policy/88231' }];
    assert.deepEqual(targetsOf(checks, browser).sort(), [
      'Old car policy - Swift Cover',
      'https://swiftcover.example.com/policy/88231',
    ]);
    const at = (instruction: string) =>
      discoveryProblem({ instruction, level: 'goal', checks, prepares: browser });
    assert.match(
      at('Delete "Old car policy - Swift Cover" from my Insurance bookmarks.') ?? '',
      /names its target/,
    );
    assert.equal(at('I sold that car, so the old policy bookmark can go.'), undefined);
  });
  test('a slide deleted is the title the deck held and the order no longer lists', () => {
    const deck = [
      {
        app: 'impress',
        target: 'Documents/plan.pptx',
        open: false,
        doc: {
          slides: [{ title: 'Plan' }, { title: 'Budget' }, { title: 'Old timeline' }, { title: 'Team' }],
        },
      },
    ];
    const checks = [
      { kind: 'impress.order', file: 'Documents/plan.pptx', titles: ['Plan', 'Budget', 'Team'] },
    ];
    assert.deepEqual(targetsOf(checks, deck), ['Old timeline']);
    const at = (instruction: string) =>
      discoveryProblem({ instruction, level: 'goal', checks, prepares: deck });
    assert.match(at('Delete the "Old timeline" slide of plan.pptx.') ?? '', /names its target/);
    assert.equal(at('One slide of plan.pptx is marked out of date; take it out.'), undefined);
  });
  test('a Calc column is known by its header: the key sorted by, the figures totalled; a row is not', () => {
    const book = [
      {
        app: 'calc',
        target: 'Desktop/sales.xlsx',
        open: false,
        doc: {
          sheets: [
            {
              name: 'Data',
              columns: [{ header: 'Region' }, { header: 'March' }, { header: 'April' }],
              rows: [['North', 1, 2]],
            },
            { name: 'Notes', columns: [{ header: 'Topic' }, { header: 'Owner' }] },
          ],
        },
      },
    ];
    const file = 'Desktop/sales.xlsx';
    const checks = [
      { kind: 'calc.range_sorted', file, sheet: 'Data', range: 'A1:C9', column: 'B' },
      { kind: 'calc.formula', file, sheet: 'data', cell: 'C10', covers: ['C2:C9'] },
      // A row's style points at its cells, not at the headers of the columns it crosses.
      { kind: 'calc.style', file, sheet: 'Data', range: 'A4:C4', bold: true },
      // A column kept on view or at its width is a constraint, not the target.
      { kind: 'calc.columns_hidden', file, sheet: 'Notes', columns: ['B'] },
      { kind: 'calc.columns_hidden', file, sheet: 'Notes', columns: ['A'], hidden: false },
      { kind: 'calc.column_width', file, sheet: 'Data', column: 'A', min: 15, max: 21 },
    ];
    const headers = targetsOf(checks, book).filter((t) => !/^[A-Z]+[0-9]+$/.test(t));
    assert.deepEqual(headers.sort(), ['April', 'March', 'Owner']);
    const at = (instruction: string) =>
      discoveryProblem({ instruction, level: 'goal', checks, prepares: book });
    assert.match(
      at('Sort sales.xlsx by March and total April at the bottom.') ?? '',
      /names its target "March"/,
    );
    assert.equal(
      at('Sort sales.xlsx by the earlier month, and total the latest month under its figures.'),
      undefined,
    );
  });
  test('the file a link points at, the person a contact card is for', () => {
    const held = [
      {
        app: 'os',
        target: 'Shared',
        open: false,
        doc: {
          entries: [
            { path: 'Shared/rates-2025.csv', content: 'a\n' },
            { path: 'Shared/rates-2024.csv', content: 'b\n' },
          ],
        },
      },
      {
        app: 'thunderbird',
        target: 'forge.default',
        open: false,
        doc: { folders: [{ messages: [{ text: 'Best regards,\nMorgan Ellis\nmorgan@ellis.example' }] }] },
      },
    ];
    const checks = [
      { kind: 'os.symlink_to', path: 'work/p/rates.csv', to: 'Shared/rates-2025.csv' },
      { kind: 'thunderbird.contact_exists', email: 'morgan@ellis.example', name: 'Morgan Ellis' },
    ];
    assert.deepEqual(targetsOf(checks, held).sort(), [
      'Morgan Ellis',
      'morgan@ellis.example',
      'rates-2025.csv',
    ]);
    // A card for someone the task's files never mention (details typed from the instruction) points at no one.
    const typed = [{ kind: 'thunderbird.contact_exists', email: 'kim@x.example', name: 'Kim Park' }];
    assert.deepEqual(targetsOf(typed, held), []);
  });
  test('an instruction that names any of them is no discovery; one that describes them is', () => {
    const checks = [
      { kind: 'thunderbird.message_state', folder: 'Inbox', subject: 'Contract draft v3', flagged: true },
    ];
    const at = (instruction: string) => discoveryProblem({ instruction, level: 'goal', checks, prepares });
    assert.match(at('Star "Contract draft v3" from Ana in my Inbox.') ?? '', /names its target/);
    assert.equal(at('Star the latest mail Ana sent me, so I answer it first.'), undefined);
    // Every message of one sender: the sender's address is what the check points at.
    const bySender = [
      { kind: 'thunderbird.message_state', folder: 'Inbox', from: 'ana@firm.example', read: true },
    ];
    const inbox = [
      {
        app: 'thunderbird',
        target: 'forge.default',
        open: false,
        doc: {
          folders: [{ path: 'Inbox', messages: [{ from: 'Ana Ruiz <ana@firm.example>', subject: 'Hi' }] }],
        },
      },
    ];
    const sender = (instruction: string) =>
      discoveryProblem({ instruction, level: 'goal', checks: bySender, prepares: inbox });
    assert.match(sender('Mark all mail from ana@firm.example as read.') ?? '', /names its target/);
    assert.equal(sender('Mark everything from whoever wrote most often as read.'), undefined);
    assert.match(
      discoveryProblem({ instruction: 'Make it bold.', level: 'goal', checks: [], prepares: [] }) ?? '',
      /no target/,
    );
    // B1 is not named by "B12".
    const cell = [{ kind: 'calc.style', file: 'Desktop/a.xlsx', sheet: 'S', range: 'A1:C1', bold: true }];
    assert.equal(
      discoveryProblem({
        instruction: 'Bold the heading of a.xlsx; A12 stays.',
        level: 'goal',
        checks: cell,
        prepares: [],
      }),
      undefined,
    );
  });
});

describe('discovery in the task pipeline', () => {
  test('a goal instruction that names the target of a discovery skill is rejected before anything is built', async () => {
    const { spec } = loadSkillLibrary().get('thunderbird.messages.flag-message')!;
    const a = await authorTask(spec, 5, offlineCaller, { level: 'goal', roundId: 'unit', taskIndex: 0 });
    assert.ok(a.ok);
    const subject = (a.context.scenario as { subject: string }).subject;
    a.context.instruction = { text: `Please star "${subject}" in my mail so I remember to answer it.` };
    const p = await prepareInMemory(spec, 'file', a.context);
    assert.equal(p.ok, false);
    assert.ok(!p.ok && p.reason === 'instruction_invalid' && /^discovery: names its target/.test(p.detail));
  });
});

describe('discovery across the library', () => {
  test('every skill marked discovery leaves its target to be found at those levels, over several tasks', async () => {
    const failures: string[] = [];
    let marked = 0;
    let total = 0;
    for (const [id, { spec }] of loadSkillLibrary()) {
      total++;
      if (spec.discovery.length === 0) continue;
      marked++;
      for (const level of spec.discovery)
        for (const seed of [3, 17, 41, 77]) {
          const r = await authorTask(spec, seed, offlineCaller, {
            level,
            roundId: `unit-${seed}`,
            taskIndex: 0,
          });
          if (!r.ok) {
            failures.push(`${id} ${level} ${seed}: ${r.reason} ${r.detail}`);
            continue;
          }
          const m = await materializeTask(spec, r.context);
          const problem = discoveryProblem({
            instruction: m.instruction,
            level,
            checks: m.checks as Record<string, unknown>[],
            prepares: m.prepares,
          });
          if (problem) failures.push(`${id} ${level} seed ${seed}: ${problem}: ${m.instruction}`);
        }
    }
    const share = marked / total;
    console.log(`discovery at goal level: ${marked} of ${total} skills (${(share * 100).toFixed(1)}%)`);
    assert.deepEqual(failures, []);
    assert.ok(marked >= DISCOVERY_SKILLS, `${marked} skills are marked discovery`);
    assert.ok(share >= DISCOVERY_FLOOR, `${marked}/${total} skills are marked discovery`);
  });

  test('a default round: at least 30% of its goal-level tasks need their target found', () => {
    // As a round with no allocation plans it: 3 tasks a skill, long workflows raised to their share
    // (app/rounds/depthPlan.ts), each skill's levels drawn from the default 20/50/30 mix.
    const skills = [...loadSkillLibrary().values()].map(({ spec }) => ({
      id: spec.id,
      depth: spec.features ?? 1,
      apps: spec.apps.length,
      tasks: 3,
      goal: spec.discovery.includes('goal'),
    }));
    const tasks = weightLongHorizon(skills);
    let goal = 0;
    let found = 0;
    for (const s of skills) {
      const n = levelPlan(DEFAULT_LEVEL_MIX, tasks.get(s.id) ?? s.tasks, 1).filter(
        (l) => l === 'goal',
      ).length;
      goal += n;
      if (s.goal) found += n;
    }
    console.log(`a default round's goal tasks needing discovery: ${found} of ${goal}`);
    assert.ok(found / goal >= DISCOVERY_FLOOR, `${found} of ${goal} goal tasks need discovery`);
  });
});
