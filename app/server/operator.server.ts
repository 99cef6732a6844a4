// The operator CLI (`npm run cli -- ...`, wired in cli.ts): admin and access
// grants, a list of users, and failed e-mail. Every command is one lookup and/or one write
// statement, never a transaction: over the PGlite socket the statements share
// the server's single session.

import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, getTableName, gt, isNull, type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import pg from "pg";
import { paidAccessSql } from "./access.server";
import { type Database, type Db, openDatabase } from "./db/client.server";
import * as schema from "./db/schema";
import { emailOutbox, purchase, user } from "./db/schema";
import { socketPath, socketPort } from "./db/socket.server";
import type { Env } from "./env.server";
import { fulfilPurchase } from "./payments/purchases.server";

export const usage = `Usage: npm run cli -- COMMAND

Commands:
  admin grant EMAIL     make the user an admin
  admin revoke EMAIL    take admin away from the user
  access grant EMAIL    give Lifetime Access (a manual purchase, amount 0)
  access revoke EMAIL   mark all the user's completed purchases refunded
  users list            every user: e-mail, name, admin, access, created
  mail failed           unsent e-mail that failed at least once, with its last error
  mail retry EMAIL      send the failed e-mail to EMAIL again from now (fresh attempts)
  mail retry --all      the same for every failed e-mail
  --help                this text

E-mail addresses match case-insensitively. Uses the server's DATA_DIR or
DATABASE_URL; works while the server runs.`;

export type CliIo = {
  /** The database, or a function opening it (called only by commands that need it). */
  db: Db | (() => Promise<Db>);
  out: (text: string) => void;
  err: (text: string) => void;
};

type Command =
  | { kind: "help" }
  | { kind: "admin"; grant: boolean; email: string }
  | { kind: "access"; grant: boolean; email: string }
  | { kind: "users-list" }
  | { kind: "mail-failed" }
  | { kind: "mail-retry"; email: string | null };

/** The command named by argv (without `node cli.ts`), or undefined when it names none. */
export function parseCommand(argv: readonly string[]): Command | undefined {
  const [area, verb, email, ...rest] = argv;
  if (argv.length === 0 || (argv.length === 1 && ["--help", "-h", "help"].includes(area ?? ""))) {
    return { kind: "help" };
  }
  if ((area === "admin" || area === "access") && (verb === "grant" || verb === "revoke")) {
    if (!email || email.startsWith("-") || rest.length > 0) return undefined;
    return { kind: area, grant: verb === "grant", email };
  }
  if (area === "users" && verb === "list" && argv.length === 2) return { kind: "users-list" };
  if (area === "mail" && verb === "failed" && argv.length === 2) return { kind: "mail-failed" };
  if (area === "mail" && verb === "retry" && email && rest.length === 0) {
    if (email === "--all") return { kind: "mail-retry", email: null };
    if (!email.startsWith("-")) return { kind: "mail-retry", email };
  }
  return undefined;
}

/** Runs one CLI command and returns the process exit code (0 done, 1 failed, 2 bad usage). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const command = parseCommand(argv);
  if (!command) {
    io.err(`Unknown command: ${argv.join(" ")}\n\n${usage}`);
    return 2;
  }
  if (command.kind === "help") {
    io.out(usage);
    return 0;
  }
  const db = typeof io.db === "function" ? await io.db() : io.db;
  switch (command.kind) {
    case "admin":
      return setAdmin(db, io, command.email, command.grant);
    case "access":
      return command.grant
        ? grantAccess(db, io, command.email)
        : revokeAccess(db, io, command.email);
    case "users-list":
      printUsers(io, await listUsers(db));
      return 0;
    case "mail-failed":
      printFailedMail(io, await listFailedMail(db));
      return 0;
    case "mail-retry": {
      const count = await retryFailedMail(db, command.email);
      io.out(`${count} message${count === 1 ? "" : "s"} queued to be sent again.`);
      return 0;
    }
  }
}

/** Matches an e-mail address case-insensitively (Better Auth stores them lower-cased). */
function emailIs(column: AnyPgColumn, email: string): SQL {
  return sql`lower(${column}) = lower(${email.trim()})`;
}

function noSuchUser(io: CliIo, email: string): number {
  io.err(`No user with e-mail ${email}`);
  return 1;
}

async function setAdmin(db: Db, io: CliIo, email: string, isAdmin: boolean): Promise<number> {
  // One statement: the self-join reads the row as it was before the update.
  const before = alias(user, "before");
  const rows = await db
    .update(user)
    .set({
      isAdmin,
      updatedAt: sql`case when ${before.isAdmin} = ${isAdmin} then ${user.updatedAt} else now() end`,
    })
    .from(before)
    .where(and(eq(before.id, user.id), emailIs(before.email, email)))
    .returning({ email: user.email, wasAdmin: before.isAdmin });
  if (rows.length === 0) return noSuchUser(io, email);
  for (const row of rows) {
    if (row.wasAdmin === isAdmin) {
      io.out(
        `${row.email} ${isAdmin ? "is already an admin" : "is not an admin"}; nothing changed.`,
      );
    } else {
      io.out(isAdmin ? `Granted admin to ${row.email}.` : `Revoked admin from ${row.email}.`);
    }
  }
  return 0;
}

