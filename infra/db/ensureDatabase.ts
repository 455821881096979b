import pg from 'pg';

/** Postgres's "database does not exist". */
const NO_SUCH_DATABASE = '3D000';

/**
 * Creates the database a URL names when it is missing (a FORGE_NAMESPACE's own database), through
 * the server's `postgres` database. Needs CREATEDB on external servers; the error says so.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== NO_SUCH_DATABASE) throw err;
  } finally {
    await probe.end().catch(() => {});
  }
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.toString() });
  admin.on('error', () => {});
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`);
  } catch (err) {
    // Another process may have created it meanwhile.
    if ((err as { code?: string }).code !== '42P04')
      throw new Error(`cannot create database ${name} (${(err as Error).message})`);
  } finally {
    await admin.end().catch(() => {});
  }
}
