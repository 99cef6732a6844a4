// The owner's console, members: one product granted to or revoked from the
// members ticked on /admin/members. Shown first as a preview (who changes,
// who is left as they are), then applied in one transaction with an audit
// entry per member changed. A grant is a $0 manual purchase, which no report
// counts as a sale; a revoke ends what that product gives and books nothing.

import { inArray, sql } from "drizzle-orm";
import { accessProduct, type FunnelProductKey } from "~/config/site";
import { holdsProductSql } from "../access.server";
import { type Actor, recordAudit } from "../audit-log.server";
import type { Db, Tx } from "../db/client.server";
import { user } from "../db/schema";
import { grantByHand, revokeUserAccess } from "../payments/purchases.server";
import { productName } from "../settings/offer-settings.server";

export type BulkIntent = "bulk-grant" | "bulk-revoke";

/** A ticked member and whether they hold the product now. */
export type BulkTarget = { id: string; email: string; isAdmin: boolean; holds: boolean };

export type BulkPreview = {
  intent: BulkIntent;
  product: FunnelProductKey;
  productName: string;
  /** The members the action changes. */
  changes: BulkTarget[];
  /** The members left as they are (a grant to a holder, a revoke from someone who does not hold it). */
  unchanged: BulkTarget[];
};

async function targetsOf(db: Db | Tx, product: FunnelProductKey, userIds: readonly string[]) {
  const u = { id: user.id };
  return db
    .select({
      id: user.id,
      email: user.email,
      isAdmin: user.isAdmin,
      holds: holdsProductSql(u, product).mapWith(Boolean),
    })
    .from(user)
    .where(inArray(user.id, [...userIds]))
    .orderBy(user.email);
}

function split(intent: BulkIntent, product: FunnelProductKey, targets: BulkTarget[]): BulkPreview {
  const changes = targets.filter((t) => (intent === "bulk-grant" ? !t.holds : t.holds));
  const unchanged = targets.filter((t) => !changes.includes(t));
  return { intent, product, productName: productName(product), changes, unchanged };
}

/** What the action would do to the ticked members (unknown ids are left out). */
export async function previewBulkAccess(
  db: Db,
  intent: BulkIntent,
  product: FunnelProductKey,
  userIds: readonly string[],
): Promise<BulkPreview> {
  return split(intent, product, await targetsOf(db, product, userIds));
}

/**
 * Applies the action to the ticked members as they are now (read again in
 * the transaction, each row locked, so two submits change each member once).
 */
export async function applyBulkAccess(
  db: Db,
  actor: Actor,
  intent: BulkIntent,
  product: FunnelProductKey,
  userIds: readonly string[],
): Promise<{ changed: number; message: string }> {
  const name = productName(product);
  const changed = await db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${user} where ${inArray(user.id, [...userIds])} for update`);
    const { changes } = split(intent, product, await targetsOf(tx, product, userIds));
    for (const target of changes) {
      if (intent === "bulk-grant") {
        await grantByHand(tx, target.id, product);
        await recordAudit(tx, actor, { kind: "member.grant", target: target.email, detail: name });
      }
    }
    if (intent === "bulk-revoke" && changes.length > 0) {
      const revoked = await revokeUserAccess(
        tx,
        changes.map((t) => t.id),
        product,
      );
      for (const target of changes) {
        const count = revoked.filter((p) => p.userId === target.id).length;
        await recordAudit(tx, actor, {
          kind: "member.revoke",
          target: target.email,
          detail: `${count} purchase(s) of ${name} no longer give access; nothing refunded`,
        });
      }
    }
    return changes.length;
  });
  const members = `${changed} member${changed === 1 ? "" : "s"}`;
  const message =
    intent === "bulk-grant"
      ? `Granted ${name} to ${members}.`
      : `Revoked ${name} from ${members}. Nothing was refunded.${
          product === accessProduct ? " Admins keep access as admins." : ""
        }`;
  return { changed, message };
}
