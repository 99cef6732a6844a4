import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { memoryDatabaseTemplate } from "./memory-template.server";
import { SizeKeepingNodeFS } from "./pglite-files.server";

/**
 * V8 compiles PGlite's WebAssembly (PostgreSQL, 9 MB) with its baseline
 * compiler only. By default the functions that run often are compiled again
 * by the optimizing compiler in background threads, and the memory those
 * compilations take (tens of MB per large function) stays with the
 * threads' malloc arenas: 30 to 60 MB of RSS, more or less at random. The
 * queries of the member pages take as long either way (their time goes to
 * the protocol in JavaScript, not to PostgreSQL's code); a large sort or
 * scan takes 10 to 25% longer. (Not --liftoff-only: with these two flags
 * a function the baseline compiler cannot handle still gets compiled.)
 *
 * These are read when a module is compiled, so they are set before the
 * first PGlite is created, and given to the initdb child too.
 */
export const wasmFlags = ["--no-wasm-dynamic-tiering", "--no-wasm-tier-up"];

let wasmFlagsSet = false;
function setWasmFlags(): void {
  if (wasmFlagsSet) return;
  for (const flag of wasmFlags) v8.setFlagsFromString(flag);
  wasmFlagsSet = true;
}

/**
 * PostgreSQL settings of the embedded database, given on its command line
 * (postgresql.conf in DATA_DIR stays as initdb wrote it).
 *
 * PGlite's shared memory and every allocation of its backend live in the
 * WebAssembly memory, which never shrinks: what PostgreSQL touches once
 * stays in the process's RSS. So the fixed part is kept small and the
 * per-operation peaks bounded:
 * - shared_buffers: 128MB by default, all of it resident from the start.
 *   16MB holds what member pages read many times over (session, user and
 *   purchase rows and their indexes, the courses); any other page is read
 *   from the OS page cache. wal_buffers follows it (512kB).
 * - maintenance_work_mem: 64MB by default, taken by CREATE INDEX in a
 *   migration and by VACUUM; 16MB still builds in memory the indexes of a
 *   database of this size.
 * work_mem (4MB per sort or hash) and temp_buffers (temporary tables only,
 * which the app has none of) keep their defaults.
 */
export const pgliteSettings = ["shared_buffers=16MB", "maintenance_work_mem=16MB"];

/** Options of every PGlite of the app, in this process and in the initdb child. */
export function pgliteOptions(): PGliteOptions {
  return {
    startParams: [...PGlite.defaultStartParams, ...pgliteSettings.flatMap((s) => ["-c", s])],
  };
}

/**
 * An embedded database in memory (tests, prerendering): initdb runs in this
 * process, unless startMemoryDatabasesFrom (memory-template.server.ts) gave a copy to start from. The
 * caller migrates it either way (on a copy, only what the copy lacks).
 */
export function createMemoryPglite(): Promise<PGlite> {
  setWasmFlags();
  const memoryTemplate = memoryDatabaseTemplate();
  return PGlite.create({
    ...pgliteOptions(),
    ...(memoryTemplate && { loadDataDir: memoryTemplate }),
  });
}

/**
 * Opens the embedded database in `dataDir`, first creating it (see
 * createPgliteDir) when there is none. The caller holds the directory's lock.
 */
export async function openPglite(dataDir: string, migrationsFolder: string): Promise<PGlite> {
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    await createPgliteDir(dataDir, { migrationsFolder });
  }
  setWasmFlags();
  return PGlite.create({ ...pgliteOptions(), fs: new SizeKeepingNodeFS(dataDir) });
}

/** Where createPgliteDir builds the database, inside DATA_DIR. */
export const initDirName = ".pglite-init";

// Runs in the child. argv: the directory, then the options and the migrations folder as JSON.
const initScript = `
const [target, json] = process.argv.slice(1);
const { options, migrationsFolder } = JSON.parse(json);
const { PGlite } = await import("@electric-sql/pglite");
const db = await PGlite.create(target, options);
try {
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  await migrate(drizzle(db), { migrationsFolder });
} finally {
  await db.close();
}
`;

/**
 * Creates the database in `dataDir` (which may already hold other files:
 * the auth secret, uploads, the lock) and applies the migrations to it.
 *
 * Creating a database runs initdb inside the process, and so does the
 * first migration of an empty one; the WebAssembly memory and code that
 * takes (some 600 MB of RSS) would stay with the server for good. So it
 * runs in a short-lived child process, whose memory goes with it, and the
 * server opens the finished directory as it does on every later start.
 *
 * The child works in DATA_DIR/.pglite-init; the files are then moved into
 * DATA_DIR, PG_VERSION last, so that a start interrupted at any point
 * leaves no half-made database behind for the next start to open.
 */
export async function createPgliteDir(
  dataDir: string,
  { migrationsFolder, timeoutMs = 180_000 }: { migrationsFolder: string; timeoutMs?: number },
): Promise<void> {
  const work = path.join(dataDir, initDirName);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true, mode: 0o700 });
  const json = JSON.stringify({ options: pgliteOptions(), migrationsFolder });
  try {
    await runInitChild(work, json, timeoutMs);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(`Creating the database in ${dataDir} failed: ${(error as Error).message}`);
  }
  const names = readdirSync(work);
  if (!names.includes("PG_VERSION")) {
    throw new Error(`Creating the database in ${dataDir} left no PG_VERSION in ${work}`);
  }
  for (const name of [...names.filter((n) => n !== "PG_VERSION"), "PG_VERSION"]) {
    const target = path.join(dataDir, name);
    // No PG_VERSION, so no database here: a file of this name is left by an interrupted start.
    rmSync(target, { recursive: true, force: true });
    renameSync(path.join(work, name), target);
  }
  rmdirSync(work);
}

function runInitChild(work: string, json: string, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [...wasmFlags, "--input-type=module", "--eval", initScript, "--", work, json],
      // The child finds the packages from this module's directory, as this module does.
      { cwd: path.dirname(fileURLToPath(import.meta.url)), timeout: timeoutMs },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const why = error.killed
          ? `the child process took more than ${timeoutMs / 1000} s`
          : `the child process exited with code ${error.code}`;
        reject(new Error(stderr.trim() ? `${why}\n${stderr.trim()}` : why));
      },
    );
  });
}
