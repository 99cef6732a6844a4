// Test fixtures for the operator CLI's tests.
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { getDb } from "../db/db.server";
import { purchase, user } from "../db/schema";
import { runCli } from "./cli.server";

/** Runs the CLI in-process against the test database; returns the exit code and what it printed. */
export async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    db: getDb,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

export async function userRow(id: string) {
  const [row] = await (await getDb()).select().from(user).where(eq(user.id, id));
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

/** Every purchase row of a user in this database. */
export async function purchasesIn(db: Db, userId: string) {
  return db.select().from(purchase).where(eq(purchase.userId, userId));
}
