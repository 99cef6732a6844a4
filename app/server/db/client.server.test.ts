import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DatabaseLockedError,
  DatabaseStartError,
  lockDataDir,
  secureDataDir,
} from "./client.server";

describe("lockDataDir", () => {
  /** A fresh data directory whose lock file names the process `pid`. */
  const dirLockedBy = (pid: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), "lock-"));
    writeFileSync(path.join(dir, "ailabs.lock"), pid);
    return dir;
  };

  it("refuses a second opener while the first process runs", async () => {
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      const dir = dirLockedBy(String(holder.pid));
      expect(() => lockDataDir(dir)).toThrow(DatabaseLockedError);
    } finally {
      holder.kill();
    }
  });

  it("takes over a lock left by a process that no longer runs, and releases it", () => {
    const dir = dirLockedBy("999999999");
    const release = lockDataDir(dir);
    release();
    // Released: taking it again works.
    lockDataDir(dir)();
  });
});

describe("secureDataDir", () => {
  const modeOf = (dir: string) => statSync(dir).mode & 0o777;

  it("creates DATA_DIR owner-only", () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "data-")), "new", "data");
    secureDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it("makes a DATA_DIR that others can read owner-only", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "data-"));
    chmodSync(dir, 0o755);
    secureDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it("refuses a DATA_DIR that others can write, saying how to fix it", () => {
    for (const mode of [0o777, 0o770, 0o702]) {
      const dir = mkdtempSync(path.join(tmpdir(), "data-"));
      chmodSync(dir, mode);
      expect(() => secureDataDir(dir)).toThrow(DatabaseStartError);
      expect(() => secureDataDir(dir)).toThrow(`chmod 700 ${dir}`);
      // Left as it was: the operator decides, after checking what is in it.
      expect(modeOf(dir)).toBe(mode);
    }
  });
});

describe("the app's database connections", () => {
  it("compile no statement to machine code (decision 042)", async () => {
    const { getDb } = await import("./db.server");
    const { rowsOf } = await import("./client.server");
    const { sql } = await import("drizzle-orm");
    const [row] = await rowsOf<{ jit: string; available: boolean }>(
      await getDb(),
      sql`select current_setting('jit') as jit, pg_jit_available() as available`,
    );
    // PostgreSQL's pool turns it off for each connection; the embedded database is built
    // without a JIT provider, so its setting does nothing.
    if (row?.available) expect(row.jit).toBe("off");
    else expect(row).toMatchObject({ available: false });
  });

  it("outlive a PostgreSQL connection that breaks while idle: the next query opens a new one", async () => {
    const pg = (await import("pg")).default;
    const { serverPool } = await import("./client.server");
    // PostgreSQL runs on both of the suite's passes (the embedded one's too: .ci/run).
    const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
    const pool = serverPool(url);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      const [{ pid }] = (await pool.query("select pg_backend_pid() as pid")).rows;
      expect(pool.idleCount).toBe(1);
      // An operator (or a restart) ends the connection the pool holds idle.
      await other.query("select pg_terminate_backend($1)", [pid]);
      await expect.poll(() => pool.totalCount, { timeout: 5000 }).toBe(0);
      const [again] = (await pool.query("select pg_backend_pid() as pid")).rows;
      expect(again.pid).not.toBe(pid);
    } finally {
      await other.end();
      await pool.end();
    }
  });
});
