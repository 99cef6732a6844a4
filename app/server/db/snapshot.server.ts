import { sql } from "drizzle-orm";
import type { Db } from "./client.server";

/**
 * The database's current snapshot (`xmin:xmax:in-progress xids`). It changes
 * whenever a transaction that wrote anything starts or ends, from any
 * connection or process, and stays put while the database is only read.
 */
export async function readSnapshot(db: Db): Promise<string> {
  const result = await db.execute(sql`select pg_current_snapshot()::text as snapshot`);
  const [row] = (result as unknown as { rows: { snapshot: string }[] }).rows;
  if (!row) throw new Error("pg_current_snapshot() returned no row");
  return row.snapshot;
}
