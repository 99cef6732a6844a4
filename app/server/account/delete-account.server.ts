import { and, eq, isNull, like, or, sql } from "drizzle-orm";
import { recordSecurityEvent } from "../audit-log.server";
import type { Db } from "../db/client.server";
import {
  account,
  auditLog,
  chapterProgress,
  chapterView,
  coachingApplication,
  courseVisit,
  emailOutbox,
  savedIdea,
  session,
  signInAddress,
  stripeCustomer,
  testCheckout,
  twoFactor,
  user,
  verification,
} from "../db/schema";

// Deleting a member's account at their request (docs/product.md, Your account).
// Its purchases stay, for the seller's accounts (the privacy policy keeps
// purchase records as tax law requires): they reference the user row with ON
// DELETE CASCADE, so the row stays too, with nothing left in it that names
// the person.

/** The name an anonymised account keeps, and the actor label its audit entries get. */
export const deletedAccountName = "Deleted account";
export const deletedActorLabel = "deleted account";

/** The domain of an anonymised account's address: one no mail is ever sent to (RFC 2606). */
export const deletedAccountDomain = "deleted.invalid";

/** The address an anonymised account keeps: unique, and no session of it signs anyone in. */
export const deletedAccountEmail = (userId: string) => `deleted-${userId}@${deletedAccountDomain}`;

/**
 * Deletes the account `userId` but its purchases, in one transaction:
 * the user row is anonymised; its sessions, password, two-factor secret and
 * recovery codes, known sign-in addresses, progress, chapter openings, resume
 * points, saved ideas, Stripe customer and pending test checkouts are
 * deleted; its reset and sign-in links end; mail not yet sent to it is
 * dropped and mail sent keeps no address. The audit log records
 * `security.account-deleted`, then no entry keeps the address (as actor or
 * target). An admin is not deleted ("admin"): another admin removes the
 * role first.
 */
export async function deleteAccount(
  db: Db,
  userId: string,
): Promise<"deleted" | "admin" | "not-found"> {
  return db.transaction(async (tx) => {
    // Locked until the end: two deletions of one account do not interleave, and a row being
    // added for it meanwhile (a session, a purchase) waits for the deletion to finish.
    const [row] = await tx
      .select({ email: user.email, isAdmin: user.isAdmin })
      .from(user)
      .where(eq(user.id, userId))
      .for("update");
    if (!row) return "not-found";
    if (row.isAdmin) return "admin";
    const { email } = row;
    const anonymised = deletedAccountEmail(userId);

    await recordSecurityEvent(tx, { id: userId, email }, "security.account-deleted");
    for (const table of [
      session,
      account,
      twoFactor,
      signInAddress,
      chapterProgress,
      chapterView,
      courseVisit,
      savedIdea,
      stripeCustomer,
      testCheckout,
      // A build's intake answers are the buyer's own words; the purchase stays, anonymised.
      coachingApplication,
    ]) {
      await tx.delete(table).where(eq(table.userId, userId));
    }
    // Every one-time link of the account: reset and set-password links
    // (auth/reset-links.server.ts) and sign-in links (sign-in-link.server.ts) hold the
    // account's id; a pending e-mail change starts with it and a newline.
    await tx
      .delete(verification)
      .where(or(eq(verification.value, userId), like(verification.value, `${userId}\n%`)));
    await tx.delete(emailOutbox).where(and(eq(emailOutbox.to, email), isNull(emailOutbox.sentAt)));
    // Mail already sent stays counted in the outbox, to an address that names no one.
    await tx.update(emailOutbox).set({ to: anonymised }).where(eq(emailOutbox.to, email));
    await tx
      .update(user)
      .set({
        name: deletedAccountName,
        email: anonymised,
        emailVerified: false,
        image: null,
        twoFactorEnabled: false,
        updatedAt: new Date(),
      })
      .where(eq(user.id, userId));
    // After the entry above: the log keeps what happened, not whose address it was. Entries
    // carry the address as their actor (the account's own) or target (an admin's action on it).
    await tx
      .update(auditLog)
      .set({
        actor: sql`case when ${auditLog.actorId} = ${userId} or ${auditLog.actor} = ${email}
          then ${deletedActorLabel} else ${auditLog.actor} end`,
        target: sql`case when ${auditLog.target} = ${email}
          then ${deletedActorLabel} else ${auditLog.target} end`,
      })
      .where(
        sql`${auditLog.actorId} = ${userId} or ${auditLog.actor} = ${email} or ${auditLog.target} = ${email}`,
      );
    return "deleted";
  });
}
