import { chmodSync, existsSync, unlinkSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/** The port number in the socket's name, as libpq expects (`psql -h DATA_DIR -p 5432`). */
export const socketPort = 5432;

export function socketPath(dataDir: string): string {
  return path.join(dataDir, `.s.PGSQL.${socketPort}`);
}

/**
 * Offers the embedded database on a Unix socket inside DATA_DIR, so that the
 * CLI and psql can reach it while the server holds the files.
 */
export async function startDatabaseSocket(pglite: PGlite, dataDir: string) {
  const file = socketPath(dataDir);
  // A socket left by a crashed server would block listen().
  if (existsSync(file)) unlinkSync(file);
  const server = new PGLiteSocketServer({ db: pglite, path: file, maxConnections: 4 });
  // The socket has no password: only the owner may connect. It is created
  // owner-only (no moment where others could connect), in an owner-only
  // DATA_DIR (secureDataDir).
  const previous = process.umask(0o077);
  try {
    await server.start();
  } finally {
    process.umask(previous);
  }
  chmodSync(file, 0o600);
  return server;
}
