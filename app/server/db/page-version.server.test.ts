import { getTableName, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, describe, expect, it } from "vitest";
import { createUser } from "~/test/helpers";
import { closeDatabase, getDb } from "./db.server";
import * as schema from "./schema";

afterAll(closeDatabase);

/** Tables whose rows a member page shows (the page cache keeps pages by their versions). */
const shownOnMemberPages = [
  "user",
  "session",
  "purchase",
  "chapter_progress",
  "course_visit",
  "saved_idea",
  "two_factor",
  "course",
  "chapter",
  "product_course",
  "offer_settings",
];
/** Tables no member page reads: a write to them leaves every cached page as it is. */
const notShownOnMemberPages = [
  "sales_day",
  "member_progress",
  "member_spend",
  "member_holding",
  "account",
  "verification",
  "purchase_revocation",
  // Shown in the console only; a refund in full changes its purchase, which is shown.
  "refund",
  "payment_issue",
  "stripe_customer",
  "webhook_event",
  "email_outbox",
  // The console's broadcasts and the members' marketing choice: no member page shows them.
  "broadcast",
  "email_preference",
  "test_checkout",
  "page_version",
  "audit_log",
  "page_view",
  "chapter_view",
  "sign_in_address",
  // Shown on /coaching and in the console, neither kept by the page cache.
  "coaching_application",
  // Listed on /account and /admin/products, neither kept by the page cache.
  "product_file",
];

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await (await getDb()).execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

describe("page versions", () => {
  it("every table is either versioned for the page cache or known not to be shown", () => {
    const tables = (Object.values(schema) as unknown[])
      .filter((value) => value instanceof PgTable)
      .map((table) => getTableName(table as PgTable))
      .sort();
    // A new table must be placed in one of the two lists (and, if shown, get triggers).
    expect(tables).toEqual([...shownOnMemberPages, ...notShownOnMemberPages].sort());
  });

  it("every write to a shown table, of any kind, bumps a version in its transaction", async () => {
    const triggers = await rows<{ table: string; events: string }>(sql`
      select c.relname as table,
        string_agg(distinct e.event, ',' order by e.event) as events
      from pg_trigger t
      join pg_class c on c.oid = t.tgrelid
      join pg_proc p on p.oid = t.tgfoid
      cross join lateral (values
        (case when t.tgtype & 4 <> 0 then 'insert' end),
        (case when t.tgtype & 8 <> 0 then 'delete' end),
        (case when t.tgtype & 16 <> 0 then 'update' end),
        (case when t.tgtype & 32 <> 0 then 'truncate' end)) as e(event)
      where not t.tgisinternal and p.proname like 'page_version_of_%' and e.event is not null
      group by c.relname`);
    const byTable = Object.fromEntries(triggers.map((t) => [t.table, t.events]));
    for (const table of shownOnMemberPages) {
      expect(byTable[table], table).toBe("delete,insert,truncate,update");
    }
    for (const table of notShownOnMemberPages) expect(byTable[table], table).toBeUndefined();
  });

  it("bumps the user's version for their rows and the shared one for courses", async () => {
    const db = await getDb();
    const version = async (key: string) =>
      Number(
        (
          await rows<{ v: string | null }>(
            sql`select version as v from page_version where key = ${key}`,
          )
        )[0]?.v ?? 0,
      );
    const member = await createUser();
    const other = await createUser();
    const mine = await version(`user:${member.id}`);
    const theirs = await version(`user:${other.id}`);
    const shared = await version("shared");
    expect(mine).toBeGreaterThan(0);
    await db.execute(sql`update "user" set name = 'Renamed' where id = ${member.id}`);
    expect(await version(`user:${member.id}`)).toBe(mine + 1);
    expect(await version(`user:${other.id}`)).toBe(theirs);
    expect(await version("shared")).toBe(shared);
    await db.execute(sql`insert into course (title) values ('Versioned')`);
    expect(await version("shared")).toBe(shared + 1);
    expect(await version(`user:${member.id}`)).toBe(mine + 1);
  });
});
