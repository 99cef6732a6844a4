// How the operator CLI reaches the server's database: PostgreSQL, the running
// server's PGlite socket, or the PGlite files when no server holds them.

import { existsSync } from "node:fs";
import path from "node:path";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { type Database, type Db, openDatabase } from "../db/client.server";
import * as schema from "../db/schema";
import { socketPath, socketPort } from "../db/socket.server";
import type { Env } from "../env.server";

export class OperatorDbError extends Error {}

export type OperatorDatabase = {
  db: Db;
  /** How it was reached: PostgreSQL, the running server's socket, or the PGlite files. */
  via: "postgres" | "socket" | "files";
  close: () => Promise<void>;
};

/**
 * Opens the server's database for the CLI: PostgreSQL when DATABASE_URL is
 * set; otherwise the running server's socket in DATA_DIR; and only when no
 * one answers there (no socket, or a stale one left by a crash) the PGlite
 * files themselves. Never opens the files while a server answers on the socket.
 */
export async function openOperatorDatabase(
  env: Pick<Env, "dataDir" | "databaseUrl">,
): Promise<OperatorDatabase> {
  if (env.databaseUrl) {
    const database = await openDatabase({ dataDir: env.dataDir, databaseUrl: env.databaseUrl });
    return { db: database.db, via: "postgres", close: database.close };
  }
  if (env.dataDir === "memory://") {
    throw new OperatorDbError("DATA_DIR=memory:// holds no lasting database to operate on.");
  }
  const client = new pg.Client({
    host: env.dataDir,
    port: socketPort,
    // pglite-socket accepts any user and database name (it has one of each) but needs a user.
    user: "postgres",
    database: "postgres",
    connectionTimeoutMillis: 10_000,
  });
  try {
    await client.connect();
    client.on("error", () => {}); // a server stopping mid-command fails the query instead
    const db = drizzleNodePg(client, { schema }) as unknown as Db;
    return { db, via: "socket", close: () => client.end() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ECONNREFUSED") {
      throw new OperatorDbError(
        `The database socket ${socketPath(env.dataDir)} exists but did not answer: ${(error as Error).message}`,
      );
    }
  }
  // No server holds the files. Refuse to create a database where none is (a wrong DATA_DIR).
  if (!existsSync(path.join(env.dataDir, "PG_VERSION"))) {
    throw new OperatorDbError(
      `No database in DATA_DIR ${env.dataDir}. Start the server once, or set DATA_DIR.`,
    );
  }
  const database: Database = await openDatabase({ dataDir: env.dataDir, databaseUrl: undefined });
  return { db: database.db, via: "files", close: database.close };
}
