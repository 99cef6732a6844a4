// The owner's console, members: the table of accounts (and its CSV) and one
// member's page. What it shows of access comes from the access rule's own SQL
// (access.server.ts). The actions on a member are in member-actions.server.ts.

import { desc, eq, getTableColumns, sql } from "drizzle-orm";
import { accessProduct } from "~/config/site";
import { type MemberAccessFilter, membersPageSize } from "~/lib/admin-forms";
import { type MemberAccess, memberAccessIs, memberAccessSql } from "../access.server";
import { type Db, rowsOf } from "../db/client.server";
import {
  chapter,
  chapterProgress,
  course,
  purchase,
  purchaseProviders,
  refund,
  session,
  user,
} from "../db/schema";

export type { MemberAccess } from "../access.server";

export type MemberRow = {
  id: string;
  name: string;
  email: string;
  createdAt: Date;
  access: MemberAccess;
  /** The providers of the plan's purchases, e.g. "stripe, warriorplus". */
  paidVia: string | null;
  twoFactorEnabled: boolean;
  /** The latest activity of any of their sessions. */
  lastSeenAt: Date | null;
};

export type MembersQuery = { q: string | null; access: MemberAccessFilter; page: number };

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;

/** The access rule's kind of access of the user row `u` (access.server.ts). */
const accessOf = (u: string) =>
  memberAccessSql({ id: sql.raw(`${u}.id`), isAdmin: sql.raw(`${u}.is_admin`) });

/** The accounts matching the query's search and access filter, as a condition on `u`. */
function matching(query: Omit<MembersQuery, "page">) {
  const search = query.q
    ? sql` and (lower(u.name) like ${likePattern(query.q)} or lower(u.email) like ${likePattern(query.q)})`
    : sql``;
  const access =
    query.access === "all"
      ? sql``
      : sql` and ${memberAccessIs({ id: sql.raw("u.id"), isAdmin: sql.raw("u.is_admin") }, query.access)}`;
  return sql`true${search}${access}`;
}

/**
 * A window of the matching accounts, newest first (user_created_at_idx):
 * the page's rows are found first, then their purchases, providers and last
 * session are read for those rows only; `after` continues past a row (the
 * CSV reads in batches).
 */
function membersSql(
  query: Omit<MembersQuery, "page">,
  window: { limit: number; offset?: number; after?: { at: string; id: string }; counted?: boolean },
) {
  const total = window.counted ? sql`, count(*) over () as total` : sql``;
  const after = window.after
    ? sql` and (u.created_at, u.id) < (${window.after.at}::timestamptz, ${window.after.id})`
    : sql``;
  return sql`
    with page as (
      select u.id, u.name, u.email, u.created_at, u.is_admin, u.two_factor_enabled${total}
      from ${user} u
      where ${matching(query)}${after}
      order by u.created_at desc, u.id desc
      limit ${window.limit} offset ${window.offset ?? 0}
    )
    select page.*, page.created_at::text as cursor_at,
      ${accessOf("page")} as access,
      ${sql.raw(purchaseProviders.map((p) => `plan."paid_${p}"`).join(", "))},
      (select max(s.updated_at) from ${session} s where s.user_id = page.id) as last_seen_at
    from page cross join lateral (
      select ${sql.raw(purchaseProviders.map((p) => `bool_or(provider = '${p}') as "paid_${p}"`).join(", "))}
      from ${purchase} p where p.user_id = page.id and p.product = ${accessProduct}
    ) plan
    order by page.created_at desc, page.id desc`;
}

/** How many accounts match, for the page's count and its pager. */
async function countMembers(db: Db, query: Omit<MembersQuery, "page">): Promise<number> {
  const [row] = await rowsOf(db, sql`select count(*) as n from ${user} u where ${matching(query)}`);
  return Number(row?.n ?? 0);
}

