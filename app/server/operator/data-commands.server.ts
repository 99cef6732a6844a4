// The CLI's commands on the data as a whole: backup and restore of the
// embedded database, and the copy from it to PostgreSQL (docs/deploy.md,
// docs/decisions/016). They work on DATA_DIR itself, not through a Db.

import { execFile } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import pg from "pg";
import { backupSocketPath, snapshotDataDir, tarGzip } from "../db/backup.server";
import {
  DatabaseLockedError,
  lockDataDir,
  migrateServer,
  migrationsFolder,
  openDatabase,
  secureDataDir,
} from "../db/client.server";
import { openPglite } from "../db/pglite.server";
import * as schema from "../db/schema";
import type { Env } from "../env.server";
import type { CliIo } from "./cli-io.server";

export type DataCommand =
  | { kind: "backup"; file: string }
  | { kind: "restore"; file: string }
  | { kind: "copy-to-postgres"; url: string };

/** The data command argv names, or undefined (then it is another command, or none). */
export function parseDataCommand(argv: readonly string[]): DataCommand | undefined {
  const [verb, operand, ...rest] = argv;
  if (!operand || operand.startsWith("-") || rest.length > 0) return undefined;
  if (verb === "backup" || verb === "restore") return { kind: verb, file: operand };
  if (verb === "copy-to-postgres" && /^postgres(ql)?:\/\//.test(operand)) {
    return { kind: "copy-to-postgres", url: operand };
  }
  return undefined;
}

type DataEnv = Pick<Env, "dataDir" | "databaseUrl">;
type Io = Pick<CliIo, "out" | "err">;

/** Runs a data command; the exit code (0 done, 1 refused or failed). */
export async function runDataCommand(command: DataCommand, env: DataEnv, io: Io): Promise<number> {
  if (env.dataDir === "memory://") {
    io.err("DATA_DIR=memory:// holds no lasting database.");
    return 1;
  }
  switch (command.kind) {
    case "backup":
      return backup(env, path.resolve(command.file), io);
    case "restore":
      return restore(env, path.resolve(command.file), io);
    case "copy-to-postgres":
      return copyToPostgres(env, command.url, io);
  }
}

const run = promisify(execFile);

/**
 * Writes a .tar.gz of DATA_DIR's data (database, auth secret, uploads) to
 * `file`: from the running server, which copies the database between two
 * statements, or, when no server holds DATA_DIR, from the files under its lock.
 * Written under a temporary name and renamed once whole and readable.
 */
async function backup(env: DataEnv, file: string, io: Io): Promise<number> {
  if (env.databaseUrl) {
    io.err(
      "DATABASE_URL is set: back PostgreSQL up with pg_dump (docs/deploy.md). `backup` copies the embedded database in DATA_DIR.",
    );
    return 1;
  }
  if (!existsSync(path.join(env.dataDir, "PG_VERSION"))) {
    io.err(`No database in DATA_DIR ${env.dataDir}.`);
    return 1;
  }
  if (existsSync(file)) {
    io.err(`${file} exists already; name a new file.`);
    return 1;
  }
  const partial = `${file}.partial`;
  try {
    const via = await writeBackup(env.dataDir, partial);
    // A file that tar cannot read, or without the database in it, is no backup.
    const { stdout } = await run("tar", ["-tzf", partial], { maxBuffer: 64 * 1024 * 1024 });
    if (!stdout.split("\n").includes("./PG_VERSION")) {
      throw new Error("the archive holds no database");
    }
    renameSync(partial, file);
    const megabytes = (statSync(file).size / 1024 / 1024).toFixed(1);
    io.out(`Backed up ${env.dataDir} (${via}) to ${file} (${megabytes} MB).`);
    return 0;
  } catch (error) {
    rmSync(partial, { force: true });
    io.err(`Backup failed: ${(error as Error).message}`);
    return 1;
  }
}

/** The backup from the running server, or from the files; says which. */
async function writeBackup(dataDir: string, file: string): Promise<string> {
  const fromServer = await backupFromServer(dataDir, file);
  if (fromServer) return "from the running server";
  const release = lockDataDir(dataDir);
  const staging = mkdtempSync(path.join(os.tmpdir(), "ailabs-backup-"));
  try {
    await snapshotDataDir(undefined, dataDir, staging);
    const out = createWriteStream(file, { mode: 0o600 });
    const code = await tarGzip(staging, out);
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    if (code !== 0) throw new Error(`tar exited with code ${code}`);
    return "no server running";
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
  }
}

