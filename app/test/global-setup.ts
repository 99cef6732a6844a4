import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateServer, openDatabase } from "~/server/db/client.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding a migrated memory database's files (PGlite's dumpDataDir). */
    memoryDatabaseTemplate: string;
    /**
     * With DATABASE_URL: one migrated database per worker, in the cluster of
     * DATABASE_URL; worker N (VITEST_POOL_ID) runs its files on the Nth.
     */
    workerDatabaseUrls: string[];
  }
}

/**
 * Makes one migrated memory database for the whole run and hands its files
 * to every test file (app/test/setup.ts), which opens its own database from
 * them instead of running initdb and the migrations again. With DATABASE_URL,
 * also a database of its own for each worker, so that two files at once never
 * share rows (decision 055).
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

  const databaseUrl = process.env.DATABASE_URL;
  const workerUrls = databaseUrl
    ? await createWorkerDatabases(databaseUrl, project.config.maxWorkers)
    : [];
  project.provide("workerDatabaseUrls", workerUrls);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (databaseUrl) await dropDatabases(databaseUrl, workerUrls);
  };
}

/** `count` fresh, migrated databases beside DATABASE_URL's: NAME_w1, NAME_w2, ... */
async function createWorkerDatabases(databaseUrl: string, count: number): Promise<string[]> {
  const base = new URL(databaseUrl);
  const name = decodeURIComponent(base.pathname.slice(1)) || "postgres";
  const urls = Array.from({ length: count }, (_, i) => {
    const url = new URL(base);
    url.pathname = `/${encodeURIComponent(`${name.slice(0, 50)}_w${i + 1}`)}`;
    return url.toString();
  });
  // A run stopped before its teardown left its copies: they start again empty.
  await dropDatabases(databaseUrl, urls);
  await onServer(databaseUrl, async (client) => {
    for (const url of urls) await client.query(`create database ${databaseNameOf(url)}`);
  });
  for (const url of urls) await migrateServer(url);
  return urls;
}

async function dropDatabases(databaseUrl: string, urls: readonly string[]): Promise<void> {
  await onServer(databaseUrl, async (client) => {
    for (const url of urls) {
      await client.query(`drop database if exists ${databaseNameOf(url)} with (force)`);
    }
  });
}

function databaseNameOf(url: string): string {
  return pg.escapeIdentifier(decodeURIComponent(new URL(url).pathname.slice(1)));
}

async function onServer(databaseUrl: string, use: (client: pg.Client) => Promise<void>) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}
