import { type EditMutant, editMutants, twinPath } from '../editMutants.ts';
import type { FileMap } from '../types.ts';
import { readContacts } from './addressBook.ts';
import { applyThunderbird } from './apply.ts';
import { STANDARD_FOLDERS } from './folders.ts';
import { FLAG, type StoredMessage } from './mbox.ts';
import { normalizeSubject, parseMessage } from './mime.ts';
import type { PrefValue } from './prefs.ts';
import { heldPref } from './prefsKept.ts';
import { isLive, Profile } from './profile.ts';
import type { ThunderbirdEdit } from './schema.ts';
import { matches, type Selector } from './select.ts';

/**
 * The near misses a careless person makes in Thunderbird, per edit: the neighbouring message of
 * the folder acted on instead (from the initial profile's mbox), the wrong folder (a sibling), a
 * recipient too few or in Cc instead of To, a term or action too many or too few on a filter —
 * each a state the instruction rules out, never a correct alternative.
 */
type Mutant = EditMutant<ThunderbirdEdit>;

const parentOf = (folder: string) => (folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '');
const leafOf = (folder: string) => folder.slice(folder.lastIndexOf('/') + 1);

export async function thunderbirdMutants(edits: ThunderbirdEdit[], initial: FileMap): Promise<Mutant[]> {
  let profile: Profile;
  let folders: string[];
  try {
    profile = new Profile(initial);
    folders = profile.folders();
  } catch {
    return [];
  }
  const selectors: { folder: string; selector: Selector }[] = edits.flatMap((e) =>
    'folder' in e && typeof e.folder === 'string' ? [{ folder: e.folder, selector: e as Selector }] : [],
  );
  /** The message next to the one an edit picks in its folder, that no edit of the task picks. */
  const neighbour = (
    folder: string,
    selector: Selector,
    changes: (m: StoredMessage) => boolean = () => true,
  ): string | undefined => {
    if (selector.all === true) return undefined;
    const at = profile.folder(folder);
    if (at === undefined) return undefined;
    const messages = profile.messages(at).filter(isLive);
    const picked = messages.findIndex((m) => matches(m, selector));
    const free = (k: number) => {
      const m = messages[k];
      if (m === undefined || !changes(m)) return undefined;
      if (selectors.some((s) => profile.folder(s.folder) === at && matches(m, s.selector))) return undefined;
      const subject = parseMessage(m.raw).subject;
      // A subject shared with a picked message would pick both.
      if (
        messages.some(
          (o) =>
            matches(o, selector) &&
            normalizeSubject(parseMessage(o.raw).subject) === normalizeSubject(subject),
        )
      )
        return undefined;
      return subject.trim() === '' ? undefined : subject;
    };
    for (const k of picked >= 0 ? [picked + 1, picked - 1] : [0]) {
      const s = free(k);
      if (s !== undefined) return s;
    }
    for (let k = 0; k < messages.length; k++) {
      const s = free(k);
      if (s !== undefined) return s;
    }
    return undefined;
  };
  /** A folder beside `folder` (same parent, a user folder first) where `folder` was meant. */
  const sibling = (folder: string, not: string[] = []): string | undefined => {
    const others = folders.filter(
      (f) =>
        f.toLowerCase() !== folder.toLowerCase() && !not.some((n) => n.toLowerCase() === f.toLowerCase()),
    );
    const user = (f: string) =>
      !(STANDARD_FOLDERS as readonly string[]).includes(f) && f !== 'Unsent Messages';
    return (
      others.find((f) => parentOf(f) === parentOf(folder) && user(f)) ??
      others.find(user) ??
      others.find((f) => f === 'Archives' || f === 'Inbox')
    );
  };
  /** Someone from the mailbox autocomplete offers beside the recipients: a sender of another message. */
  const bareOf = (a: string) => (/<([^>]+)>/.exec(a)?.[1] ?? a).trim().toLowerCase();
  const bystander = (recipients: string[], fromBook = true): string | undefined => {
    const taken = new Set(recipients.map(bareOf));
    const own = [...profile.prefs().entries()].flatMap(([k, v]) =>
      /^mail\.identity\.[^.]+\.useremail$/.test(k) && typeof v === 'string' ? [v.toLowerCase()] : [],
    );
    for (const folder of folders)
      for (const m of profile.messages(folder).filter(isLive)) {
        const from = bareOf(parseMessage(m.raw).from);
        if (/^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(from) && !taken.has(from) && !own.includes(from))
          return from;
      }
    // No mail to take one from: a card of the address book (not for a card too many: that would
    // be a copy of it), else a recipient's address with a letter dropped (sent twice, once mistyped).
    const book = fromBook ? profile.addressBook() : undefined;
    for (const c of book === undefined ? [] : readContacts(book)) {
      const e = c.email.toLowerCase();
      if (e && !taken.has(e) && !own.includes(e)) return e;
    }
    for (const r of taken) {
      const [local, domain] = r.split('@');
      const typo = local && local.length > 2 ? `${local.slice(0, -1)}@${domain}` : undefined;
      if (typo && domain && !taken.has(typo) && !own.includes(typo)) return typo;
    }
    return undefined;
  };
  const { out, add, also } = editMutants(edits);
  /**
   * A setting the profile has that the task leaves alone, changed on the way (a checkbox beside the
   * asked one, the identity's other switch): the nearest by name to `near`. Booleans and numbers
   * only; an identity's validity and the prefs the app manages are not a person's setting.
   */
  let touched: Set<string> | undefined;
  const strayPref = async (near: string): Promise<{ name: string; value: PrefValue } | undefined> => {
    if (touched === undefined) {
      const before = profile.prefs();
      const after = new Profile(await applyThunderbird(initial, edits)).prefs();
      touched = new Set([...before.keys(), ...after.keys()].filter((k) => before.get(k) !== after.get(k)));
    }
    const shared = (a: string) => {
      let n = 0;
      while (n < a.length && a[n] === near[n]) n++;
      return n;
    };
    const candidates = [...profile.prefs()].filter(
      ([k, v]) => heldPref(k) && !touched!.has(k) && !/\.valid$/.test(k) && typeof v !== 'string',
    );
    candidates.sort((a, b) => shared(b[0]) - shared(a[0]) || (a[0] < b[0] ? -1 : 1));
    const pick = candidates[0];
    if (pick === undefined) return undefined;
    const [name, value] = pick;
    return { name, value: typeof value === 'boolean' ? !value : (value as number) + 1 };
  };
  const prefTargets: Record<string, (e: ThunderbirdEdit) => string> = {
    'thunderbird.set_pref': (e) => (e as { name: string }).name,
    // The identity whose signature it is (by its address; the first one by default).
    'thunderbird.set_signature': (e) => {
      const email = (e as { email?: string }).email?.toLowerCase();
      const key = [...profile.prefs()].find(
        ([k, v]) =>
          /^mail\.identity\.[^.]+\.useremail$/.test(k) && typeof v === 'string' && v.toLowerCase() === email,
      )?.[0];
      return key ? key.replace(/useremail$/, 'sig_on_reply') : 'mail.identity.id1.sig_on_reply';
    },
  };
  /** The cards the task adds: no bystander is one of them. */
  const cards = edits.flatMap((e) => (e.op === 'thunderbird.add_contact' ? [e.contact.email] : []));
  for (const [i, edit] of edits.entries()) {
    const prefNear = prefTargets[edit.op];
    if (prefNear !== undefined) {
      const stray = await strayPref(prefNear(edit));
      if (stray !== undefined)
        also(i, `and ${stray.name} switched to ${String(stray.value)} too (a setting not asked for)`, {
          op: 'thunderbird.set_pref',
          name: stray.name,
          value: stray.value,
        });
    }
    switch (edit.op) {
      case 'thunderbird.move_message':
      case 'thunderbird.delete_message':
      case 'thunderbird.set_flag':
      case 'thunderbird.save_message_file': {
        // A flag change shows on a message whose state it changes.
        const changes = (m: StoredMessage) =>
          edit.op !== 'thunderbird.set_flag' ||
          (edit.read !== undefined && ((m.flags & FLAG.read) !== 0) !== edit.read) ||
          (edit.flagged !== undefined && ((m.flags & FLAG.flagged) !== 0) !== edit.flagged) ||
          (edit.addTag !== undefined && m.keywords.length === 0) ||
          (edit.removeTag !== undefined && m.keywords.length > 0);
        const next = neighbour(edit.folder, edit, changes);
        if (next !== undefined) {
          const beside = { ...edit, subject: next, from: undefined } as ThunderbirdEdit;
          add(i, `on "${next.slice(0, 40)}" (the neighbouring message)`, beside);
          also(i, `and on "${next.slice(0, 40)}" too (the neighbouring message)`, beside);
        }
        if ('all' in edit && edit.all === true) {
          const wrong = sibling(edit.folder, edit.op === 'thunderbird.move_message' ? [edit.to] : []);
          if (wrong !== undefined && profile.messages(wrong).some(isLive))
            add(i, `in ${wrong} (a sibling folder)`, { ...edit, folder: wrong } as ThunderbirdEdit);
        }
        if (edit.op === 'thunderbird.save_message_file')
          also(i, `and again as ${twinPath(edit.to)} (a file not asked for)`, {
            ...edit,
            to: twinPath(edit.to),
          });
        if (edit.op === 'thunderbird.move_message') {
          const wrong = sibling(edit.to, [edit.folder]);
          if (wrong !== undefined) add(i, `to ${wrong} (a sibling folder)`, { ...edit, to: wrong });
        }
        break;
      }
      case 'thunderbird.create_folder': {
        // Created under the folder that was selected (the Inbox), or at the top instead of inside its parent.
        const moved = edit.path.includes('/') ? leafOf(edit.path) : `Inbox/${edit.path}`;
        if (!folders.some((f) => f.toLowerCase() === moved.toLowerCase())) {
          add(i, `as ${moved} (under the wrong parent)`, { ...edit, path: moved });
          also(i, `and ${moved} too (a folder not asked for)`, { ...edit, path: moved });
        }
        break;
      }
      case 'thunderbird.save_draft':
      case 'thunderbird.save_template': {
        const extra = bystander([...edit.to, ...edit.cc]);
        if (extra !== undefined) {
          add(i, `Cc ${extra} too (a recipient too many)`, { ...edit, cc: [...edit.cc, extra] });
          // A first try left behind: a second message beside the asked one.
          also(i, `and a second one to ${extra} (a message not asked for)`, { ...edit, to: [extra], cc: [] });
        }
        if (edit.to.length > 1)
          add(i, `without ${edit.to.at(-1)} (a recipient missing)`, { ...edit, to: edit.to.slice(0, -1) });
        if (edit.cc.length > 0)
          add(i, `without Cc ${edit.cc.at(-1)} (a recipient missing)`, { ...edit, cc: edit.cc.slice(0, -1) });
        else if (edit.to.length > 1)
          add(i, `${edit.to.at(-1)} in Cc instead of To`, {
            ...edit,
            to: edit.to.slice(0, -1),
            cc: [edit.to.at(-1)!],
          });
        break;
      }
      case 'thunderbird.add_filter': {
        const f = edit.filter;
        if (f.conditions.length > 1)
          add(i, 'a condition left out', {
            ...edit,
            filter: { ...f, conditions: f.conditions.slice(0, -1) },
          });
        else if (f.conditions.length === 1) {
          const c = f.conditions[0]!;
          const field = c.field === 'subject' ? 'from' : 'subject';
          add(i, `a condition too many (${field} ${c.operator} ${c.value})`, {
            ...edit,
            filter: { ...f, match: 'all', conditions: [c, { ...c, field }] },
          } as ThunderbirdEdit);
        }
        if (f.actions.length > 1)
          add(i, 'an action left out', { ...edit, filter: { ...f, actions: f.actions.slice(0, -1) } });
        const has = (a: string) => f.actions.some((x) => x.action === a);
        const extra =
          !has('mark_read') && !has('mark_unread') && !has('delete')
            ? 'mark_read'
            : !has('mark_flagged') && !has('delete')
              ? 'mark_flagged'
              : undefined;
        if (extra !== undefined)
          add(i, `an action too many (${extra})`, {
            ...edit,
            filter: { ...f, actions: [...f.actions, { action: extra }] },
          } as ThunderbirdEdit);
        break;
      }
      case 'thunderbird.add_mailing_list': {
        const l = edit.list;
        if (l.members.length > 1)
          add(i, `without ${l.members.at(-1)} (a member missing)`, {
            ...edit,
            list: { ...l, members: l.members.slice(0, -1) },
          });
        const extra = bystander([...l.members, ...cards]);
        if (extra !== undefined)
          add(i, `with ${extra} too (a member not asked for)`, {
            ...edit,
            list: { ...l, members: [...l.members, extra] },
          });
        break;
      }
      case 'thunderbird.add_saved_search': {
        const s = edit.search;
        if (s.scope.length > 1)
          add(i, `without ${s.scope.at(-1)} in its scope`, {
            ...edit,
            search: { ...s, scope: s.scope.slice(0, -1) },
          });
        else {
          const wrong = sibling(s.scope[0]!);
          if (wrong !== undefined)
            add(i, `searching ${wrong} (a sibling folder)`, { ...edit, search: { ...s, scope: [wrong] } });
        }
        break;
      }
      case 'thunderbird.save_attachment':
        also(i, `and again as ${twinPath(edit.to)} (a file not asked for)`, {
          ...edit,
          to: twinPath(edit.to),
        });
        break;
      case 'thunderbird.add_contact': {
        // The sender of the message open beside it saved as well (the card a person adds by mistake).
        const extra = bystander(cards, false);
        if (extra !== undefined)
          also(i, `and a card for ${extra} too (a contact not asked for)`, {
            op: 'thunderbird.add_contact',
            contact: { name: extra.split('@')[0]!, email: extra },
          });
        // The phone number left out (first and last name the oracle fills in are often free).
        if (edit.contact.phone !== undefined) {
          const { phone: _, ...rest } = edit.contact;
          add(i, 'without its phone number', { ...edit, contact: rest });
        }
        break;
      }
    }
  }
  return out;
}
