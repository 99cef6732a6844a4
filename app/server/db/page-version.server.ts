import { eq, inArray, sql } from "drizzle-orm";
import {
  liveSession,
  type SessionMember,
  sessionMemberColumns,
  sessionMemberOf,
} from "../auth/session.server";
import type { Db } from "./client.server";
import { pageVersion, session, user } from "./schema";

/**
 * What a member's page depends on, as one string (user, their version and
 * the shared version), and until when their session holds. With it the
 * session's user and membership, as the session lookup would find them
 * (findSessionMember), read in the same statement: a page rendered on a miss
 * starts from them instead of looking the session up again (decision 056).
 * Absent for an admin whose session's last request is due to be written,
 * which the lookup does.
 */
export type PageStamp = { stamp: string; validUntil: number; member?: SessionMember };

/**
 * The stamp of each live session among `tokens`, in one query: the session's
 * user, the version of everything of theirs a member page shows (`user:{id}`)
 * and of what every member sees (`shared`), both bumped by triggers in the
 * transaction of every write (drizzle/0006_page_version.sql). A token whose
 * session has ended, was signed out, or that the session lookup would not
 * take (liveSession) is absent from the result.
 */
export async function readPageStamps(
  db: Db,
  tokens: readonly string[],
): Promise<Map<string, PageStamp>> {
  const stamps = new Map<string, PageStamp>();
  if (tokens.length === 0) return stamps;
  const rows = await db
    .select({
      ...sessionMemberColumns(),
      token: session.token,
      validUntil: sql<number>`(extract(epoch from ${session.expiresAt}) * 1000)::float8`.mapWith(
        Number,
      ),
      userVersion: sql<number>`coalesce(${pageVersion.version}, 0)`.mapWith(Number),
      sharedVersion:
        sql<number>`coalesce((select version from page_version where key = 'shared'), 0)`.mapWith(
          Number,
        ),
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .leftJoin(pageVersion, eq(pageVersion.key, sql`'user:' || ${session.userId}`))
    .where(liveSession(inArray(session.token, [...tokens])));
  for (const { token, validUntil, userVersion, sharedVersion, ...row } of rows) {
    const { member, touch } = sessionMemberOf(row);
    stamps.set(token, {
      stamp: `${member.user.id}:${userVersion}:${sharedVersion}`,
      validUntil,
      ...(touch ? {} : { member }),
    });
  }
  return stamps;
}
