import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, like, ne } from "drizzle-orm";
import { changeLinkExpired } from "~/lib/account-forms";
import { recordSecurityEvent } from "../audit-log.server";
import type { Db, Tx } from "../db/client.server";
import { purchase, user as userTable, verification } from "../db/schema";
import { enqueueEmailChangeAsked, enqueueEmailChanged } from "../mail/notices.server";

// Changing the account's e-mail address (/account): a link to the new address
// confirms it (/account/confirm-email?token=…, valid 24 hours, once); until
// then the account signs in with the old one, which is told of the request
// and of the change. One row in `verification` per pending change, identified
// by the token's hash: whoever reads the table cannot confirm anything.

const prefix = "change-email:";
const validHours = 24;

export const emailTaken = "That address belongs to another account.";
export const sameEmail = "That is already your address.";
export { changeLinkExpired };
export const proveAddressFirst =
  "A purchase on this account waits for your current address to be proved. Open the link in your login details e-mail (or use Forgot password) first, then change it.";

/**
 * Whether a marketplace sale on the account waits for its current address to
 * be proved (decision 023): a new address proved would open it, though the
 * sale was for whoever holds the old one, so the address cannot change yet.
 */
async function awaitsAddressProof(db: Db | Tx, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: purchase.id })
    .from(purchase)
    .innerJoin(userTable, eq(userTable.id, purchase.userId))
    .where(
      and(
        eq(purchase.userId, userId),
        eq(purchase.awaitsAddressProof, true),
        eq(userTable.emailVerified, false),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

const storedIdentifier = (token: string) =>
  `${prefix}${createHash("sha256").update(token).digest("base64url")}`;

/** Whether another account already uses the address. */
async function takenByAnother(db: Db | Tx, userId: string, address: string): Promise<boolean> {
  const rows = await db
    .select({ id: userTable.id })
    .from(userTable)
    .where(and(eq(userTable.email, address), ne(userTable.id, userId)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Starts a change to `newEmail` (the password was checked by the caller):
 * replaces any pending change of the account, e-mails the confirmation link
 * to the new address and tells the old one, all in one transaction.
 */
export async function requestEmailChange(
  db: Db,
  user: { id: string; name: string; email: string },
  newEmail: string,
): Promise<{ ok: true } | { ok: false; error: string }> {
  if (newEmail === user.email) return { ok: false, error: sameEmail };
  if (await takenByAnother(db, user.id, newEmail)) return { ok: false, error: emailTaken };
  if (await awaitsAddressProof(db, user.id)) return { ok: false, error: proveAddressFirst };
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx
      .delete(verification)
      .where(
        and(like(verification.identifier, `${prefix}%`), like(verification.value, `${user.id}\n%`)),
      );
    await tx.insert(verification).values({
      id: crypto.randomUUID(),
      identifier: storedIdentifier(token),
      value: `${user.id}\n${newEmail}`,
      expiresAt: new Date(Date.now() + validHours * 3_600_000),
    });
    await enqueueEmailChangeAsked(tx, user, newEmail, token);
  });
  return { ok: true };
}

/** The pending change a token names, if it still works: the account and the new address. */
export async function readEmailChange(
  db: Db,
  token: string,
): Promise<{ userId: string; newEmail: string } | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select({ value: verification.value })
    .from(verification)
    .where(
      and(
        eq(verification.identifier, storedIdentifier(token)),
        gt(verification.expiresAt, new Date()),
      ),
    )
    .limit(1);
  if (!row) return null;
  const [userId = "", newEmail = ""] = row.value.split("\n");
  return { userId, newEmail };
}

/**
 * Confirms the change a token names: the account's address becomes the new
 * one (proved by the link), the link ends, the audit log records it and the
 * old address is told. Once only; refused when the address was taken since.
 */
export async function confirmEmailChange(
  db: Db,
  token: string,
): Promise<{ ok: true; newEmail: string } | { ok: false; error: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(verification)
      .where(
        and(
          eq(verification.identifier, storedIdentifier(token)),
          gt(verification.expiresAt, new Date()),
        ),
      )
      .returning({ value: verification.value });
    if (!row) return { ok: false, error: changeLinkExpired };
    const [userId = "", newEmail = ""] = row.value.split("\n");
    const [before] = await tx
      .select({ name: userTable.name, email: userTable.email })
      .from(userTable)
      .where(eq(userTable.id, userId))
      .for("update");
    if (!before) return { ok: false, error: changeLinkExpired };
    // Another account taking the address meanwhile is refused by its unique index.
    if (await takenByAnother(tx, userId, newEmail)) {
      return { ok: false, error: emailTaken };
    }
    if (await awaitsAddressProof(tx, userId)) return { ok: false, error: proveAddressFirst };
    await tx
      .update(userTable)
      .set({ email: newEmail, emailVerified: true, updatedAt: new Date() })
      .where(eq(userTable.id, userId));
    await recordSecurityEvent(tx, { id: userId, email: newEmail }, "security.email-change");
    await enqueueEmailChanged(tx, before, newEmail);
    return { ok: true, newEmail };
  });
}
