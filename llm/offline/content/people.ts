/**
 * People and organisations for generated tasks: given names people have (no place names, no
 * honorific suffixes such as Jr., III, PhD or DVM), plain surnames, and an address built from the
 * person's own name, so a display name always matches its address. 150 given names × 150 surnames
 * × several address forms and domains keep any one address rare across a round.
 */
export const FIRST_NAMES = [
  'Aaron',
  'Abigail',
  'Adam',
  'Adrian',
  'Aisha',
  'Alan',
  'Alice',
  'Alicia',
  'Amara',
  'Amelia',
  'Amir',
  'Amy',
  'Ana',
  'Andrew',
  'Angela',
  'Anita',
  'Anna',
  'Anthony',
  'Arjun',
  'Ava',
  'Ben',
  'Beatriz',
  'Bethany',
  'Bilal',
  'Bruno',
  'Caroline',
  'Carlos',
  'Catherine',
  'Chen',
  'Chloe',
  'Chris',
  'Claire',
  'Daniel',
  'David',
  'Deborah',
  'Diana',
  'Dmitri',
  'Elena',
  'Eleanor',
  'Eli',
  'Elif',
  'Emily',
  'Emma',
  'Eric',
  'Erin',
  'Ethan',
  'Fatima',
  'Felix',
  'Fiona',
  'Francesca',
  'Gabriel',
  'Grace',
  'Graham',
  'Hannah',
  'Harriet',
  'Hassan',
  'Helen',
  'Henry',
  'Hugo',
  'Ian',
  'Ibrahim',
  'Imogen',
  'Irene',
  'Isaac',
  'Isabel',
  'Ivan',
  'Jack',
  'James',
  'Jane',
  'Jasmine',
  'Javier',
  'Jenny',
  'Joanna',
  'Johan',
  'Jonathan',
  'Joseph',
  'Julia',
  'Julian',
  'Karen',
  'Karim',
  'Kate',
  'Kenji',
  'Laura',
  'Leah',
  'Leila',
  'Leo',
  'Liam',
  'Lina',
  'Lucy',
  'Luis',
  'Maria',
  'Mark',
  'Marta',
  'Martin',
  'Maya',
  'Megan',
  'Mei',
  'Michael',
  'Miriam',
  'Mohammed',
  'Nadia',
  'Naomi',
  'Nathan',
  'Neil',
  'Nicola',
  'Nikhil',
  'Nina',
  'Noah',
  'Oliver',
  'Olivia',
  'Omar',
  'Oscar',
  'Paul',
  'Paula',
  'Peter',
  'Priya',
  'Rachel',
  'Rahul',
  'Rebecca',
  'Richard',
  'Rosa',
  'Ruth',
  'Ryan',
  'Samuel',
  'Sara',
  'Simon',
  'Sofia',
  'Sophie',
  'Stefan',
  'Stephen',
  'Susan',
  'Tariq',
  'Thomas',
  'Tim',
  'Tom',
  'Uma',
  'Victor',
  'Victoria',
  'Wei',
  'William',
  'Yasmin',
  'Yusuf',
  'Zara',
  'Zoe',
  'Anders',
  'Ingrid',
  'Lars',
  'Mateo',
  'Noor',
  'Ravi',
] as const;

