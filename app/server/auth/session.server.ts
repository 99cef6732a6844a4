import { and, eq, gt } from "drizzle-orm";
import { paidAccessSql } from "../access.server";
import type { Db } from "../db/client.server";
import { session, user } from "../db/schema";
import { readSignedCookie, sessionCookieName } from "./cookies.server";

export type SessionMember = {
  user: { id: string; name: string; email: string; isAdmin: boolean; twoFactorEnabled: boolean };
  /** hasPaidAccess for this user, decided in the same query. */
  isMember: boolean;
};

/**
 * The session token from Better Auth's signed session cookie, or null when
 * the cookie is missing or its signature is wrong. Only the one name Better
 * Auth uses is read, so logout always sees the cookie that signed the user in.
 */
export function readSessionToken(
  cookieHeader: string | null,
  secret: string,
  secure = false,
): string | null {
  return readSignedCookie(cookieHeader, sessionCookieName(secure), secret);
}

/**
 * readSessionToken with its answers remembered per Cookie header (at most
 * `maxEntries`, the oldest forgotten first): a browser sends the same header
 * on every request, and a map lookup costs less than the HMAC. The answer for
 * a header never changes (the signature is checked against the same secret),
 * so remembering it is exact.
 */
export function createSessionTokenReader(secret: string, secure: boolean, maxEntries = 10_000) {
  const known = new Map<string, string | null>();
  return (cookieHeader: string | null | undefined): string | null => {
    if (!cookieHeader) return null;
    const remembered = known.get(cookieHeader);
    if (remembered !== undefined) return remembered;
    const token = readSessionToken(cookieHeader, secret, secure);
    if (known.size >= maxEntries) known.delete(known.keys().next().value as string);
    known.set(cookieHeader, token);
    return token;
  };
}

/**
 * The user of an unexpired session and whether they are a member, in one
 * query (session, user and the access rule of access.server.ts). The
 * session row is read on every request, so logging out everywhere or a
 * refund takes effect on the next one.
 */
export async function findSessionMember(db: Db, token: string): Promise<SessionMember | null> {
  const [row] = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      isAdmin: user.isAdmin,
      twoFactorEnabled: user.twoFactorEnabled,
      isMember: paidAccessSql({ id: user.id, isAdmin: user.isAdmin }),
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(and(eq(session.token, token), gt(session.expiresAt, new Date())))
    .limit(1);
  if (!row) return null;
  const { isMember, ...rest } = row;
  return { user: rest, isMember: isMember === true };
}
