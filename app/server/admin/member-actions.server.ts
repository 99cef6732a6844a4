// The owner's console, the actions on a member. Each action is effective on
// that person's next request (the page cache's triggers see every write,
// decision 009) and is written to the audit log in the same transaction.

import { and, eq, sql } from "drizzle-orm";
import { accessProduct } from "~/config/site";
import type { MemberAction } from "~/lib/admin-forms";
import { hasPaidAccess } from "../access.server";
import { type Actor, recordAudit } from "../audit-log.server";
import { getAuth } from "../auth/better-auth.server";
import type { Db } from "../db/client.server";
import { session, user } from "../db/schema";
import { clearUndeliverable } from "../mail/preferences.server";
import { grantByHand, revokeUserAccess } from "../payments/purchases.server";

export type MemberActionResult = { ok: true; message: string } | { ok: false; error: string };

type Target = { id: string; email: string; isAdmin: boolean };

/** Applies one confirmed action to a member; `admin` is the signed-in admin doing it. */
export async function applyMemberAction(
  db: Db,
  actor: Actor & { id: string },
  userId: string,
  intent: MemberAction,
): Promise<MemberActionResult | null> {
  const [target] = await db
    .select({ id: user.id, email: user.email, isAdmin: user.isAdmin })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  if (!target) return null;
  switch (intent) {
    case "grant":
      return grant(db, actor, target);
    case "revoke":
      return revoke(db, actor, target);
    case "make-admin":
    case "remove-admin":
      return setAdmin(db, actor, target, intent === "make-admin");
    case "sign-out":
      return signOut(db, actor, target);
    case "password-link":
      return sendPasswordLink(db, actor, target);
    case "clear-undeliverable":
      return clearBounce(db, actor, target);
  }
}

async function grant(db: Db, actor: Actor, target: Target): Promise<MemberActionResult> {
  if (await hasPaidAccess(db, { id: target.id, isAdmin: false })) {
    return { ok: false, error: `${target.email} already has Lifetime Access.` };
  }
  await db.transaction(async (tx) => {
    await grantByHand(tx, target.id, accessProduct);
    await recordAudit(tx, actor, { kind: "member.grant", target: target.email });
  });
  return { ok: true, message: `Granted Lifetime Access to ${target.email}.` };
}

async function revoke(db: Db, actor: Actor, target: Target): Promise<MemberActionResult> {
  const revoked = await db.transaction(async (tx) => {
    const rows = await revokeUserAccess(tx, [target.id]);
    if (rows.length > 0) {
      await recordAudit(tx, actor, {
        kind: "member.revoke",
        target: target.email,
        detail: `${rows.length} purchase(s) no longer give access; nothing refunded`,
      });
    }
    return rows.length;
  });
  if (revoked === 0) {
    return { ok: false, error: `${target.email} has no purchases that give access.` };
  }
  const admin = target.isAdmin ? " They are an admin and keep access as one." : "";
  return {
    ok: true,
    message: `Revoked access for ${target.email}: ${revoked} purchase${revoked === 1 ? "" : "s"} no longer give${revoked === 1 ? "s" : ""} access. Nothing was refunded.${admin}`,
  };
}

async function setAdmin(
  db: Db,
  actor: Actor & { id: string },
  target: Target,
  isAdmin: boolean,
): Promise<MemberActionResult> {
  if (target.id === actor.id) {
    return { ok: false, error: "You cannot change your own admin role." };
  }
  if (target.isAdmin === isAdmin) {
    return {
      ok: false,
      error: `${target.email} ${isAdmin ? "is already an admin" : "is not an admin"}.`,
    };
  }
  const changed = await db.transaction(async (tx) => {
    // One statement: removing is refused when no other admin would be left.
    const rows = await tx
      .update(user)
      .set({ isAdmin, updatedAt: sql`now()` })
      .where(
        and(
          eq(user.id, target.id),
          isAdmin
            ? undefined
            : sql`exists (select 1 from ${user} other where other.is_admin and other.id <> ${target.id})`,
        ),
      )
      .returning({ id: user.id });
    if (rows.length === 0) return false;
    await recordAudit(tx, actor, {
      kind: isAdmin ? "member.make-admin" : "member.remove-admin",
      target: target.email,
    });
    return true;
  });
  if (!changed) return { ok: false, error: "The last admin cannot be removed." };
  return {
    ok: true,
    message: isAdmin
      ? `${target.email} is now an admin.`
      : `${target.email} is no longer an admin.`,
  };
}

async function signOut(db: Db, actor: Actor, target: Target): Promise<MemberActionResult> {
  const ended = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(session)
      .where(eq(session.userId, target.id))
      .returning({ id: session.id });
    await recordAudit(tx, actor, {
      kind: "member.sign-out",
      target: target.email,
      detail: `${rows.length} session(s) ended`,
    });
    return rows.length;
  });
  return {
    ok: true,
    message: `Signed ${target.email} out everywhere (${ended} session${ended === 1 ? "" : "s"} ended).`,
  };
}

async function clearBounce(db: Db, actor: Actor, target: Target): Promise<MemberActionResult> {
  await db.transaction(async (tx) => {
    await clearUndeliverable(tx, target.id);
    await recordAudit(tx, actor, { kind: "member.clear-undeliverable", target: target.email });
  });
  return { ok: true, message: `Marketing e-mail goes to ${target.email} again.` };
}

async function sendPasswordLink(db: Db, actor: Actor, target: Target): Promise<MemberActionResult> {
  // Better Auth writes the hashed token and queues the e-mail (valid 1 hour).
  await (await getAuth()).api.requestPasswordReset({ body: { email: target.email } });
  await recordAudit(db, actor, { kind: "member.password-link", target: target.email });
  return { ok: true, message: `Sent a link to choose a new password to ${target.email}.` };
}
