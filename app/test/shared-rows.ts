import pg from "pg";
import { afterAll, beforeAll } from "vitest";

/** The advisory lock's key: any number no other code takes. */
const offerSettingsLock = 7_243_001;

/**
 * offer_settings is one row. On PGlite each test file has a database of its own; on
 * PostgreSQL every file of a run shares it, and files run at once. A file that commits
 * writes to the row calls this at its top, before its own afterAll that puts the
 * defaults back: it holds a lock from its first test to its last (after hooks run in
 * reverse), so no other such file's write lands between its write and its read.
 */
export function holdOfferSettingsRow(): void {
  let client: pg.Client | undefined;
  beforeAll(async () => {
    const url = process.env.DATABASE_URL;
    if (!url) return;
    client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("select pg_advisory_lock($1)", [offerSettingsLock]);
  }, 300_000);
  afterAll(async () => {
    await client?.query("select pg_advisory_unlock($1)", [offerSettingsLock]);
    await client?.end();
  });
}
