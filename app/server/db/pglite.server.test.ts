import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { migrationsInJournal } from "../../test/migrations";
import { openDatabase } from "./client.server";
import { createPgliteDir, initDirName } from "./pglite.server";
import { course, user } from "./schema";

// Counts the child processes started, and lets them run.
const children = vi.hoisted(() => ({ started: [] as string[][] }));
vi.mock("node:child_process", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:child_process")>();
  return {
    ...actual,
    execFile: ((file: string, args: string[], ...rest: unknown[]) => {
      children.started.push([file, ...args]);
      return (actual.execFile as (...a: unknown[]) => unknown)(file, args, ...rest);
    }) as typeof actual.execFile,
  };
});

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "pglite-"));
  dirs.push(dir);
  return dir;
}

beforeEach(() => {
  children.started.length = 0;
});

describe("the embedded database in a directory", { timeout: 240_000 }, () => {
  it("is created and migrated in a child process, then opened; a second open reuses it", async () => {
    const dir = tempDir();
    // The server writes its secret before the database is opened: it must survive the creation.
    writeFileSync(path.join(dir, "auth-secret"), "kept");

    const first = await openDatabase({ dataDir: dir, databaseUrl: undefined });
    try {
      expect(children.started).toHaveLength(1);
      expect(children.started[0]?.[0]).toBe(process.execPath);
      expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(true);
      expect(existsSync(path.join(dir, initDirName))).toBe(false);
      expect(readFileSync(path.join(dir, "auth-secret"), "utf8")).toBe("kept");
      const applied = await first.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect((applied as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(
        migrationsInJournal(),
      );
      // The demo course of the first start (a migration).
      expect((await first.db.select().from(course)).length).toBeGreaterThan(0);
      const settings = await first.db.execute(
        sql`select current_setting('shared_buffers') as sb, current_setting('maintenance_work_mem') as mwm`,
      );
      expect((settings as unknown as { rows: unknown[] }).rows[0]).toEqual({
        sb: "16MB",
        mwm: "16MB",
      });
      await first.db
        .insert(user)
        .values({ id: "kept-user", name: "Kept", email: "kept@example.test" });
    } finally {
      await first.close();
    }

    const second = await openDatabase({ dataDir: dir, databaseUrl: undefined });
    try {
      expect(children.started).toHaveLength(1);
      const rows = await second.db.select().from(user);
      expect(rows.map((r) => r.email)).toEqual(["kept@example.test"]);
    } finally {
      await second.close();
    }
  });

  it("clears what an interrupted creation left, without touching other files", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, initDirName, "base"), { recursive: true });
    writeFileSync(path.join(dir, initDirName, "PG_VERSION"), "17");
    // A move cut short: some of the database's files are here, PG_VERSION is not.
    mkdirSync(path.join(dir, "base", "1"), { recursive: true });
    writeFileSync(path.join(dir, "base", "1", "stale"), "x");
    mkdirSync(path.join(dir, "uploads"));
    writeFileSync(path.join(dir, "uploads", "image.png"), "png");

    const database = await openDatabase({ dataDir: dir, databaseUrl: undefined });
    try {
      expect(children.started).toHaveLength(1);
      expect(existsSync(path.join(dir, "base", "1", "stale"))).toBe(false);
      expect(existsSync(path.join(dir, initDirName))).toBe(false);
      expect(readFileSync(path.join(dir, "uploads", "image.png"), "utf8")).toBe("png");
      expect((await database.db.select().from(course)).length).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });

  it("leaves no database behind when the creation fails", async () => {
    const dir = tempDir();
    const missing = path.join(dir, "no-migrations-here");
    await expect(createPgliteDir(dir, { migrationsFolder: missing })).rejects.toThrow(
      /Creating the database in .* failed: the child process exited with code 1\n/,
    );
    expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(false);
    expect(existsSync(path.join(dir, initDirName))).toBe(false);
  });
});
