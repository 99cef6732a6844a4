import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import type { Db, Tx } from "../db/client.server";
import { getDb } from "../db/db.server";
import { user, verification } from "../db/schema";
import { logger } from "../logger.server";
import { getAuth, resetIdentifierPrefix } from "./better-auth.server";
import { clearSessionCookies } from "./cookies.server";
import { authErrorCode } from "./errors.server";
import {
  clientAddress,
  getRateLimits,
  type RateLimits,
  tooManyAttempts,
} from "./rate-limit.server";

// Password reset and first password, on Better Auth's reset mechanism
// (requestPasswordReset / resetPassword, better-auth.server.ts): a one-time token in
// the `verification` table, used at /reset-password?token=...

/**
 * How a reset or set-password token is kept in `verification.identifier`:
 * the SHA-256 (base64url) of Better Auth's identifier, as its "hashed"
 * storage writes it (better-auth.server.ts). Whoever reads the table cannot
 * use what is there; the link in the e-mail holds the token itself.
 */
export function storedResetIdentifier(token: string): string {
  return createHash("sha256").update(`${resetIdentifierPrefix}${token}`).digest("base64url");
}

export const resetRequestedMessage =
  "If an account exists for that e-mail address, we have sent it a link to choose a new password. The link is valid for 1 hour. Check your spam folder if it has not arrived within a few minutes.";

/**
 * Sends a reset link (valid 1 hour) to the address if it has an account, and
 * nothing otherwise; the answer never tells which. Counted per client address
 * and per e-mail first: refused with a message once either is used up.
 */
export async function requestPasswordReset(
  request: Request,
  email: string,
  limits: RateLimits = getRateLimits(),
): Promise<{ ok: true; message: string } | { ok: false; error: string }> {
  if (
    !(await limits.passwordReset.perAddress.hit(clientAddress(request))) ||
    !(await limits.passwordReset.perEmail.hit(email.toLowerCase()))
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
  { ok: true; headers: Headers } | { ok: false; reason: "invalid-token" | "failed" };

/**
 * Sets a new password with a reset token. One-time: the token is consumed in
 * the same transaction as the new password, and every session of the user
 * ends (revokeSessionsOnPasswordReset), so they sign in again.
 */
export async function resetPassword(token: string, newPassword: string): Promise<ResetResult> {
  try {
    const db = await getDb();
    const [pending] = await db
      .select({ userId: verification.value })
      .from(verification)
      .where(eq(verification.identifier, storedResetIdentifier(token)))
      .limit(1);
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
    logger.error({ err: error }, "password reset failed");
    return { ok: false, reason: "failed" };
  }
}

/**
 * Creates a one-time set-password token for a user, in the caller's
 * transaction, in the form Better Auth's resetPassword accepts; valid for
 * `ttlSeconds`. Used for buyers whose account a marketplace sale created.
 */
export async function createSetPasswordToken(
  tx: Db | Tx,
  userId: string,
  ttlSeconds: number,
): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  await tx.insert(verification).values({
    id: crypto.randomUUID(),
    identifier: storedResetIdentifier(token),
    value: userId,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}