/**
 * Asks the server holding DATA_DIR for a backup and writes it to `file`.
 * False when no server answers on its backup socket.
 */
function backupFromServer(dataDir: string, file: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect(backupSocketPath(dataDir));
    let connected = false;
    let ended = false;
    socket.once("connect", () => {
      connected = true;
      const out = createWriteStream(file, { mode: 0o600 });
      socket.pipe(out);
      socket.once("end", () => {
        ended = true;
      });
      out.once("finish", () =>
        ended ? resolve(true) : reject(new Error("the server stopped sending; see its log")),
      );
      out.once("error", reject);
      socket.write("backup\n");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === "ENOENT" || error.code === "ECONNREFUSED")) {
        resolve(false);
      } else if (!connected) {
        reject(error);
      }
      // After connecting, a reset ends the pipe without an end: "finish" reports it.
    });
  });
}

/**
 * Restores a backup made by `backup` into DATA_DIR, which must hold no
 * database and no running server; then opens it once (PostgreSQL replays its
 * log) and counts what is in it.
 */
async function restore(env: DataEnv, file: string, io: Io): Promise<number> {
  if (env.databaseUrl) {
    io.err(
      "DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/deploy.md). `restore` fills the embedded database in DATA_DIR.",
    );
    return 1;
  }
  if (!existsSync(file)) {
    io.err(`No file ${file}.`);
    return 1;
  }
  secureDataDir(env.dataDir);
  let release: () => void;
  try {
    release = lockDataDir(env.dataDir);
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    io.err(`A server holds DATA_DIR ${env.dataDir}; stop it first. ${error.message}`);
    return 1;
  }
  try {
    if (existsSync(path.join(env.dataDir, "PG_VERSION"))) {
      io.err(
        `DATA_DIR ${env.dataDir} holds a database already. Move it away (or set DATA_DIR to an empty folder), then restore.`,
      );
      return 1;
    }
    await run("tar", ["-xzf", file, "-C", env.dataDir, "--no-same-owner"]);
    if (!existsSync(path.join(env.dataDir, "PG_VERSION"))) {
      io.err(`${file} holds no database; nothing usable was restored.`);
      return 1;
    }
    const counts = await countRows(env.dataDir);
    io.out(
      `Restored ${file} into ${env.dataDir}: ${counts.users} users, ${counts.purchases} purchases, ${counts.courses} courses, ${counts.progress} chapters completed. Start the server.`,
    );
    return 0;
  } finally {
    release();
  }
}

async function countRows(dataDir: string) {
  const pglite = await openPglite(dataDir, migrationsFolder());
  try {
    const { rows } = await pglite.query<Record<string, number>>(
      `select (select count(*)::int from "user") as users,
              (select count(*)::int from purchase) as purchases,
              (select count(*)::int from course) as courses,
              (select count(*)::int from chapter_progress) as progress`,
    );
    return rows[0] as { users: number; purchases: number; courses: number; progress: number };
  } finally {
    await pglite.close();
  }
}

