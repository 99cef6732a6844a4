import { getTableName, is, SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { accessProduct } from "../config/site";
import { type Db, rowsOf, type Tx } from "./db/client.server";
import { memberHolding, productCourse, purchase, user } from "./db/schema";
import { logger } from "./logger.server";

/**
 * The one access rule (docs/product.md, The access rule): a user is a member
 * when they are an admin or hold a completed, unrefunded purchase of the plan
 * (lifetime-access) from any provider whose access the owner has not revoked; add-ons (bump, upsells) open nothing by
 * themselves; a marketplace sale credited to an account that had not proved
 * its address counts once the address is proved (purchase.awaits_address_proof).
 * Every way of paying writes a `purchase` row, so this is the only check.
 *
 * The rule is written once, as SQL (holdsPlan below): the guard's check
 * (hasPaidAccess), the session's query (paidAccessSql) and the owner's members
 * table and its filters (memberAccessSql) are all built from it.
 *
 * Courses (docs/product.md, Products and what they open): a member opens a
 * course when they hold a purchase that counts (as above) of a product that
 * opens it (product_course); admins open every course. Written once in code
 * (opensCourse, over what a member holds as heldProductsSql reads it) for the
 * pages, which have the catalogue in memory, and once in SQL (courseOpenSql)
 * for the writes; access.server.test.ts checks the two agree.
 */

/** A user row's columns, or SQL expressions of them (a query's own alias). */
type UserRef = { id: AnyPgColumn | SQL; isAdmin: AnyPgColumn | SQL };

/**
 * Whether this user is a member: an error in the check is logged and denies
 * access. Reads only; one query unless the user is an admin.
 */
export async function hasPaidAccess(
  db: Db | Tx,
  user: { id: string; isAdmin: boolean },
): Promise<boolean> {
  if (user.isAdmin) return true;
  try {
    const [row] = await rowsOf<{ member: boolean }>(
      db,
      sql`select ${holdsPlan(sql`${user.id}`)} as member`,
    );
    return row?.member === true;
  } catch (error) {
    logger.error({ err: error }, "payment check failed; access denied");
    return false;
  }
}

/**
 * hasPaidAccess as a SQL condition on a user row, for deciding access for
 * many users in one query (the session, the operator's `users list`).
 */
export function paidAccessSql(u: UserRef): SQL<boolean> {
  return sql<boolean>`(${ref(u.isAdmin)} or ${holdsPlan(ref(u.id))})`;
}

/**
 * What the owner's members table shows of a user's access, by the same rule:
 * `admin`, `member` (holds the plan), `refunded` (not a member, and a purchase
 * of the plan was refunded), or `none`. `admin` and `member` are exactly the
 * users hasPaidAccess lets in.
 */
export type MemberAccess = "admin" | "member" | "refunded" | "none";

/** memberAccessSql's value for the user row `u`, in SQL (the table's column). */
export function memberAccessSql(u: UserRef): SQL<MemberAccess> {
  const id = ref(u.id);
  return sql<MemberAccess>`(case when ${ref(u.isAdmin)} then 'admin'
    when ${holdsPlan(id)} then 'member'
    when ${refundedPlan(id)} then 'refunded'
    else 'none' end)`;
}

/**
 * `memberAccessSql(u) = access` as a condition of plain `exists` terms, which
 * the planner turns into joins (the members table's filters): the same rule,
 * without evaluating a case for every account.
 */
export function memberAccessIs(u: UserRef, access: MemberAccess): SQL<boolean> {
  const id = ref(u.id);
  const admin = ref(u.isAdmin);
  const notAdmin = sql`not ${admin}`;
  switch (access) {
    case "admin":
      return sql<boolean>`${admin}`;
    case "member":
      return sql<boolean>`(${notAdmin} and ${holdsPlan(id)})`;
    case "refunded":
      return sql<boolean>`(${notAdmin} and not ${holdsPlan(id)} and ${refundedPlan(id)})`;
    case "none":
      return sql<boolean>`(${notAdmin} and not ${holdsPlan(id)} and not ${refundedPlan(id)})`;
  }
}

/**
 * The ids of the users who hold `product` by the rule (holdsProductSql), as
 * one uncorrelated set for a filter or a count over every account
 * (`u.id in (…)`): the holdings the database keeps by this rule in the
 * transaction of every purchase and address proof (member_holding, decision
 * 047), read on their primary key, not every purchase tested again.
 * access.server.test.ts checks the kept holdings equal the rule.
 */
export function productHoldersSql(product: string): SQL {
  return sql`(select ${col(memberHolding.userId)} from ${memberHolding}
    where ${col(memberHolding.product)} = ${product} and ${col(memberHolding.purchases)} > 0)`;
}

/** The ids of the users who hold the plan by the rule (holdsPlan), as one set (productHoldersSql). */
export function planHoldersSql(): SQL {
  return productHoldersSql(accessProduct);
}

/** What a member holds: whether they are an admin, and the products of their purchases that count. */
export type Holdings = { isAdmin: boolean; products: readonly string[] };

/** The products whose purchases by the user `u` count (a json array of product keys). */
export function heldProductsSql(u: { id: AnyPgColumn | SQL }): SQL<unknown> {
  return sql`coalesce((select json_agg(distinct ${col(purchase.product)}) from ${purchase}
    where ${counts(ref(u.id))}), '[]')`;
}

/**
 * What the user `userId` holds, as one json value for a member page's own
 * statement (read back with holdingsOf): no round trip of its own.
 */
export function holdingsSql(userId: string): SQL<unknown> {
  return sql`json_build_object('isAdmin', ${isAdminSql(userId)},
    'products', ${heldProductsSql({ id: sql`${userId}` })})`;
}

/** holdingsSql's value as both drivers return it (parsed already, or as text). */
export function holdingsOf(value: unknown): Holdings {
  const v = (typeof value === "string" ? JSON.parse(value) : value) as {
    isAdmin?: unknown;
    products?: unknown;
  } | null;
  return {
    isAdmin: v?.isAdmin === true,
    products: Array.isArray(v?.products) ? v.products.map(String) : [],
  };
}

/**
 * Whether this user may have what `product` opens beyond its courses (its
 * files): an admin, or a holder of a purchase of it that counts. Reads only.
 */
export async function holdsProduct(
  db: Db | Tx,
  user: { id: string; isAdmin: boolean },
  product: string,
): Promise<boolean> {
  if (user.isAdmin) return true;
  const [row] = await rowsOf<{ holds: boolean }>(
    db,
    sql`select ${holdsProductSql({ id: sql`${user.id}` }, product)} as holds`,
  );
  return row?.holds === true;
}

/** Whether the user `u` holds a purchase of `product` that counts (admin or not), in SQL. */
export function holdsProductSql(u: { id: AnyPgColumn | SQL }, product: string): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${purchase} where ${counts(ref(u.id))}
    and ${col(purchase.product)} = ${product})`;
}

/** The rule in code: whether a member holding `held` opens a course that the products `opens` open. */
export function opensCourse(held: Holdings, opens: readonly string[]): boolean {
  return held.isAdmin || opens.some((product) => held.products.includes(product));
}

/** The rule in SQL: whether the user `u` opens the course `courseId`. */
export function courseOpenSql(u: UserRef, courseId: SQL | AnyPgColumn): SQL<boolean> {
  const opener = sql.identifier("opener");
  return sql<boolean>`(${ref(u.isAdmin)} or exists (select 1 from ${productCourse} ${opener}
    join ${purchase} on ${col(purchase.product)} = ${opener}.${sql.identifier(productCourse.product.name)}
    where ${opener}.${sql.identifier(productCourse.courseId.name)} = ${ref(courseId)} and ${counts(ref(u.id))}))`;
}

/** courseOpenSql for the user with the id `userId` (their admin flag read in the same statement). */
export function userOpensCourseSql(userId: string, courseId: SQL | AnyPgColumn): SQL<boolean> {
  return courseOpenSql({ id: sql`${userId}`, isAdmin: isAdminSql(userId) }, courseId);
}

/** Whether the user `userId` is an admin, as a scalar subquery (false for no such user). */
function isAdminSql(userId: string): SQL {
  const holder = sql.identifier("holder");
  return sql`coalesce((select ${holder}.${sql.identifier(user.isAdmin.name)} from ${user} ${holder}
    where ${holder}.${sql.identifier(user.id.name)} = ${userId}), false)`;
}

/** A purchase of the plan by `userId` was refunded. */
function refundedPlan(userId: SQL): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${purchase} where ${col(purchase.userId)} = ${userId} and ${col(purchase.product)} = ${accessProduct} and ${col(purchase.status)} = 'refunded')`;
}

