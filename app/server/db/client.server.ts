import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { logger } from "../logger.server";
import { createMemoryPglite, openPglite } from "./pglite.server";
import { preparedStatements } from "./pglite-statements.server";
import * as schema from "./schema";
import { keptStatementsClient } from "./server-statements.server";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database: domain functions take either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The rows of a raw SQL query, as both drivers (PGlite and node-postgres)
 * return them: one object per row, keyed by column name.
 */
export async function rowsOf<T = Record<string, unknown>>(db: Db | Tx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * A turn of the event loop, for a report between its queries. The embedded
 * database runs each query on the server's own thread; a report that starts
 * its next query at once would do so before the server has read anyone
 * else's request, so a member would wait for the whole report rather than
 * one of its queries.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export type Database = {
  db: Db;
  /** The embedded instance, when there is one (the socket server shares it). */
  pglite: PGlite | undefined;
  close: () => Promise<void>;
};

export type DatabaseOptions = { dataDir: string; databaseUrl: string | undefined };

/** The committed SQL migrations, found from this file both in the source tree and in build/. */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, "drizzle");
    if (existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    dir = path.dirname(dir);
  }
  return path.resolve("drizzle");
}

/** Opens the database and applies pending migrations before returning. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    await migrateServer(options.databaseUrl);
    const pool = serverPool(options.databaseUrl);
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    return { db, pglite: undefined, close: () => pool.end() };
  }
  if (options.dataDir === "memory://") {
    const pglite = await createMemoryPglite();
    const db = drizzlePglite({ client: preparedStatements(pglite), schema });
    await migratePglite(db, { migrationsFolder: migrationsFolder() });
    return { db: db as unknown as Db, pglite, close: () => pglite.close() };
  }
  secureDataDir(options.dataDir);
  const release = lockDataDir(options.dataDir);
  try {
    const pglite = await openPglite(options.dataDir, migrationsFolder());
    const db = drizzlePglite({ client: preparedStatements(pglite), schema });
    await migratePglite(db, { migrationsFolder: migrationsFolder() });
    return {
      db: db as unknown as Db,
      pglite,
      close: async () => {
        await pglite.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * The connections to PostgreSQL. One that breaks while idle (the server
 * restarted, the connection ended by an operator or a failover) is dropped
 * and noted, and the next query opens a new one: unhandled, the pool's
 * "error" event would end the process.
 */
export function serverPool(databaseUrl: string): pg.Pool {
  // No JIT compilation (decision 042): the app's statements read a few thousand rows at
  // most, and a plan costed past jit_above_cost spent longer compiling than running.
  // Statements kept prepared on each connection (decision 053).
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    options: "-c jit=off",
    Client: keptStatementsClient(),
  });
  pool.on("error", (error) => {
    logger.warn({ err: error.message }, "an idle database connection broke; a new one is opened");
  });
  return pool;
}

/** The database cannot be opened for a reason the operator must fix; the message says how. */
export class DatabaseStartError extends Error {}

export class DatabaseLockedError extends DatabaseStartError {}

/**
 * Password hashes, sessions and the database's socket (which has no password)
 * live in DATA_DIR: it must be the owner's alone. Creates it owner-only;
 * makes an existing one that others can only read owner-only; refuses one
 * that others can write, since they could have replaced what is in it.
 */
export function secureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { mode } = statSync(dataDir);
  if (mode & 0o022) {
    throw new DatabaseStartError(
      `DATA_DIR ${dataDir} can be written by other users (mode ${(mode & 0o777).toString(8)}). ` +
        `Check what is in it, then make it the owner's alone: chmod 700 ${dataDir}`,
    );
  }
  if (mode & 0o077) chmodSync(dataDir, 0o700);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite files must be opened by one process at a time (PGlite keeps no lock
 * of its own). Takes DATA_DIR/ailabs.lock with our pid; a lock left by a
 * process that no longer runs is taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, "ailabs.lock");
  const take = () => writeFileSync(file, String(process.pid), { flag: "wx", mode: 0o600 });
  try {
    take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number.parseInt(readFileSync(file, "utf8"), 10);
    if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
      throw new DatabaseLockedError(
        `Another process (pid ${holder}) has the database in ${dataDir} open. Stop it first, or reach the database through its socket.`,
      );
    }
    unlinkSync(file);
    take();
  }
  return () => {
    try {
      if (readFileSync(file, "utf8") === String(process.pid)) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
}

/**
 * Applies migrations on a PostgreSQL server under an advisory lock, so that
 * several processes starting at once apply each migration exactly once.
 */
export async function migrateServer(databaseUrl: string): Promise<void> {
  // Bounded, so that a server that cannot reach the database says so instead of waiting.
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(727274)");
    await migrateNodePg(drizzleNodePg(client), { migrationsFolder: migrationsFolder() });
  } finally {
    await client.query("select pg_advisory_unlock(727274)").catch(() => {});
    await client.end();
  }
}
