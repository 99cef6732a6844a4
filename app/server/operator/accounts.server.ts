// The operator CLI's commands on users: admin and access grants, the list of users.

import { and, asc, eq, getTableName, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import type { FunnelProductKey } from "~/config/site";
import { paidAccessSql } from "../access.server";
import type { Db } from "../db/client.server";
import { emailIs } from "../db/email-match.server";
import { purchase, user } from "../db/schema";
import { grantByHand, revokeUserAccess } from "../payments/purchases.server";
import { productName, refreshOfferSettings } from "../settings/offer-settings.server";
import type { CliIo } from "./cli-io.server";

function noSuchUser(io: CliIo, email: string): number {
  io.err(`No user with e-mail ${email}`);
  return 1;
}

export async function setAdmin(
  db: Db,
  io: CliIo,
  email: string,
  isAdmin: boolean,
): Promise<number> {
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

const completedManualPurchase = (userId: AnyPgColumn, product: string) =>
  sql<boolean>`exists (select 1 from ${purchase} where ${qualified(purchase.userId)} = ${qualified(userId)} and ${qualified(purchase.provider)} = 'manual' and ${qualified(purchase.status)} = 'completed' and ${qualified(purchase.accessRevokedAt)} is null and ${qualified(purchase.product)} = ${product})`;

/** Gives the user `product` (Lifetime Access unless named) as a manual purchase of amount 0. */
export async function grantAccess(
  db: Db,
  io: CliIo,
  email: string,
  product: FunnelProductKey = "lifetime-access",
): Promise<number> {
  const [target, ...others] = await db
    .select({
      id: user.id,
      email: user.email,
      hasManual: completedManualPurchase(user.id, product),
    })
    .from(user)
    .where(emailIs(user.email, email));
  if (!target) return noSuchUser(io, email);
  if (others.length > 0) {
    io.err(`Several users match ${email}; nothing changed.`);
    return 1;
  }
  // The products' names (and the receipt's) as the owner set them, read into this process.
  await refreshOfferSettings(db);
  if (target.hasManual) {
    io.out(
      product === "lifetime-access"
        ? `${target.email} already has a completed manual purchase; nothing changed.`
        : `${target.email} already has a completed manual purchase of ${productName(product)}; nothing changed.`,
    );
    return 0;
  }
  const granted = await grantByHand(db, target.id, product);
  io.out(
    product === "lifetime-access"
      ? `Granted access to ${target.email} (manual purchase ${granted.id}).`
      : `Granted ${productName(product)} to ${target.email} (manual purchase ${granted.id}).`,
  );
  return 0;
}

export async function revokeAccess(db: Db, io: CliIo, email: string): Promise<number> {
  const targets = await db
    .select({ id: user.id, email: user.email, isAdmin: user.isAdmin })
    .from(user)
    .where(emailIs(user.email, email));
  if (targets.length === 0) return noSuchUser(io, email);
  const revoked = await revokeUserAccess(
    db,
    targets.map((t) => t.id),
  );
  const who = targets.find((t) => t.id === revoked[0]?.userId) ?? targets[0];
  if (!who) return noSuchUser(io, email);
  if (revoked.length > 0) {
    const n = revoked.length;
    io.out(
      `Revoked access for ${who.email}: ${n} purchase${n === 1 ? "" : "s"} no longer give${n === 1 ? "s" : ""} access; nothing was refunded.`,
    );
  } else {
    io.out(`${who.email} has no purchases that give access; nothing changed.`);
  }
  if (who.isAdmin) io.out(`${who.email} is an admin and keeps access through is_admin.`);
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
