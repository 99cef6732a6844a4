import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/** Matches an e-mail address case-insensitively (Better Auth stores them lower-cased). */
export function emailIs(column: AnyPgColumn, email: string): SQL {
  return sql`lower(${column}) = lower(${email.trim()})`;
}
