import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rowsOf } from "../db/client.server";
import { parseDataCommand, runDataCommand, tablesInDependencyOrder } from "./data-commands.server";
import { makeDemoData } from "./demo-data.server";

// Backup and restore without a server (tests/e2e/backup.spec.ts takes one from a
// running server), and the copy of a filled embedded database to PostgreSQL.

/** The PostgreSQL cluster of DATABASE_URL, or the local one: the copy's target. */
const cluster = (() => {
  const url = new URL(process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres");
  url.pathname = "/postgres";
  return url;
})();

function capture() {
  const lines = { out: [] as string[], err: [] as string[] };
  return {
    io: { out: (t: string) => lines.out.push(t), err: (t: string) => lines.err.push(t) },
    out: () => lines.out.join("\n"),
    err: () => lines.err.join("\n"),
  };
}

/** A time as milliseconds: both drivers give a number (as text, they give different shapes). */
const ms = (column: string) => `floor(extract(epoch from ${column}) * 1000)::float8 as ${column}`;

const compared = {
  user: `select id, email, name, is_admin, ${ms("created_at")} from "user" order by id`,
  // created_day is computed by each database: the copy leaves it to PostgreSQL.
  purchase: `select id, user_id, provider, status, amount_cents, order_number, ${ms("created_at")}, to_char(created_day, 'YYYY-MM-DD') as created_day from purchase order by id`,
  course: `select id, title, description from course order by id`,
  chapter_progress: `select user_id, chapter_id, ${ms("completed_at")} from chapter_progress order by user_id, chapter_id`,
};

let work: string;
let dataDir: string;
let source: Record<string, unknown[]>;
let counts: Record<string, number>;
const tableNames = tablesInDependencyOrder().map((t) => getTableConfig(t).name);

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), "ailabs-data-"));
  dataDir = path.join(work, "data");
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await makeDemoData(database.db, { members: 40, purchases: 60 });
    // A course of the owner's own, and the demo course renamed: both must survive the copy.
    await database.db.execute(
      sql`insert into course (title, description) values ('Owner course', 'Written here')`,
    );
    await database.db.execute(
      sql`update course set title = 'Renamed demo' where title like 'Start Here%'`,
    );
    source = {};
    for (const [table, query] of Object.entries(compared)) {
      source[table] = await rowsOf(database.db, sql.raw(query));
    }
    counts = {};
    for (const name of tableNames) {
      const [row] = await rowsOf<{ n: number }>(
        database.db,
        sql.raw(`select count(*)::int as n from "${name}"`),
      );
      counts[name] = row?.n ?? 0;
    }
  } finally {
    await database.close();
  }
  writeFileSync(path.join(dataDir, "auth-secret"), "the secret\n");
  mkdirSync(path.join(dataDir, "uploads"));
  writeFileSync(path.join(dataDir, "uploads", "cover.png"), "png bytes");
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("parseDataCommand", () => {
  it("takes backup FILE, restore FILE and copy-to-postgres URL", () => {
    expect(parseDataCommand(["backup", "x.tar.gz"])).toEqual({ kind: "backup", file: "x.tar.gz" });
    expect(parseDataCommand(["restore", "x.tar.gz"])).toEqual({
      kind: "restore",
      file: "x.tar.gz",
    });
    expect(parseDataCommand(["copy-to-postgres", "postgres://h/db"])).toEqual({
      kind: "copy-to-postgres",
      url: "postgres://h/db",
    });
  });

  it("leaves anything else to the other commands (which answer usage)", () => {
    for (const argv of [
      ["backup"],
      ["backup", "--all"],
      ["restore", "a", "b"],
      ["copy-to-postgres", "mysql://h/db"],
      ["users", "list"],
    ]) {
      expect(parseDataCommand(argv)).toBeUndefined();
    }
  });
});

