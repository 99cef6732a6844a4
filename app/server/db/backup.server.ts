// Backups of the embedded database (PGlite in DATA_DIR) while the server runs:
// the server copies the directory while no statement runs, and hands the CLI
// the copy as a .tar.gz on a Unix socket in DATA_DIR (docs/decisions/016).

import { spawn } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  unlinkSync,
} from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { logger } from "../logger.server";
import { initDirName } from "./pglite.server";
import { socketPath } from "./socket.server";

/** The socket the CLI asks for a backup on: `DATA_DIR/.s.ailabs-backup`. */
export function backupSocketPath(dataDir: string): string {
  return path.join(dataDir, ".s.ailabs-backup");
}

/** Prefix of the folders a backup is copied into, inside DATA_DIR, removed after. */
const stagingPrefix = ".backup-";

/** The uploaded images: copied after the database files, outside the database's lock. */
const uploadsName = "uploads";

/** Entries of DATA_DIR that are not data: the lock, the sockets, unfinished work. */
function isData(dataDir: string, name: string): boolean {
  return (
    name !== "ailabs.lock" &&
    name !== initDirName &&
    !name.startsWith(stagingPrefix) &&
    path.join(dataDir, name) !== socketPath(dataDir) &&
    path.join(dataDir, name) !== backupSocketPath(dataDir)
  );
}

/**
 * Copies DATA_DIR's data (database files, auth secret, uploads) into `target`.
 * With the running server's `pglite`, the database files are copied while it
 * runs no statement: what a crash at that instant would leave, which
 * PostgreSQL opens by replaying its write-ahead log, with every committed
 * transaction and none half done. Without one, the caller holds the lock.
 */
export async function snapshotDataDir(
  pglite: PGlite | undefined,
  dataDir: string,
  target: string,
): Promise<void> {
  const names = readdirSync(dataDir).filter((name) => isData(dataDir, name));
  const copy = (name: string) =>
    cpSync(path.join(dataDir, name), path.join(target, name), { recursive: true });
  const databaseFiles = names.filter((name) => name !== uploadsName);
  if (pglite) {
    // Flushes the shared buffers first, so the copy needs little replay when opened.
    await pglite.exec("checkpoint");
    await pglite.runExclusive(async () => {
      for (const name of databaseFiles) copy(name);
    });
  } else {
    for (const name of databaseFiles) copy(name);
  }
  if (names.includes(uploadsName)) copy(uploadsName);
}

/** Writes a .tar.gz of `dir`'s contents to `into`; resolves with tar's exit code. */
export function tarGzip(dir: string, into: NodeJS.WritableStream): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const tar = spawn("tar", ["-czf", "-", "-C", dir, "."], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    tar.stderr.on("data", (d) => {
      stderr += d;
    });
    tar.stdout.pipe(into, { end: false });
    // A reader that goes away (the CLI stopped) must not leave tar blocked on a full pipe.
    into.once("close", () => tar.kill());
    tar.on("error", reject);
    tar.on("close", (code) => {
      if (code !== 0) logger.error({ code, stderr }, "tar failed");
      resolve(code);
    });
  });
}

/**
 * Offers backups of the running server's embedded database on
 * `DATA_DIR/.s.ailabs-backup` (owner-only). A client that sends `backup\n`
 * receives the .tar.gz and then the end of the stream; a failure closes the
 * connection without an end.
 */
export async function startBackupSocket(pglite: PGlite, dataDir: string) {
  const file = backupSocketPath(dataDir);
  // Left by a crashed server: a stale socket would block listen(), and copies use space.
  if (existsSync(file)) unlinkSync(file);
  for (const name of readdirSync(dataDir)) {
    if (name.startsWith(stagingPrefix)) rmSync(path.join(dataDir, name), { recursive: true });
  }

  async function sendBackup(socket: Socket) {
    const staging = mkdtempSync(path.join(dataDir, stagingPrefix));
    try {
      const started = Date.now();
      await snapshotDataDir(pglite, dataDir, staging);
      const code = await tarGzip(staging, socket);
      if (code !== 0) throw new Error(`tar exited with code ${code}`);
      socket.end();
      logger.info({ ms: Date.now() - started }, "backup sent");
    } catch (error) {
      logger.error({ err: error }, "backup failed");
      socket.destroy();
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }

  const server: Server = createServer((socket) => {
    let received = "";
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      received += chunk;
      if (!received.includes("\n")) return;
      socket.removeAllListeners("data");
      if (received.startsWith("backup\n")) void sendBackup(socket);
      else socket.destroy();
    });
  });
  const previous = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(file, resolve);
    });
  } finally {
    process.umask(previous);
  }
  chmodSync(file, 0o600);
  return {
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
