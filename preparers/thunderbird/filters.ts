import { folderOfUri, folderUri } from './folders.ts';
import type { FilterActionName, FilterSpec } from './schema.ts';

/** Thunderbird's action names in msgFilterRules.dat. */
export const ACTION_NAMES: Record<FilterActionName, string> = {
  move: 'Move to folder',
  copy: 'Copy to folder',
  mark_read: 'Mark read',
  mark_unread: 'Mark unread',
  mark_flagged: 'Mark flagged',
  add_tag: 'AddTag',
  delete: 'Delete',
  forward: 'Forward',
  stop: 'Stop execution',
};
const TYPES = { incoming: 1, manual: 16, both: 17 } as const;

/** A filter as read back from msgFilterRules.dat. */
export interface StoredFilter {
  name: string;
  enabled: boolean;
  type: number;
  actions: { action: string; value?: string }[];
  condition: string;
}

export interface ParsedTerm {
  field: string;
  operator: string;
  value: string;
}

function attr(name: string, value: string): string {
  return `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"\n`;
}

function termValue(value: string): string {
  return /[)"]/.test(value) ? `"${value}"` : value;
}

/** The stored form of a filter spec; tag names must already be resolved to keys. */
export function toStoredFilter(filter: FilterSpec, tagKey: (tag: string) => string): StoredFilter {
  const join = filter.match === 'all' ? 'AND' : 'OR';
  return {
    name: filter.name,
    enabled: filter.enabled,
    type: TYPES[filter.when],
    actions: filter.actions.map((a) => ({
      action: ACTION_NAMES[a.action],
      value:
        a.folder !== undefined
          ? folderUri(a.folder)
          : a.tag !== undefined
            ? tagKey(a.tag)
            : a.to !== undefined
              ? a.to
              : undefined,
    })),
    condition: filter.conditions
      .map((c) => `${join} (${c.field},${c.operator},${termValue(c.value)})`)
      .join(' '),
  };
}

export function renderFilters(filters: StoredFilter[]): string {
  let text = attr('version', '9') + attr('logging', 'no');
  for (const f of filters) {
    text += attr('name', f.name) + attr('enabled', f.enabled ? 'yes' : 'no') + attr('type', String(f.type));
    for (const a of f.actions)
      text += attr('action', a.action) + (a.value === undefined ? '' : attr('actionValue', a.value));
    text += attr('condition', f.condition);
  }
  return text;
}

export function parseFilters(text: string): StoredFilter[] {
  const filters: StoredFilter[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^(\w+)="((?:[^"\\]|\\.)*)"\s*$/.exec(line);
    if (match === null) continue;
    const [, key, escaped] = match;
    const value = escaped.replace(/\\(.)/g, '$1');
    const current = filters[filters.length - 1];
    if (key === 'name') filters.push({ name: value, enabled: true, type: 17, actions: [], condition: '' });
    else if (current === undefined) continue;
    else if (key === 'enabled') current.enabled = value === 'yes';
    else if (key === 'type') current.type = Number.parseInt(value, 10);
    else if (key === 'action') current.actions.push({ action: value });
    else if (key === 'actionValue' && current.actions.length > 0)
      current.actions[current.actions.length - 1].value = value;
    else if (key === 'condition') current.condition = value;
  }
  return filters;
}

/** Terms of a condition string: "AND (subject,contains,invoice) OR (from,is,\"a)b\")". */
export function parseCondition(condition: string): ParsedTerm[] {
  const terms: ParsedTerm[] = [];
  const pattern = /(?:AND|OR)\s+\(([^,]+),([^,]+),("(?:[^"\\]|\\.)*"|[^)]*)\)/g;
  for (const match of condition.matchAll(pattern)) {
    const raw = match[3];
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    terms.push({ field: match[1].trim(), operator: match[2].trim(), value });
  }
  return terms;
}

/** The folder path a Move/Copy action value points to. */
export function actionFolder(value: string | undefined): string | undefined {
  return value === undefined ? undefined : folderOfUri(value);
}
