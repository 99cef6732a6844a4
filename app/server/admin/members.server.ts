// The owner's console, members: the table of accounts (and its CSV) and one
// member's page. What it shows of access comes from the access rule's own SQL
// (access.server.ts). The actions on a member are in member-actions.server.ts.

import { desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { accessProduct } from "~/config/site";
import {
  type Audience,
  type MemberSort,
  type MembersQuery,
  membersPageSize,
  membersQueryDefaults,
} from "~/lib/admin-forms";
import {
  courseOpenSql,
  heldProductsSql,
  type MemberAccess,
  memberAccessIs,
  memberAccessSql,
  productHoldersSql,
} from "../access.server";
import { type Db, rowsOf } from "../db/client.server";
import {
  chapter,
  chapterProgress,
  course,
  courseVisit,
  emailPreference,
  memberProgress,
  memberSpend,
  purchase,
  purchaseProviders,
  refund,
  session,
  user,
} from "../db/schema";

export type { MembersQuery } from "~/lib/admin-forms";
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
  /** Published chapters done, of every published course's. */
  chaptersDone: number;
  chapters: number;
  /** What they paid, less what was refunded, in cents. */
  spendCents: number;
  /** The products whose purchases count by the access rule. */
  products: string[];
  /** The latest of their sessions' activity and their opening a chapter. */
  lastActiveAt: Date | null;
};

type Filters = Omit<MembersQuery, "page">;

/** A query as callers give it: what is left out is the default (membersQueryDefaults). */
export type MembersQueryInput = Partial<MembersQuery>;

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;

const userRef = (u: string) => ({ id: sql.raw(`${u}.id`), isAdmin: sql.raw(`${u}.is_admin`) });

/** The access rule's kind of access of the user row `u` (access.server.ts). */
const accessOf = (u: string) => memberAccessSql(userRef(u));

/** Published chapters of published courses, or of the one course `courseId`. */
function readable(courseId: string | null) {
  const which = courseId ? sql`c.course_id = ${courseId}` : sql`k.published`;
  return sql`${chapter} c join ${course} k on k.id = c.course_id where c.published and ${which}`;
}

/** How many chapters the progress figures count. */
const chaptersSql = (courseId: string | null) => sql`(select count(*) from ${readable(courseId)})`;

/** The readable chapters user `u` has marked done. */
const doneSql = (u: string, courseId: string | null) =>
  sql`(select count(*) from ${chapterProgress} cp where cp.user_id = ${sql.raw(u)}.id
    and cp.chapter_id in (select c.id from ${readable(courseId)}))`;

/** What user `u` paid, less what was refunded to them, in cents: kept by the database (member_spend). */
const spendSql = (u: string) =>
  sql`coalesce((select ms.cents from ${memberSpend} ms where ms.user_id = ${sql.raw(u)}.id), 0)`;

const lastActiveSql = (u: string) =>
  sql`greatest((select max(s.updated_at) from ${session} s where s.user_id = ${sql.raw(u)}.id),
    (select max(v.visited_at) from ${courseVisit} v where v.user_id = ${sql.raw(u)}.id))`;

// Sorting or filtering the whole list by a figure reads it for every account
// at once: one grouped pass over each table, joined to the accounts (a
// subquery per account costs seconds on the embedded database at 20,000).
// The page's own rows read the same figures one account at a time above.

/** The join of the chapters done in one course, or in all. */
const doneAlias = (courseId: string | null) => (courseId ? "done_course" : "done_all");

/** Chapters members cannot read (drafts, and chapters of draft courses): usually none. */
const unreadableChapters = sql`select c.id from ${chapter} c join ${course} k on k.id = c.course_id
  where not (c.published and k.published)`;

/**
 * The readable chapters each user has marked done, as `alias.n`. Over every
 * course: their count of marks kept by the database (member_progress), less
 * their marks on chapters members cannot read, which are counted only when
 * there are such chapters (a one-time test: no mark is read otherwise). In
 * one course: its readable chapters' marks, counted.
 */
const doneJoin = (alias: string, courseId: string | null) => {
  const marks = courseId
    ? sql`select cp.user_id, count(*) as n from ${chapterProgress} cp
        where cp.chapter_id in (select c.id from ${readable(courseId)}) group by cp.user_id`
    : sql`select mp.user_id, mp.marks - coalesce(fix.n, 0) as n from ${memberProgress} mp
        left join (select cp.user_id, count(*) as n from ${chapterProgress} cp
          where exists (${unreadableChapters}) and cp.chapter_id = any(array(${unreadableChapters}))
          group by cp.user_id) fix on fix.user_id = mp.user_id`;
  return sql`left join (${marks}) ${sql.raw(alias)} on ${sql.raw(alias)}.user_id = u.id`;
};