export const LAST_NAMES = [
  'Adams',
  'Ahmed',
  'Ali',
  'Allen',
  'Alvarez',
  'Andersen',
  'Baker',
  'Banerjee',
  'Barnes',
  'Bell',
  'Bennett',
  'Berg',
  'Bishop',
  'Brooks',
  'Brown',
  'Burke',
  'Campbell',
  'Carter',
  'Castro',
  'Chan',
  'Chapman',
  'Clarke',
  'Cole',
  'Collins',
  'Cooper',
  'Costa',
  'Cox',
  'Davies',
  'Dawson',
  'Diaz',
  'Dixon',
  'Doyle',
  'Edwards',
  'Ellis',
  'Evans',
  'Fernandez',
  'Fischer',
  'Fleming',
  'Foster',
  'Fox',
  'Garcia',
  'Gibson',
  'Gill',
  'Gomez',
  'Graham',
  'Grant',
  'Gray',
  'Green',
  'Gupta',
  'Hall',
  'Hansen',
  'Harris',
  'Hart',
  'Hayes',
  'Henderson',
  'Hill',
  'Holmes',
  'Hughes',
  'Hunt',
  'Hussain',
  'Iqbal',
  'Jackson',
  'James',
  'Jensen',
  'Johnson',
  'Jones',
  'Kaur',
  'Kelly',
  'Kennedy',
  'Khan',
  'Kim',
  'King',
  'Klein',
  'Kowalski',
  'Kumar',
  'Larsen',
  'Lee',
  'Lewis',
  'Lim',
  'Lopez',
  'Marsh',
  'Marshall',
  'Martin',
  'Mason',
  'Mehta',
  'Meyer',
  'Miller',
  'Mitchell',
  'Moore',
  'Morgan',
  'Morris',
  'Murphy',
  'Murray',
  'Nakamura',
  'Nguyen',
  'Nielsen',
  'Novak',
  "O'Brien",
  'Okafor',
  'Owen',
  'Palmer',
  'Park',
  'Parker',
  'Patel',
  'Pearson',
  'Perez',
  'Phillips',
  'Price',
  'Quinn',
  'Reed',
  'Reid',
  'Reyes',
  'Richards',
  'Roberts',
  'Robinson',
  'Rossi',
  'Russell',
  'Santos',
  'Schmidt',
  'Scott',
  'Shah',
  'Sharma',
  'Shaw',
  'Silva',
  'Singh',
  'Smith',
  'Sousa',
  'Stewart',
  'Sullivan',
  'Tanaka',
  'Taylor',
  'Thomas',
  'Thompson',
  'Turner',
  'Walker',
  'Wallace',
  'Walsh',
  'Wang',
  'Ward',
  'Watson',
  'Weber',
  'Webb',
  'White',
  'Williams',
  'Wilson',
  'Wong',
  'Wood',
  'Wright',
  'Young',
  'Zhang',
] as const;

/** Fictional organisations' mail domains, and a few personal mail providers. */
const ORG_DOMAINS = [
  'brightwater.co.uk',
  'northfield-partners.com',
  'harbourview.org',
  'meadowlane.net',
  'oakridge-consulting.com',
  'riverside-clinic.org',
  'stonebridge.co',
  'greenway-logistics.com',
  'lakeside-school.org',
  'copperleaf.io',
  'westgate-supplies.com',
  'hillcrest-events.com',
  'bluefern.org',
  'elmstreet-studio.com',
  'fairfield-hr.com',
  'kingsway-retail.com',
  'silverbirch.org',
  'maplecourt.net',
  'redkite-research.org',
  'sunnybank-trust.org',
];
const PERSONAL_DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'icloud.com'];

const ORG_STEMS = [
  'Brightwater',
  'Northfield',
  'Harbourview',
  'Meadowlane',
  'Oakridge',
  'Stonebridge',
  'Greenway',
  'Copperleaf',
  'Westgate',
  'Hillcrest',
  'Bluefern',
  'Silverbirch',
  'Maplecourt',
  'Redkite',
  'Sunnybank',
  'Ashford',
  'Kestrel',
  'Larkspur',
  'Millbrook',
  'Pinewood',
  'Rowan',
  'Thornbury',
  'Willowdale',
  'Yarrow',
];
const ORG_KINDS = [
  'Supplies',
  'Consulting',
  'Logistics',
  'Services',
  'Partners',
  'Print',
  'Office Solutions',
  'Catering',
  'Facilities',
  'Energy',
  'Water',
  'Telecom',
  'Cleaning',
  'Stationery',
  'Events',
  'Travel',
];