describe("backup and restore with no server running", () => {
  it("round-trips every row, the auth secret and the uploads", async () => {
    const file = path.join(work, "no-server.tar.gz");
    const backup = capture();
    expect(
      await runDataCommand(
        { kind: "backup", file },
        { dataDir, databaseUrl: undefined },
        backup.io,
      ),
    ).toBe(0);
    expect(backup.out()).toContain("(no server running)");
    // A second backup does not overwrite the first.
    const again = capture();
    expect(
      await runDataCommand({ kind: "backup", file }, { dataDir, databaseUrl: undefined }, again.io),
    ).toBe(1);
    expect(again.err()).toContain("exists already");

    const restoredDir = path.join(work, "restored");
    const restoreInto = (io: ReturnType<typeof capture>["io"]) =>
      runDataCommand(
        { kind: "restore", file },
        { dataDir: restoredDir, databaseUrl: undefined },
        io,
      );
    const restore = capture();
    expect(await restoreInto(restore.io)).toBe(0);
    expect(restore.out()).toContain(
      `${counts.user} users, ${counts.purchase} purchases, ${counts.course} courses, ${counts.chapter_progress} chapters completed`,
    );
    expect(existsSync(path.join(restoredDir, "ailabs.lock"))).toBe(false);
    expect(readFileSync(path.join(restoredDir, "auth-secret"), "utf8")).toBe("the secret\n");
    expect(readFileSync(path.join(restoredDir, "uploads", "cover.png"), "utf8")).toBe("png bytes");
    // Into a DATA_DIR that holds a database: refused.
    const over = capture();
    expect(await restoreInto(over.io)).toBe(1);
    expect(over.err()).toContain("holds a database already");
  }, 60_000);

  it("points to pg_dump and pg_restore when DATABASE_URL is set", async () => {
    const io = capture();
    const env = { dataDir, databaseUrl: cluster.href };
    expect(await runDataCommand({ kind: "backup", file: "x" }, env, io.io)).toBe(1);
    expect(await runDataCommand({ kind: "restore", file: "x" }, env, io.io)).toBe(1);
    expect(io.err()).toContain("pg_dump");
    expect(io.err()).toContain("pg_restore");
  });
});

describe("copy-to-postgres", () => {
  const database = `copy_test_${Date.now()}_${process.pid}`;
  const target = new URL(cluster.href);
  target.pathname = `/${database}`;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: cluster.href });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
  });

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: cluster.href });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it("copies every row into a new database, then refuses to copy into it again", async () => {
    const copy = capture();
    const env = { dataDir, databaseUrl: undefined };
    expect(await runDataCommand({ kind: "copy-to-postgres", url: target.href }, env, copy.io)).toBe(
      0,
    );
    expect(copy.err()).toBe("");
    expect(copy.out()).toContain(`user ${counts.user}`);

    const client = new pg.Client({ connectionString: target.href });
    await client.connect();
    try {
      for (const name of tableNames.filter((n) => n !== "page_version")) {
        const { rows } = await client.query(`select count(*)::int as n from "${name}"`);
        expect(rows[0].n, name).toBe(counts[name]);
      }
      for (const [table, query] of Object.entries(compared)) {
        expect((await client.query(query)).rows, table).toEqual(source[table]);
      }
      // The order numbers go on after the copied ones: a new purchase repeats none.
      const { rows: added } = await client.query(
        `insert into purchase (user_id, provider, provider_ref, product, amount_cents)
         select user_id, 'manual', 'after-copy', 'lifetime-access', 0 from purchase limit 1
         returning order_number`,
      );
      const copiedNumbers = (source.purchase as { order_number: string }[]).map(
        (p) => p.order_number,
      );
      expect(copiedNumbers.length).toBeGreaterThan(0);
      expect(copiedNumbers).not.toContain(added[0].order_number);
    } finally {
      await client.end();
    }

    const again = capture();
    expect(
      await runDataCommand({ kind: "copy-to-postgres", url: target.href }, env, again.io),
    ).toBe(1);
    expect(again.err()).toContain("holds users already");
  }, 60_000);
});
