import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client.server";
import { signInAddress, user } from "../db/schema";

// The client addresses each account signs in from (docs/decisions/021-no-sign-in-lockout.md):
// failed attempts from them never count against the account's own limit.

/** How long an address an account signed in from stays known. */
export const knownAddressDays = 90;

const knownSince = () => new Date(Date.now() - knownAddressDays * 86_400_000);

/**
 * Whether the account with this e-mail signed in from `address` (a
 * rate-limit key, clientAddress) in the last 90 days. One indexed lookup.
 */
export async function isKnownAddress(db: Db, email: string, address: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql`1` })
    .from(signInAddress)
    .innerJoin(user, eq(user.id, signInAddress.userId))
    .where(
      and(
        eq(user.email, email.toLowerCase()),
        eq(signInAddress.address, address),
        gt(signInAddress.lastSignInAt, knownSince()),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Records a completed sign-in of `userId` from `address`, and forgets that
 * account's addresses unused for 90 days. Idempotent.
 */
export async function rememberAddress(db: Db | Tx, userId: string, address: string) {
  await db
    .insert(signInAddress)
    .values({ userId, address })
    .onConflictDoUpdate({
      target: [signInAddress.userId, signInAddress.address],
      set: { lastSignInAt: sql`now()` },
    });
  await db
    .delete(signInAddress)
    .where(and(eq(signInAddress.userId, userId), lt(signInAddress.lastSignInAt, knownSince())));
}