function toMemberRow(r: Record<string, unknown>): MemberRow {
  return {
    id: String(r.id),
    name: String(r.name),
    email: String(r.email),
    createdAt: new Date(r.created_at as string),
    access: r.access as MemberAccess,
    paidVia: purchaseProviders.filter((p) => r[`paid_${p}`] === true).join(", ") || null,
    twoFactorEnabled: Boolean(r.two_factor_enabled),
    lastSeenAt: r.last_seen_at ? new Date(r.last_seen_at as string) : null,
  };
}

/**
 * One page of accounts (50), and how many match in all. A search reads every
 * account anyway, so the page's query counts them too; without one the
 * page's rows come from the index alone and the count is a query of its own.
 */
export async function listMembers(
  db: Db,
  query: MembersQuery,
): Promise<{ rows: MemberRow[]; total: number }> {
  const offset = (query.page - 1) * membersPageSize;
  const counted = query.q !== null;
  const rows = await rowsOf(db, membersSql(query, { limit: membersPageSize, offset, counted }));
  const total = counted && rows[0] ? Number(rows[0].total) : await countMembers(db, query);
  return { rows: rows.map(toMemberRow), total };
}

/** Every matching account, in batches, for the CSV download. */
export async function* allMembers(
  db: Db,
  query: Omit<MembersQuery, "page">,
  batch = 1000,
): AsyncGenerator<MemberRow[]> {
  // The cursor is the time as PostgreSQL wrote it: a Date would lose the microseconds.
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await rowsOf(db, membersSql(query, { limit: batch, after }));
    const last = rows[rows.length - 1];
    if (!last) return;
    yield rows.map(toMemberRow);
    if (rows.length < batch) return;
    after = { at: String(last.cursor_at), id: String(last.id) };
  }
}

/** Everything the member's page shows, or null for no such account. */
export async function findMember(db: Db, userId: string) {
  const [found] = await db
    .select({ account: user, access: memberAccessSql(user) })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  if (!found) return null;
  const { account, access } = found;
  const [purchases, progress, sessions] = await Promise.all([
    db
      .select({
        ...getTableColumns(purchase),
        // What was paid back on it and when last (the refunds' rows: a partial refund counts what it paid).
        // Qualified by hand: Drizzle leaves a one-table select's columns unqualified.
        refundedCents: sql<number>`(select coalesce(sum(r.amount_cents), 0) from ${refund} r
          where r.purchase_id = "purchase"."id")`.mapWith(Number),
        lastRefundAt: sql<Date | null>`(select max(r.created_at) from ${refund} r
          where r.purchase_id = "purchase"."id")`.mapWith(purchase.refundedAt),
      })
      .from(purchase)
      .where(eq(purchase.userId, userId))
      .orderBy(desc(purchase.createdAt)),
    // Chapters a member can read: drafts, and an admin's marks on them, do not count.
    rowsOf(
      db,
      sql`
        select k.id, k.title,
          (select count(*) from ${chapter} c where c.course_id = k.id and c.published) as chapters,
          (select count(*) from ${chapterProgress} p
             join ${chapter} c on c.id = p.chapter_id and c.published
           where p.course_id = k.id and p.user_id = ${userId}) as done
        from ${course} k
        order by k.created_at, k.id`,
    ).then((rows) =>
      rows.map((r) => ({
        courseId: String(r.id),
        title: String(r.title),
        chapters: Number(r.chapters),
        done: Number(r.done),
      })),
    ),
    db
      .select({
        id: session.id,
        createdAt: session.createdAt,
        updatedAt: session.updatedAt,
        expiresAt: session.expiresAt,
        ipAddress: session.ipAddress,
        userAgent: session.userAgent,
      })
      .from(session)
      .where(eq(session.userId, userId))
      .orderBy(desc(session.updatedAt)),
  ]);
  return {
    account: {
      id: account.id,
      name: account.name,
      email: account.email,
      emailVerified: account.emailVerified,
      isAdmin: account.isAdmin,
      twoFactorEnabled: account.twoFactorEnabled,
      createdAt: account.createdAt,
    },
    access,
    purchases,
    progress,
    sessions,
  };
}