/** Every table of the schema, each after the tables it references. */
export function tablesInDependencyOrder(): PgTable[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable =>
    is(value, PgTable),
  );
  const ordered: PgTable[] = [];
  const visit = (table: PgTable) => {
    if (ordered.includes(table)) return;
    for (const fk of getTableConfig(table).foreignKeys) {
      const referenced = fk.reference().foreignTable;
      if (referenced !== table) visit(referenced);
    }
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/** Kept up by the database's triggers as rows arrive; not copied. */
const derivedTables = new Set(["page_version"]);

const batchRows = 2000;

/**
 * Copies every row of the embedded database in DATA_DIR (no server may hold
 * it) into a new PostgreSQL database at `url`, in one transaction: migrations
 * first, then the tables in dependency order. Refuses a database that holds
 * users already. Idempotent only in that a second run is refused.
 */
async function copyToPostgres(env: DataEnv, url: string, io: Io): Promise<number> {
  if (env.databaseUrl) {
    io.err("Unset DATABASE_URL: the copy reads the embedded database in DATA_DIR.");
    return 1;
  }
  if (!existsSync(path.join(env.dataDir, "PG_VERSION"))) {
    io.err(`No database in DATA_DIR ${env.dataDir}.`);
    return 1;
  }
  let source: Awaited<ReturnType<typeof openDatabase>>;
  try {
    source = await openDatabase({ dataDir: env.dataDir, databaseUrl: undefined });
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    io.err(`Stop the server first: the copy must see the data as it stands. ${error.message}`);
    return 1;
  }
  const pglite = source.pglite;
  if (!pglite) throw new Error("the embedded database has no PGlite instance");
  const target = new pg.Client({ connectionString: url });
  try {
    await migrateServer(url);
    await target.connect();
    await target.query("begin");
    const { rows } = await target.query(`select exists (select 1 from "user") as taken`);
    if (rows[0]?.taken) {
      await target.query("rollback");
      io.err("The PostgreSQL database holds users already; copy into a new, empty database.");
      return 1;
    }
    const tables = tablesInDependencyOrder()
      .map((table) => getTableConfig(table).name)
      .filter((name) => !derivedTables.has(name));
    // What the migrations put there (the demo course) gives way to the copied rows.
    for (const name of [...tables].reverse()) await target.query(`delete from "${name}"`);
    // Columns the database computes (purchase.created_day) are not written: it fills them in.
    const { rows: written } = await target.query<{ table_name: string; names: string }>(
      `select table_name, string_agg(format('%I', column_name), ', ' order by ordinal_position) as names
       from information_schema.columns
       where table_schema = 'public' and is_generated = 'NEVER'
       group by table_name`,
    );
    const writtenColumns = new Map(written.map((r) => [r.table_name, r.names]));
    const columnsOf = (table: string) => writtenColumns.get(table) ?? "*";
    const copied: string[] = [];
    for (const name of tables) {
      // Rows a trigger wrote while earlier tables were copied (a refunded purchase's
      // refund, drizzle/0025) give way to the copied rows too.
      await target.query(`delete from "${name}"`);
      let count = 0;
      for (;;) {
        const batch = await pglite.query<{ rows: string | null }>(
          `select json_agg(t)::text as rows from (select * from "${name}" order by ctid limit ${batchRows} offset ${count}) t`,
        );
        const json = batch.rows[0]?.rows;
        if (!json) break;
        const inserted = await target.query(
          `insert into "${name}" (${columnsOf(name)}) select ${columnsOf(name)} from json_populate_recordset(null::"${name}", $1::json)`,
          [json],
        );
        count += inserted.rowCount ?? 0;
        if ((inserted.rowCount ?? 0) < batchRows) break;
      }
      copied.push(`${name} ${count}`);
    }
    // Sequences (purchase_order_seq: order numbers) go on where the source's are.
    const { rows: sequences } = await pglite.query<{ name: string; value: string | null }>(
      "select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'",
    );
    for (const { name, value } of sequences) {
      if (value === null) continue;
      await target.query("select setval($1, $2::bigint, true)", [`"${name}"`, value]);
    }
    // Identity columns (audit_log.seq) go on after the copied values.
    const { rows: identities } = await target.query<{ table_name: string; column_name: string }>(
      "select table_name, column_name from information_schema.columns where table_schema = 'public' and is_identity = 'YES'",
    );
    for (const { table_name: table, column_name: column } of identities) {
      await target.query(
        `select setval(pg_get_serial_sequence($1, $2), coalesce((select max("${column}") from "${table}"), 0) + 1, false)`,
        [`"${table}"`, column],
      );
    }
    await target.query("commit");
    io.out(`Copied ${env.dataDir} to PostgreSQL:\n  ${copied.join("\n  ")}`);
    const secretFile = path.join(env.dataDir, "auth-secret");
    io.out(
      existsSync(secretFile)
        ? `Set DATABASE_URL to it and BETTER_AUTH_SECRET to the contents of ${secretFile} (sessions and two-factor keys depend on it), then start the servers.`
        : "Set DATABASE_URL to it, keep BETTER_AUTH_SECRET as it is, then start the servers.",
    );
    return 0;
  } catch (error) {
    await target.query("rollback").catch(() => {});
    io.err(`Copy failed, nothing was written: ${(error as Error).message}`);
    return 1;
  } finally {
    await target.end().catch(() => {});
    await source.close();
  }
}
