import { and, eq, getTableName, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { accessProduct } from "../config/site";
import type { Db, Tx } from "./db/client.server";
import { purchase, user } from "./db/schema";
import { logger } from "./logger.server";

/**
 * The one access rule (docs/product.md, The access rule): a user is a member
 * when they are an admin or hold a completed, unrefunded purchase of the plan
 * (lifetime-access) from any provider; add-ons (bump, upsells) open nothing by
 * themselves; a marketplace sale credited to an account that had not proved
 * its address counts once the address is proved (purchase.awaits_address_proof).
 * Every way of paying writes a `purchase` row, so this is the only check. An
 * error in the check is logged and denies access.
 */
export async function hasPaidAccess(
  db: Db | Tx,
  user: { id: string; isAdmin: boolean },
): Promise<boolean> {
  if (user.isAdmin) return true;
  try {
    const rows = await db
      .select({ one: sql<number>`1` })
      .from(purchase)
      .where(
        and(
          eq(purchase.userId, user.id),
          eq(purchase.status, "completed"),
          eq(purchase.product, accessProduct),
          addressProvedFor(purchase),
        ),
      )
      .limit(1);
    return rows.length > 0;
  } catch (error) {
    logger.error({ err: error }, "payment check failed; access denied");
    return false;
  }
}

/**
 * hasPaidAccess as a SQL condition on a user row, for deciding access for
 * many users in one query (the operator's `users list`). Keep in step with
 * hasPaidAccess above.
 */
export function paidAccessSql(u: { id: AnyPgColumn; isAdmin: AnyPgColumn }): SQL<boolean> {
  return sql<boolean>`(${col(u.isAdmin)} or exists (select 1 from ${purchase} where ${col(purchase.userId)} = ${col(u.id)} and ${col(purchase.status)} = 'completed' and ${col(purchase.product)} = ${accessProduct} and ${addressProvedFor(purchase)}))`;
}

// Qualified by hand: Drizzle leaves columns unqualified in a one-table select list.
const col = (c: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(c.table))}.${sql.identifier(c.name)}`;

/**
 * A purchase row that waits for its account's address to be proved counts
 * once it is (a primary-key look-up, made only for such rows).
 */
function addressProvedFor(p: typeof purchase): SQL {
  const owner = sql.identifier("address_owner");
  return sql`(not ${col(p.awaitsAddressProof)} or exists (select 1 from ${user} ${owner} where ${owner}.${sql.identifier(user.id.name)} = ${col(p.userId)} and ${owner}.${sql.identifier(user.emailVerified.name)}))`;
}
