import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, like } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { user, verification } from "../db/schema";
import { enqueueSignInLink } from "../mail/notices.server";

// One-time sign-in links (docs/decisions/021-no-sign-in-lockout.md): when an
// account's limit for new places is used up, its owner is mailed a link that
// lets the password (and two-factor, if on) through once from anywhere.

const linkPrefix = "sign-in-link:";
const linkTtlMs = 60 * 60 * 1000;

/** How a link's token is kept in `verification.identifier`: its SHA-256 only, never the token. */
function storedLinkIdentifier(token: string): string {
  return `${linkPrefix}${createHash("sha256").update(token).digest("base64url")}`;
}

/**
 * Mails a one-time sign-in link (valid 1 hour) to the account with this
 * e-mail, if there is one; it replaces any earlier link of that account.
 * Runs in one transaction.
 */
export async function sendSignInLink(db: Db, email: string): Promise<void> {
  const [member] = await db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(eq(user.email, email.toLowerCase()))
    .limit(1);
  if (!member) return;
  const token = randomBytes(24).toString("base64url");
  await db.transaction(async (tx) => {
    await tx
      .delete(verification)
      .where(
        and(eq(verification.value, member.id), like(verification.identifier, `${linkPrefix}%`)),
      );
    await tx.insert(verification).values({
      id: crypto.randomUUID(),
      identifier: storedLinkIdentifier(token),
      value: member.id,
      expiresAt: new Date(Date.now() + linkTtlMs),
    });
    await enqueueSignInLink(tx, member, token);
  });
}

/** Whether `token` is an unexpired sign-in link of the account with this e-mail. */
export async function isSignInLinkFor(db: Db, token: string, email: string): Promise<boolean> {
  if (!isPlausibleToken(token)) return false;
  const rows = await db
    .select({ id: verification.id })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(
      and(
        eq(verification.identifier, storedLinkIdentifier(token)),
        eq(user.email, email.toLowerCase()),
        gt(verification.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Ends a sign-in link once its holder's password was right. */
export async function spendSignInLink(db: Db, token: string): Promise<void> {
  if (!isPlausibleToken(token)) return;
  await db.delete(verification).where(eq(verification.identifier, storedLinkIdentifier(token)));
}

function isPlausibleToken(token: string): boolean {
  return token.length > 0 && token.length <= 200;
}