const figureJoins = {
  spend: () => sql`left join ${memberSpend} spent on spent.user_id = u.id`,
  progress: () => doneJoin(doneAlias(null), null),
  active: () => sql`
    left join (select s.user_id, max(s.updated_at) as at from ${session} s group by s.user_id) seen
      on seen.user_id = u.id
    left join (select v.user_id, max(v.visited_at) as at from ${courseVisit} v group by v.user_id) opened
      on opened.user_id = u.id`,
};

/** Each sort's key over the accounts `u` and their figureJoins. */
const sortKeys: Record<MemberSort, SQL> = {
  name: sql`lower(u.name)`,
  email: sql`lower(u.email)`,
  joined: sql`u.created_at`,
  access: accessOf("u"),
  progress: sql`coalesce(done_all.n, 0)`,
  spend: sql`coalesce(spent.cents, 0)`,
  active: sql`greatest(seen.at, opened.at)`,
};

/** The joins the query's filters and, when `sort` is given, its order need. */
function joinsFor(query: Filters, sort?: MemberSort) {
  const joins: SQL[] = [];
  if (query.progress !== "all") joins.push(doneJoin(doneAlias(query.course), query.course));
  // Progress over every course is one pass whether it filters, sorts or both.
  const counted = query.progress !== "all" && query.course === null;
  // Never seen and the last-active order read the same two passes.
  if (query.seen === "never") joins.push(figureJoins.active());
  if (sort === "spend" || (sort === "active" && query.seen !== "never")) {
    joins.push(figureJoins[sort]());
  }
  if (sort === "progress" && !counted) joins.push(figureJoins.progress());
  return sql.join(joins, sql` `);
}

/** The accounts matching the query's search and filters, as a condition on `u` and its joins (joinsFor). */
function matching(query: Filters) {
  const terms: SQL[] = [sql`true`];
  if (query.q) {
    const like = likePattern(query.q);
    terms.push(sql`(lower(u.name) like ${like} or lower(u.email) like ${like})`);
  }
  if (query.access !== "all") terms.push(memberAccessIs(userRef("u"), query.access));
  if (query.product) terms.push(sql`u.id in ${productHoldersSql(query.product)}`);
  if (query.provider) {
    terms.push(
      sql`exists (select 1 from ${purchase} p where p.user_id = u.id and p.provider = ${query.provider})`,
    );
  }
  if (query.opens) terms.push(courseOpenSql(userRef("u"), sql`${query.opens}::uuid`));
  if (query.seen === "never") terms.push(sql`seen.at is null and opened.at is null`);
  if (query.joinedFrom) terms.push(sql`u.created_at >= ${query.joinedFrom}::date`);
  if (query.joinedTo) terms.push(sql`u.created_at < ${query.joinedTo}::date + 1`);
  if (query.progress !== "all") {
    const done = sql`coalesce(${sql.raw(doneAlias(query.course))}.n, 0)`;
    const all = chaptersSql(query.course);
    terms.push(
      query.progress === "not-started"
        ? sql`${done} = 0`
        : query.progress === "finished"
          ? sql`${all} > 0 and ${done} >= ${all}`
          : sql`${done} > 0 and ${done} < ${all}`,
    );
  }
  return sql.join(terms, sql` and `);
}

/**
 * A window of the matching accounts in the query's order (newest first by
 * default, from user_created_at_idx): the page's rows are found first, then
 * their figures are read for those rows only; `after` continues past a row
 * in the default order (the CSV reads in batches).
 */
