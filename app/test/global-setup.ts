import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/server/db/client.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding a migrated memory database's files (PGlite's dumpDataDir). */
    memoryDatabaseTemplate: string;
  }
}

/**
 * Makes one migrated memory database for the whole run and hands its files
 * to every test file (app/test/setup.ts), which opens its own database from
 * them instead of running initdb and the migrations again.
 */
export default async function setup(project: TestProject) {
  const database = await openDatabase({ dataDir: "memory://", databaseUrl: undefined });
  const dump = await database.pglite?.dumpDataDir("none");
  await database.close();
  if (!dump) throw new Error("a memory database has no embedded instance");
  const dir = mkdtempSync(path.join(os.tmpdir(), "ailabs-unit-"));
  const file = path.join(dir, "memory-database.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("memoryDatabaseTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
