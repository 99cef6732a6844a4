import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { migrationsInJournal } from "../../test/migrations";
import { openDatabase, rowsOf } from "./client.server";
import { memoryDatabaseTemplate, startMemoryDatabasesFrom } from "./memory-template.server";
import { user } from "./schema";

const given = memoryDatabaseTemplate();
afterEach(() => startMemoryDatabasesFrom(given));

const openMemory = () => openDatabase({ dataDir: "memory://", databaseUrl: undefined });
const migrationsApplied = async (db: Awaited<ReturnType<typeof openMemory>>["db"]) =>
  (
    await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )
  )[0]?.n;
const journalEntries = migrationsInJournal();

describe("memory databases", { timeout: 120_000 }, () => {
  it("are made by initdb and migrated when no copy was given", async () => {
    startMemoryDatabasesFrom(undefined);
    const database = await openMemory();
    try {
      expect(await migrationsApplied(database.db)).toBe(journalEntries);
      expect(await database.db.select().from(user)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("start from the copy given, with its rows and settings, each one apart", async () => {
    const source = await openMemory();
    let copy: Blob;
    try {
      await source.db
        .insert(user)
        .values({ id: "u1", name: "In the copy", email: "copy@example.test" });
      copy = (await source.pglite?.dumpDataDir("none")) as Blob;
    } finally {
      await source.close();
    }
    startMemoryDatabasesFrom(copy);

    const first = await openMemory();
    const second = await openMemory();
    try {
      expect(await migrationsApplied(first.db)).toBe(journalEntries);
      expect((await first.db.select().from(user)).map((u) => u.email)).toEqual([
        "copy@example.test",
      ]);
      await first.db
        .insert(user)
        .values({ id: "u2", name: "Only here", email: "first@example.test" });
      // The second started from the same copy: what the first wrote is not in it.
      expect((await second.db.select().from(user)).map((u) => u.email)).toEqual([
        "copy@example.test",
      ]);
      const [settings] = await rowsOf(
        second.db,
        sql`select current_setting('shared_buffers') as sb, current_setting('maintenance_work_mem') as mwm`,
      );
      expect(settings).toEqual({ sb: "16MB", mwm: "16MB" });
    } finally {
      await first.close();
      await second.close();
    }
  });
});