function membersSql(
  query: Filters,
  window: { limit: number; offset?: number; after?: { at: string; id: string }; counted?: boolean },
) {
  const total = window.counted ? sql`, count(*) over () as total` : sql``;
  const after = window.after
    ? sql` and (u.created_at, u.id) < (${window.after.at}::timestamptz, ${window.after.id})`
    : sql``;
  // The CSV's batches go newest first whatever the page's order.
  const sort = window.after ? "joined" : query.sort;
  const dir = sql.raw(window.after ? "desc" : query.dir);
  const key = sort === "joined" ? sql`null` : sortKeys[sort];
  const tie = sql`u.created_at ${dir}, u.id ${dir}`;
  const order = sort === "joined" ? tie : sql`${key} ${dir} nulls last, ${tie}`;
  return sql`
    with page as (
      select u.id, u.name, u.email, u.created_at, u.is_admin, u.two_factor_enabled,
        ${key} as sort_key${total}
      from ${user} u ${joinsFor(query, sort)}
      where ${matching(query)}${after}
      order by ${order}
      limit ${window.limit} offset ${window.offset ?? 0}
    )
    select page.*, page.created_at::text as cursor_at,
      ${accessOf("page")} as access,
      ${sql.raw(purchaseProviders.map((p) => `plan."paid_${p}"`).join(", "))},
      ${doneSql("page", null)} as chapters_done,
      ${chaptersSql(null)} as chapters,
      ${spendSql("page")} as spend_cents,
      ${heldProductsSql({ id: sql.raw("page.id") })} as products,
      ${lastActiveSql("page")} as last_active_at
    from page cross join lateral (
      select ${sql.raw(purchaseProviders.map((p) => `bool_or(provider = '${p}') as "paid_${p}"`).join(", "))}
      from ${purchase} p where p.user_id = page.id and p.product = ${accessProduct}
    ) plan
    order by page.sort_key ${dir} nulls last, page.created_at ${dir}, page.id ${dir}`;
}

/**
 * The ids and addresses of the accounts matching a members-list filter, as
 * a select (`id`, `email`) for a broadcast to queue or count; `also` narrows
 * it further (a condition on `u`).
 */
export function matchingAccountsSql(audience: Audience, also: SQL = sql`true`): SQL {
  const query = { ...membersQueryDefaults, ...audience };
  return sql`select u.id, u.email from ${user} u ${joinsFor(query)}
    where ${matching(query)} and ${also}`;
}

/** How many accounts match, for the page's count and its pager. */
async function countMembers(db: Db, query: Filters): Promise<number> {
  const [row] = await rowsOf(
    db,
    sql`select count(*) as n from ${user} u ${joinsFor(query)} where ${matching(query)}`,
  );
  return Number(row?.n ?? 0);
}

/** A json value as both drivers return it (parsed already, or as text). */
const jsonOf = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);

function toMemberRow(r: Record<string, unknown>): MemberRow {
  const products = jsonOf(r.products);
  return {
    id: String(r.id),
    name: String(r.name),
    email: String(r.email),
    createdAt: new Date(r.created_at as string),
    access: r.access as MemberAccess,
    paidVia: purchaseProviders.filter((p) => r[`paid_${p}`] === true).join(", ") || null,
    twoFactorEnabled: Boolean(r.two_factor_enabled),
    chaptersDone: Number(r.chapters_done),
    chapters: Number(r.chapters),
    spendCents: Number(r.spend_cents),
    products: Array.isArray(products) ? products.map(String).sort() : [],
    lastActiveAt: r.last_active_at ? new Date(r.last_active_at as string) : null,
  };
}

/**
 * One page of accounts (50), and how many match in all. A search or a
 * filter on figures reads every account anyway, so the page's query counts
 * them too; otherwise the page's rows come from the index alone and the count
 * is a query of its own.
 */
export async function listMembers(
  db: Db,
  input: MembersQueryInput,
): Promise<{ rows: MemberRow[]; total: number }> {
  const query = { ...membersQueryDefaults, ...input };
  const offset = (query.page - 1) * membersPageSize;
  const counted = query.q !== null || query.sort !== "joined" || query.progress !== "all";
  const rows = await rowsOf(db, membersSql(query, { limit: membersPageSize, offset, counted }));
  const total = counted && rows[0] ? Number(rows[0].total) : await countMembers(db, query);
  return { rows: rows.map(toMemberRow), total };
}

/**
 * Every matching account, newest first, in batches, for the CSV download. A
 * batch of 250 reads its figures in well under 100 ms on the embedded
 * database, which serves one query at a time: a member's request waits for
 * one batch at most, not the download.
 */
export async function* allMembers(
  db: Db,
  input: Omit<MembersQueryInput, "page">,
  batch = 250,
): AsyncGenerator<MemberRow[]> {
  const query = { ...membersQueryDefaults, ...input };
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
    .select({
      account: user,
      access: memberAccessSql(user),
      unsubscribedAt: emailPreference.unsubscribedAt,
      undeliverableAt: emailPreference.undeliverableAt,
      undeliverableReason: emailPreference.undeliverableReason,
    })
    .from(user)
    .leftJoin(emailPreference, eq(emailPreference.userId, user.id))
    .where(eq(user.id, userId))
    .limit(1);
  if (!found) return null;
  const { account, access, unsubscribedAt, undeliverableAt, undeliverableReason } = found;
  const marketing = { unsubscribedAt, undeliverableAt, undeliverableReason };
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
    marketing,
    purchases,
    progress,
    sessions,
  };
}
