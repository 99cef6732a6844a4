import { and, eq, gt, notLike, or, type SQL, sql } from "drizzle-orm";
import { paidAccessSql } from "../access.server";
import { deletedAccountDomain } from "../account/delete-account.server";
import type { Db } from "../db/client.server";
import { session, user } from "../db/schema";
import { type CookieKeys, readSignedCookie, sessionCookieName } from "./cookies.server";

export type SessionMember = {
  user: { id: string; name: string; email: string; isAdmin: boolean; twoFactorEnabled: boolean };
  /** hasPaidAccess for this user, decided in the same query. */
  isMember: boolean;
  /** The session row, and when its user last proved who they are (sign-in, or since). */
  session: { id: string; provedAt: Date };
};

/** An admin session ends after this long without a request (docs/decisions/022-admin-sessions.md). */
export const adminIdleHours = 12;

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

const readers = new Map<string, ReturnType<typeof createSessionTokenReader>>();

/**
 * The one remembering reader (createSessionTokenReader) for these keys: the
 * page cache's and the session lookup's (session-user.server.ts), so that a
 * request's cookie is checked once and remembered once.
 */
export function sessionTokenReader({ secret, secure }: CookieKeys) {
  const key = `${secure ? "s" : "-"}${secret}`;
  let reader = readers.get(key);
  if (!reader) {
    // One pair of keys in a running server; a test that changes them starts again.
    readers.clear();
    reader = createSessionTokenReader(secret, secure);
    readers.set(key, reader);
  }
  return reader;
}

/** findSessionMember's query, built once per database (the same on every request but its token). */
const sessionLookups = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();

function prepareSessionLookup(db: Db) {
  return (
    db
      .select(sessionMemberColumns())
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .where(liveSession(eq(session.token, sql.placeholder("token"))))
      .limit(1)
      // Unnamed, as every other statement goes: the pool names it from its second call and
      // prepares it again on a connection that lost it (decision 053).
      .prepare(undefined as unknown as string)
  );
}

/**
 * The columns of a session's user and membership, from `session` joined to
 * `user`: what findSessionMember reads, and the page cache's stamp read with
 * it (readPageStamps, decision 056).
 */
export function sessionMemberColumns() {
  const idle = sql.raw(`interval '${adminIdleHours} hours'`);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    twoFactorEnabled: user.twoFactorEnabled,
    isMember: paidAccessSql({ id: user.id, isAdmin: user.isAdmin }),
    sessionId: session.id,
    provedAt: sql<Date>`coalesce(${session.provedAt}, ${session.createdAt})`.mapWith(
      session.createdAt,
    ),
    // An admin session whose last request or expiry is due to move (more than a minute behind).
    touch: sql<boolean>`${user.isAdmin} and (
        ${session.lastSeenAt} is null or ${session.lastSeenAt} < now() - interval '1 minute'
        or ${session.expiresAt} > now() + ${idle} + interval '1 minute')`,
  };
}

/** A row of sessionMemberColumns. */
type SessionMemberRow = SessionMember["user"] & {
  isMember: boolean;
  sessionId: string;
  provedAt: Date;
  touch: boolean;
};

/**
 * The sessions among `tokens` (a condition on session.token) that are live:
 * unexpired, of an account that was not deleted, and, for an admin, used
 * within adminIdleHours.
 */
export function liveSession(tokens: SQL) {
  const idle = sql.raw(`interval '${adminIdleHours} hours'`);
  return and(
    tokens,
    gt(session.expiresAt, sql`now()`),
    // A deleted account's row stays, anonymised (account/delete-account.server.ts): a
    // session a sign-in racing the deletion still made for it leads nowhere.
    notLike(user.email, `%@${deletedAccountDomain}`),
    or(
      eq(user.isAdmin, false),
      sql`coalesce(${session.lastSeenAt}, ${session.updatedAt}) > now() - ${idle}`,
    ),
  );
}

/** A SessionMember from its row, and whether the session's last request is due to move. */
export function sessionMemberOf(row: SessionMemberRow): { member: SessionMember; touch: boolean } {
  const { isMember, sessionId, provedAt, touch, ...rest } = row;
  return {
    member: { user: rest, isMember: isMember === true, session: { id: sessionId, provedAt } },
    touch: touch === true,
  };
}

/**
 * The user of an unexpired session and whether they are a member, in one
 * query (session, user and the access rule of access.server.ts). The
 * session row is read on every request, so logging out everywhere or a
 * refund takes effect on the next one.
 *
 * An admin's session ends after adminIdleHours without a request: the query
 * does not find it, and each request (at most one write a minute) moves its
 * last_seen_at and its expiry to adminIdleHours ahead, so that everything
 * reading expires_at (the page cache's stamps, Better Auth) sees it end too.
 * Other sessions are never written here.
 */
export async function findSessionMember(db: Db, token: string): Promise<SessionMember | null> {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ token });
  if (!row) return null;
  const { member, touch } = sessionMemberOf(row);
  if (touch) {
    const idle = sql.raw(`interval '${adminIdleHours} hours'`);
    await db
      .update(session)
      .set({ lastSeenAt: sql`now()`, expiresAt: sql`now() + ${idle}` })
      .where(eq(session.id, member.session.id));
  }
  return member;
}

/** Records that the session's user proved who they are now (requireRecentProof). */
export async function markSessionProved(db: Db, sessionId: string): Promise<void> {
  await db.update(session).set({ provedAt: sql`now()` }).where(eq(session.id, sessionId));
}
