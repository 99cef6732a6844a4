import { createHash } from "node:crypto";
import { and, eq, gt, like, ne } from "drizzle-orm";
import type { Db, Tx } from "../db/client.server";
import { verification } from "../db/schema";

// How reset and set-password links are kept (docs/decisions/021-no-sign-in-lockout.md):
// one row in `verification` each, identified by the token's hash under a
// prefix, so an account's outstanding links can be found and ended together.

/** Better Auth's identifier of a reset token: this, then the token (better-auth/dist/api/routes/password.mjs). */
export const resetIdentifierPrefix = "reset-password:";

/**
 * How Better Auth's identifier of a reset token (`reset-password:<token>`)
 * is stored: the prefix, then the SHA-256 (base64url) of the identifier.
 * Whoever reads the table cannot use what is there; the e-mail holds the token.
 */
export function hashResetIdentifier(identifier: string): string {
  return `${resetIdentifierPrefix}${createHash("sha256").update(identifier).digest("base64url")}`;
}

/** The stored identifier of a reset or set-password token. */
export function storedResetIdentifier(token: string): string {
  return hashResetIdentifier(`${resetIdentifierPrefix}${token}`);
}

/**
 * Ends every outstanding reset or set-password link of the user, but the one
 * stored as `keep` if given. Idempotent.
 */
export async function endResetLinks(db: Db | Tx, userId: string, keep?: string): Promise<void> {
  await db
    .delete(verification)
    .where(
      and(
        eq(verification.value, userId),
        like(verification.identifier, `${resetIdentifierPrefix}%`),
        keep ? ne(verification.identifier, keep) : undefined,
      ),
    );
}

/** Whether the user has a reset or set-password link that still works. */
export async function hasWorkingResetLink(db: Db | Tx, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: verification.id })
    .from(verification)
    .where(
      and(
        eq(verification.value, userId),
        like(verification.identifier, `${resetIdentifierPrefix}%`),
        gt(verification.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
