import { randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import type { Db, Tx } from "../db/client.server";
import { getDb } from "../db/db.server";
import { user, verification } from "../db/schema";
import { logger } from "../logger.server";
import { getAuth } from "./better-auth.server";
import { clientAddress } from "./client-address.server";
import { clearSessionCookies } from "./cookies.server";
import { authErrorCode, authErrorMessage } from "./errors.server";
import { isKnownAddress } from "./known-addresses.server";
import { refuseCommonPassword } from "./password.server";
import {
  countResetRequest,
  getRateLimits,
  type RateLimits,
  tooManyAttempts,
} from "./rate-limit.server";
import { endResetLinks, storedResetIdentifier } from "./reset-links.server";

export { storedResetIdentifier };

// Password reset and first password, on Better Auth's reset mechanism
// (requestPasswordReset / resetPassword, better-auth.server.ts): a one-time token in
// the `verification` table, used at /reset-password?token=...

export const resetRequestedMessage =
  "If an account exists for that e-mail address, we have sent it a link to choose a new password. The link is valid for 1 hour. Check your spam folder if it has not arrived within a few minutes.";

/**
 * Sends a reset link (valid 1 hour) to the address if it has an account, and
 * nothing otherwise; the answer never tells which. The new link replaces the
 * account's older ones (better-auth.server.ts). Counted first per client
 * address, per client address and e-mail, then per e-mail only from addresses
 * that never signed in to the account (countResetRequest): refused with a
 * message once a count is used up.
 */
export async function requestPasswordReset(
  request: Request,
  email: string,
  limits: RateLimits = getRateLimits(),
): Promise<{ ok: true; message: string } | { ok: false; error: string }> {
  const address = clientAddress(request);
  const db = await getDb();
  if (
    !(await countResetRequest(limits, address, email, () => isKnownAddress(db, email, address)))
  ) {
    return { ok: false, error: tooManyAttempts };
  }
  try {
    await (await getAuth()).api.requestPasswordReset({ body: { email } });
  } catch (error) {
    // Logged without the address; the visitor still gets the same answer.
    logger.error({ err: error }, "password reset request failed");
  }
  return { ok: true, message: resetRequestedMessage };
}

/** Whether the reset token exists and has not expired (it is deleted when used). */
export async function isResetTokenUsable(db: Db, token: string): Promise<boolean> {
  // No link carries a NUL (PostgreSQL would refuse it in the lookup).
  if (!token || token.length > 200 || token.includes("\u0000")) return false;
  const rows = await db
    .select({ id: verification.id })
    .from(verification)
    .where(
      and(
        eq(verification.identifier, storedResetIdentifier(token)),
        gt(verification.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export type ResetResult =
  /** Done: the headers clear the browser's session cookies. */
  | { ok: true; headers: Headers }
  /** The password was refused (too common): the link still works. */
  | { ok: false; reason: "refused-password"; message: string }
  | { ok: false; reason: "invalid-token" | "failed" };

/**
 * Sets a new password with a reset token. One-time: the token is consumed in
 * the same transaction as the new password, every other reset link of the
 * account ends (onPasswordReset, better-auth.server.ts), and every session of
 * the user ends (revokeSessionsOnPasswordReset), so they sign in again.
 */
export async function resetPassword(token: string, newPassword: string): Promise<ResetResult> {
  try {
    const db = await getDb();
    const [pending] = await db
      .select({ userId: verification.value, expiresAt: verification.expiresAt })
      .from(verification)
      .where(eq(verification.identifier, storedResetIdentifier(token)))
      .limit(1);
    // A link that works: the new password must not be a common one.
    if (pending && pending.expiresAt > new Date()) await refuseCommonPassword(newPassword);
    await (await getAuth()).api.resetPassword({ body: { token, newPassword } });
    // The link came by e-mail: whoever used it holds the mailbox.
    if (pending) {
      await db.update(user).set({ emailVerified: true }).where(eq(user.id, pending.userId));
    }
    // Every session ended with the reset; the browser forgets its cookie too.
    return { ok: true, headers: clearSessionCookies() };
  } catch (error) {
    const code = authErrorCode(error);
    if (code === "INVALID_TOKEN" || code === "USER_NOT_FOUND") {
      return { ok: false, reason: "invalid-token" };
    }
    if (code?.startsWith("PASSWORD_")) {
      return { ok: false, reason: "refused-password", message: authErrorMessage(error) };
    }
    logger.error({ err: error }, "password reset failed");
    return { ok: false, reason: "failed" };
  }
}

/**
 * Creates a one-time set-password token for a user, in the caller's
 * transaction, in the form Better Auth's resetPassword accepts; valid for
 * `ttlSeconds`, replacing the user's older reset and set-password links.
 * Used for buyers whose account a marketplace sale created.
 */
export async function createSetPasswordToken(
  tx: Db | Tx,
  userId: string,
  ttlSeconds: number,
): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  await endResetLinks(tx, userId);
  await tx.insert(verification).values({
    id: crypto.randomUUID(),
    identifier: storedResetIdentifier(token),
    value: userId,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}