/** The rule itself: the user `userId` holds a completed purchase of the plan that counts. */
function holdsPlan(userId: SQL): SQL<boolean> {
  return holdsProductSql({ id: userId }, accessProduct);
}

/**
 * A `purchase` row that counts for the user `userId`: theirs, completed, not
 * revoked by the owner, and its address proved.
 */
export function counts(userId: SQL): SQL<boolean> {
  return sql<boolean>`(${col(purchase.userId)} = ${userId} and ${col(purchase.status)} = 'completed' and ${col(purchase.accessRevokedAt)} is null and ${addressProved()})`;
}

const ref = (c: AnyPgColumn | SQL): SQL => (is(c, SQL) ? c : col(c));

// Qualified by hand: Drizzle leaves columns unqualified in a one-table select list.
const col = (c: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(c.table))}.${sql.identifier(c.name)}`;

/**
 * A purchase row that waits for its account's address to be proved counts
 * once it is (a primary-key look-up, made only for such rows).
 */
function addressProved(): SQL {
  const owner = sql.identifier("address_owner");
  return sql`(not ${col(purchase.awaitsAddressProof)} or exists (select 1 from ${user} ${owner} where ${owner}.${sql.identifier(user.id.name)} = ${col(purchase.userId)} and ${owner}.${sql.identifier(user.emailVerified.name)}))`;
}