/** What both seeded generators of the project offer. */
export interface UnitRng {
  next(): number;
}

const pickWith = <T>(rng: UnitRng, items: readonly T[]): T => items[Math.floor(rng.next() * items.length)]!;

export interface Person {
  first: string;
  last: string;
  /** "First Last". */
  name: string;
  /** Lowercase, made from the name: first.last@, flast@, first@ or first_last@ a domain. */
  email: string;
}

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** An address for a name, in one of the forms organisations use; `n` > 0 adds a number (a second Ann Lee). */
export function emailFor(first: string, last: string, rng: UnitRng, n = 0): string {
  const f = ascii(first);
  const l = ascii(last);
  const personal = rng.next() < 0.25;
  const domain = personal ? pickWith(rng, PERSONAL_DOMAINS) : pickWith(rng, ORG_DOMAINS);
  const forms = personal
    ? [`${f}.${l}`, `${f}${l}`, `${f}_${l}`]
    : // Not the first name alone: two Brunos of one firm would share an address.
      [`${f}.${l}`, `${f[0]}${l}`, `${f}.${l}`];
  const local = pickWith(rng, forms);
  return `${local}${n > 0 ? n + 1 : ''}@${domain}`;
}

export function drawPerson(rng: UnitRng): Person {
  const first = pickWith(rng, FIRST_NAMES);
  const last = pickWith(rng, LAST_NAMES);
  return { first, last, name: `${first} ${last}`, email: emailFor(first, last, rng) };
}

/**
 * An organisation's name as people write it on a letterhead or a bill: no commas inside. `kinds`
 * says what it does (a supplier's, a funder's), when the sentence naming it says.
 */
export function drawOrganisation(rng: UnitRng, kinds: readonly string[] = ORG_KINDS): string {
  const stem = pickWith(rng, ORG_STEMS);
  const kind = pickWith(rng, kinds);
  return rng.next() < 0.3 && !/Trust|Foundation|Fund$/.test(kind) ? `${stem} ${kind} Ltd` : `${stem} ${kind}`;
}

const NOT_PERSON_WORDS = new Set(
  [
    ...ORG_STEMS,
    ...ORG_KINDS.flatMap((k) => k.split(' ')),
    'Team',
    'Desk',
    'Digest',
    'News',
    'Union',
    'Group',
    'Co',
    'Ltd',
    'Inc',
    'Bank',
    'Club',
    'Council',
    'School',
    'Clinic',
    'Office',
    'Lettings',
    'Weekly',
    'Daily',
    'Monthly',
    'Support',
    'Sales',
    'Admin',
  ].map((w) => w.toLowerCase()),
);

/** "Ann Lee", "Sanne de Vries", "Ji-ho Park": a person's name, not a team's, a newsletter's or a firm's. */
export function isPersonName(name: string): boolean {
  if (!/^[A-Z][a-z'’-]+(?: (?:de|van|von|da|di|del|le|la|der))? [A-Z][A-Za-z'’-]+$/.test(name)) return false;
  return !name.split(/[\s-]+/).some((w) => NOT_PERSON_WORDS.has(w.toLowerCase()));
}

const FIRM_MAILBOXES = ['office', 'accounts', 'hello', 'info', 'orders', 'support', 'billing', 'sales'];

/** A firm's shared mailbox at a domain made from its name: "Oakridge Partners Ltd" → accounts@oakridgepartners.com. */
export function firmEmail(firm: string, rng: UnitRng, n = 0): string {
  const domain = firm
    .replace(/\b(Ltd|Inc|LLC|plc)\b\.?/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  const box = pickWith(rng, FIRM_MAILBOXES);
  return `${box}${n > 0 ? n + 1 : ''}@${domain || 'firm'}.${pickWith(rng, ['com', 'co.uk', 'net'])}`;
}