/** A column as `"table"."column"`: Drizzle leaves columns unqualified in a one-table select list. */
const qualified = (c: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(c.table))}.${sql.identifier(c.name)}`;

const completedManualPurchase = (userId: AnyPgColumn) =>
  sql<boolean>`exists (select 1 from ${purchase} where ${qualified(purchase.userId)} = ${qualified(userId)} and ${qualified(purchase.provider)} = 'manual' and ${qualified(purchase.status)} = 'completed')`;

async function grantAccess(db: Db, io: CliIo, email: string): Promise<number> {
  const [target, ...others] = await db
    .select({ id: user.id, email: user.email, hasManual: completedManualPurchase(user.id) })
    .from(user)
    .where(emailIs(user.email, email));
  if (!target) return noSuchUser(io, email);
  if (others.length > 0) {
    io.err(`Several users match ${email}; nothing changed.`);
    return 1;
  }
  if (target.hasManual) {
    io.out(`${target.email} already has a completed manual purchase; nothing changed.`);
    return 0;
  }
  const granted = await fulfilPurchase(db, {
    userId: target.id,
    provider: "manual",
    providerRef: randomUUID(),
    product: "lifetime-access",
    amountCents: 0,
    currency: "usd",
  });
  io.out(`Granted access to ${target.email} (manual purchase ${granted.id}).`);
  return 0;
}

async function revokeAccess(db: Db, io: CliIo, email: string): Promise<number> {
  const refunded = await db
    .update(purchase)
    .set({ status: "refunded", refundedAt: sql`now()` })
    .from(user)
    .where(
      and(
        eq(purchase.userId, user.id),
        emailIs(user.email, email),
        eq(purchase.status, "completed"),
      ),
    )
    .returning({ email: user.email, isAdmin: user.isAdmin });
  const first = refunded[0];
  if (first) {
    const n = refunded.length;
    io.out(
      `Revoked access for ${first.email}: ${n} purchase${n === 1 ? "" : "s"} marked refunded; their paid access has ended.`,
    );
    if (first.isAdmin) io.out(`${first.email} is an admin and keeps access through is_admin.`);
    return 0;
  }
  // Nothing refunded: tell an unknown address from a user with nothing to refund.
  const [target] = await db
    .select({ email: user.email, isAdmin: user.isAdmin })
    .from(user)
    .where(emailIs(user.email, email))
    .limit(1);
  if (!target) return noSuchUser(io, email);
  io.out(`${target.email} has no completed purchases; nothing changed.`);
  if (target.isAdmin) io.out(`${target.email} is an admin and keeps access through is_admin.`);
  return 0;
}

export type UserRow = {
  email: string;
  name: string;
  isAdmin: boolean;
  hasAccess: boolean;
  createdAt: Date;
};

/** Every user with their access (hasPaidAccess's rule), in one query. */
export async function listUsers(db: Db): Promise<UserRow[]> {
  return db
    .select({
      email: user.email,
      name: user.name,
      isAdmin: user.isAdmin,
      hasAccess: paidAccessSql(user),
      createdAt: user.createdAt,
    })
    .from(user)
    .orderBy(asc(user.createdAt), asc(user.email));
}

/** Control characters (a name could hold terminal escapes) shown as `?`. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

function printUsers(io: CliIo, rows: readonly UserRow[]): void {
  if (rows.length === 0) {
    io.out("No users.");
    return;
  }
  const yesNo = (b: boolean) => (b ? "yes" : "no");
  printTable(io, [
    ["EMAIL", "NAME", "ADMIN", "ACCESS", "CREATED"],
    ...rows.map((r) => [
      printable(r.email),
      printable(r.name),
      yesNo(r.isAdmin),
      yesNo(r.hasAccess),
      r.createdAt.toISOString().slice(0, 10),
    ]),
  ]);
  io.out(`${rows.length} user${rows.length === 1 ? "" : "s"}.`);
}

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

/** Columns padded to their widest cell; the last column is not padded. */
function printTable(io: CliIo, table: readonly (readonly string[])[]): void {
  const widths = table[0]?.map((_, i) => Math.max(...table.map((cells) => cells[i]?.length ?? 0)));
  for (const cells of table) {
    io.out(
      cells
        .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths?.[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    );
  }
}

type FailedMail = {
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
};

/** Unsent outbox messages with at least one failed attempt, oldest first: one query. */
export async function listFailedMail(db: Db): Promise<FailedMail[]> {
  return db
    .select({
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      attempts: emailOutbox.attempts,
      lastError: emailOutbox.lastError,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(and(isNull(emailOutbox.sentAt), gt(emailOutbox.attempts, 0)))
    .orderBy(asc(emailOutbox.createdAt));
}

function printFailedMail(io: CliIo, rows: readonly FailedMail[]): void {
  if (rows.length === 0) {
    io.out("No failed e-mail.");
    return;
  }
  printTable(io, [
    ["TO", "SUBJECT", "ATTEMPTS", "CREATED", "LAST ERROR"],
    ...rows.map((r) => [
      printable(r.to),
      printable(r.subject),
      String(r.attempts),
      r.createdAt.toISOString().slice(0, 16).replace("T", " "),
      printable(r.lastError ?? ""),
    ]),
  ]);
  io.out(`${rows.length} message${rows.length === 1 ? "" : "s"}.`);
}

/**
 * Failed, unsent messages (to `email`, or all when null) start over: no
 * attempts counted, due now. The server's sender picks them up on its next pass.
 */
export async function retryFailedMail(db: Db, email: string | null): Promise<number> {
  const rows = await db
    .update(emailOutbox)
    .set({ attempts: 0, nextAttemptAt: sql`now()`, lastError: null })
    .where(
      and(
        isNull(emailOutbox.sentAt),
        gt(emailOutbox.attempts, 0),
        email === null ? undefined : emailIs(emailOutbox.to, email),
      ),
    )
    .returning({ id: emailOutbox.id });
  return rows.length;
}
