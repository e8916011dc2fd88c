import pg from 'pg';

/** Server for tests: TEST_DATABASE_URL, else the local PostgreSQL of the development and CI machines. */
export const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Helpers working in parallel set their own prefix so their databases never collide. */
export const PREFIX = process.env.TEST_DB_PREFIX ?? 'mallfront_test';
export const TEMPLATE_DB = `${PREFIX}_template`;

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
