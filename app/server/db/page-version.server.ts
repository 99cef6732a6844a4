import { sql } from "drizzle-orm";
import type { Db } from "./client.server";

/**
 * What a member's page depends on, as one string (user, their version and
 * the shared version), and until when their session holds.
 */
export type PageStamp = { stamp: string; validUntil: number };

/**
 * The stamp of each live session among `tokens`, in one query: the session's
 * user, the version of everything of theirs a member page shows (`user:{id}`)
 * and of what every member sees (`shared`), both bumped by triggers in the
 * transaction of every write (drizzle/0006_page_version.sql). A token whose
 * session has ended or was signed out is absent from the result.
 */
export async function readPageStamps(
  db: Db,
  tokens: readonly string[],
): Promise<Map<string, PageStamp>> {
  const stamps = new Map<string, PageStamp>();
  if (tokens.length === 0) return stamps;
  const result = await db.execute(sql`
    select s.token, s.user_id,
      (extract(epoch from s.expires_at) * 1000)::float8 as valid_until,
      coalesce(u.version, 0) as user_version,
      coalesce((select version from page_version where key = 'shared'), 0) as shared_version
    from session s
    left join page_version u on u.key = 'user:' || s.user_id
    where s.token in (${sql.join(
      tokens.map((t) => sql`${t}`),
      sql`, `,
    )}) and s.expires_at > now()`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  for (const row of rows) {
    stamps.set(String(row.token), {
      stamp: `${row.user_id}:${row.user_version}:${row.shared_version}`,
      validUntil: Number(row.valid_until),
    });
  }
  return stamps;
}
