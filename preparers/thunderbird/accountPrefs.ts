import { folderUri } from './folders.ts';
import type { PrefValue } from './prefs.ts';
import type { IdentitySpec, ThunderbirdDoc } from './schema.ts';
import { tagKeyFromName } from './tags.ts';

/**
 * Prefs that keep startup quiet and offline: no account wizard, start page, default-client
 * prompt, telemetry, update, donation or in-app notification tabs.
 */
export const QUIET_PREFS: Record<string, PrefValue> = {
  'app.donation.eoy.version.viewed': 999,
  'app.update.auto': false,
  'app.update.checkInstallTime': false,
  'app.update.enabled': false,
  'datareporting.healthreport.uploadEnabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.policy.dataSubmissionPolicyBypassNotification': true,
  'mail.inappnotifications.enabled': false,
  'mail.provider.enabled': false,
  'mail.rights.version': 1,
  'mail.shell.checkDefaultClient': false,
  'mail.spotlight.firstRunDone': true,
  'mail.startup.enabledMailCheckOnce': true,
  'mail.winsearch.firstRunDone': true,
  'mailnews.start_page.enabled': false,
  'mailnews.start_page_override.mstone': 'ignore',
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'mail.biff.play_sound': false,
  'mail.biff.show_alert': false,
};

/** Identity prefs that hold the signature. */
export function signaturePrefs(key: string, signature: string, isHtml: boolean): Record<string, PrefValue> {
  return {
    [`mail.identity.${key}.htmlSigText`]: signature,
    [`mail.identity.${key}.htmlSigFormat`]: isHtml,
    [`mail.identity.${key}.attach_signature`]: false,
  };
}

function identityPrefs(key: string, identity: IdentitySpec): Record<string, PrefValue> {
  const prefix = `mail.identity.${key}`;
  const prefs: Record<string, PrefValue> = {
    [`${prefix}.fullName`]: identity.name,
    [`${prefix}.useremail`]: identity.email,
    [`${prefix}.valid`]: true,
    [`${prefix}.smtpServer`]: 'smtp1',
    [`${prefix}.fcc`]: true,
    [`${prefix}.fcc_folder`]: folderUri('Sent'),
    [`${prefix}.fcc_folder_picker_mode`]: '1',
    [`${prefix}.draft_folder`]: folderUri('Drafts'),
    [`${prefix}.drafts_folder_picker_mode`]: '1',
    [`${prefix}.stationery_folder`]: folderUri('Templates'),
    [`${prefix}.tmpl_folder_picker_mode`]: '1',
    [`${prefix}.archive_folder`]: folderUri('Archives'),
    [`${prefix}.reply_on_top`]: 0,
    [`${prefix}.sig_on_reply`]: true,
    [`${prefix}.sig_on_fwd`]: true,
    ...signaturePrefs(key, identity.signature ?? '', identity.signatureIsHtml),
  };
  if (identity.organization !== undefined) prefs[`${prefix}.organization`] = identity.organization;
  if (identity.replyTo !== undefined) prefs[`${prefix}.reply_to`] = identity.replyTo;
  return prefs;
}

/**
 * Accounts that need no network: account1 is the user's mail account, a POP3 server on
 * 127.0.0.1 that is never checked and whose mail is kept in Local Folders (deferred), so the
 * folder pane shows one tree; account2 is Local Folders (server type "none").
 */
export function accountPrefs(doc: ThunderbirdDoc): Map<string, PrefValue> {
  const primary = doc.identities[0];
  const identityKeys = doc.identities.map((_, i) => `id${i + 1}`);
  // The spec's prefs first, so none of the profile's own (quiet start, account, servers,
  // identities, tags) can be overridden by a spec.
  const prefs: Record<string, PrefValue> = {
    ...doc.prefs,
    ...QUIET_PREFS,
    'mail.accountmanager.accounts': 'account1,account2',
    'mail.accountmanager.defaultaccount': 'account1',
    'mail.accountmanager.localfoldersserver': 'server2',
    'mail.account.account1.server': 'server1',
    'mail.account.account1.identities': identityKeys.join(','),
    'mail.account.account2.server': 'server2',
    'mail.server.server1.type': 'pop3',
    'mail.server.server1.hostname': '127.0.0.1',
    'mail.server.server1.port': 110,
    'mail.server.server1.socketType': 0,
    'mail.server.server1.authMethod': 3,
    'mail.server.server1.userName': primary.email.split('@')[0],
    'mail.server.server1.name': doc.accountName ?? primary.email,
    'mail.server.server1.login_at_startup': false,
    'mail.server.server1.check_new_mail': false,
    'mail.server.server1.download_on_biff': false,
    'mail.server.server1.deferred_to_account': 'account2',
    'mail.server.server1.directory-rel': '[ProfD]Mail/127.0.0.1',
    'mail.server.server2.type': 'none',
    'mail.server.server2.hostname': 'Local Folders',
    'mail.server.server2.userName': 'nobody',
    'mail.server.server2.name': 'Local Folders',
    'mail.server.server2.directory-rel': '[ProfD]Mail/Local Folders',
    'mail.smtpservers': 'smtp1',
    'mail.smtp.defaultserver': 'smtp1',
    'mail.smtpserver.smtp1.hostname': '127.0.0.1',
    'mail.smtpserver.smtp1.port': 25,
    'mail.smtpserver.smtp1.authMethod': 1,
    'mail.smtpserver.smtp1.try_ssl': 0,
    'mail.smtpserver.smtp1.username': primary.email.split('@')[0],
  };
  for (const [i, identity] of doc.identities.entries())
    Object.assign(prefs, identityPrefs(identityKeys[i], identity));
  for (const tag of doc.tags) {
    const key = tagKeyFromName(tag.name);
    prefs[`mailnews.tags.${key}.tag`] = tag.name;
    prefs[`mailnews.tags.${key}.color`] = tag.color;
  }
  return new Map(Object.entries(prefs));
}

/** The identity key (id1…) of an e-mail address, or of the first identity when none is given. */
export function identityKey(prefs: Map<string, PrefValue>, email?: string): string {
  const account = prefs.get('mail.accountmanager.defaultaccount');
  const keys = String(prefs.get(`mail.account.${account}.identities`) ?? '')
    .split(',')
    .filter(Boolean);
  const all =
    keys.length > 0
      ? keys
      : [...prefs.keys()].flatMap((k) => /^mail\.identity\.([^.]+)\.useremail$/.exec(k)?.[1] ?? []);
  if (email === undefined) {
    if (all.length === 0) throw new Error('the profile has no identity');
    return all[0];
  }
  const found = [...prefs.keys()]
    .map((k) => /^mail\.identity\.([^.]+)\.useremail$/.exec(k)?.[1])
    .find(
      (key) =>
        key !== undefined &&
        String(prefs.get(`mail.identity.${key}.useremail`)).toLowerCase() === email.toLowerCase(),
    );
  if (found === undefined) throw new Error(`no identity with e-mail ${email}`);
  return found;
}
