// The owner's console, members: the table of accounts, one member's page and
// the actions on a member. Each action is effective on that person's next
// request (the page cache's triggers see every write, decision 009) and is
// written to the audit log in the same transaction.

import { randomUUID } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { accessProduct } from "~/config/site";
import { type MemberAccessFilter, membersPageSize } from "~/lib/admin-forms";
import { hasPaidAccess } from "../access.server";
import { getAuth } from "../auth/better-auth.server";
import { type Db, rowsOf } from "../db/client.server";
import {
  chapter,
  chapterProgress,
  course,
  paymentIssue,
  purchase,
  purchaseProviders,
  session,
  user,
} from "../db/schema";
import { fulfilPurchase, refundUserPurchases } from "../payments/purchases.server";
import { type Actor, recordAudit } from "./audit.server";

export type MemberAccess = "admin" | "member" | "refunded" | "none";

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

/** The plan's purchases of the user row `u` (uses purchase_user_status_idx). */
const planOf = (status?: "completed") =>
  sql`exists (select 1 from ${purchase} p where p.user_id = u.id and p.product = ${accessProduct}${
    status ? sql` and p.status = ${status}` : sql``
  })`;

/** hasPaidAccess's rule (docs/product.md, The access rule) as a condition on `u`. */
const accessIs: Record<Exclude<MemberAccessFilter, "all">, ReturnType<typeof sql>> = {
  admin: sql`u.is_admin`,
  member: sql`not u.is_admin and ${planOf("completed")}`,
  refunded: sql`not u.is_admin and not ${planOf("completed")} and ${planOf()}`,
  none: sql`not u.is_admin and not ${planOf()}`,
};

/** The accounts matching the query's search and access filter, as a condition on `u`. */
function matching(query: Omit<MembersQuery, "page">) {
  const search = query.q
    ? sql` and (lower(u.name) like ${likePattern(query.q)} or lower(u.email) like ${likePattern(query.q)})`
    : sql``;
  const access = query.access === "all" ? sql`` : sql` and ${accessIs[query.access]}`;
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
      case when page.is_admin then 'admin'
           when plan.completed then 'member'
           when plan.bought then 'refunded'
           else 'none' end as access,
      ${sql.raw(purchaseProviders.map((p) => `plan."paid_${p}"`).join(", "))},
      (select max(s.updated_at) from ${session} s where s.user_id = page.id) as last_seen_at
    from page cross join lateral (
      select count(*) > 0 as bought, coalesce(bool_or(status = 'completed'), false) as completed,
        ${sql.raw(purchaseProviders.map((p) => `bool_or(provider = '${p}') as "paid_${p}"`).join(", "))}
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
  const [account] = await db.select().from(user).where(eq(user.id, userId)).limit(1);
  if (!account) return null;
  const [purchases, progress, sessions] = await Promise.all([
    db.select().from(purchase).where(eq(purchase.userId, userId)).orderBy(desc(purchase.createdAt)),
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
  const access: MemberAccess = account.isAdmin
    ? "admin"
    : purchases.some((p) => p.product === accessProduct && p.status === "completed")
      ? "member"
      : purchases.some((p) => p.product === accessProduct)
        ? "refunded"
        : "none";
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

export type MemberActionResult = { ok: true; message: string } | { ok: false; error: string };

type Target = { id: string; email: string; isAdmin: boolean };

/** Applies one confirmed action to a member; `admin` is the signed-in admin doing it. */
export async function applyMemberAction(
  db: Db,
  actor: Actor & { id: string },
  userId: string,
  intent: "grant" | "revoke" | "make-admin" | "remove-admin" | "sign-out" | "password-link",
): Promise<MemberActionResult | null> {
  const [target] = await db
    .select({ id: user.id, email: user.email, isAdmin: user.isAdmin })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  if (!target) return null;
  switch (intent) {
    case "grant":
      return grant(db, actor, target);
    case "revoke":
      return revoke(db, actor, target);
    case "make-admin":
    case "remove-admin":
      return setAdmin(db, actor, target, intent === "make-admin");
    case "sign-out":
      return signOut(db, actor, target);
    case "password-link":
      return sendPasswordLink(db, actor, target);
  }
}

async function grant(db: Db, actor: Actor, target: Target): Promise<MemberActionResult> {
  if (await hasPaidAccess(db, { id: target.id, isAdmin: false })) {
    return { ok: false, error: `${target.email} already has Lifetime Access.` };
  }
  await db.transaction(async (tx) => {
    await fulfilPurchase(tx, {
      userId: target.id,
      provider: "manual",
      providerRef: randomUUID(),
      product: accessProduct,
      amountCents: 0,
      currency: "usd",
    });
    await recordAudit(tx, actor, { kind: "member.grant", target: target.email });
  });
  return { ok: true, message: `Granted Lifetime Access to ${target.email}.` };
}

async function revoke(db: Db, actor: Actor, target: Target): Promise<MemberActionResult> {
  const refunded = await db.transaction(async (tx) => {
    const rows = await refundUserPurchases(tx, [target.id]);
    if (rows.length > 0) {
      await recordAudit(tx, actor, {
        kind: "member.revoke",
        target: target.email,
        detail: `${rows.length} purchase(s) marked refunded`,
      });
    }
    return rows.length;
  });
  if (refunded === 0) return { ok: false, error: `${target.email} has no completed purchases.` };
  const admin = target.isAdmin ? " They are an admin and keep access as one." : "";
  return {
    ok: true,
    message: `Revoked access for ${target.email}: ${refunded} purchase${refunded === 1 ? "" : "s"} marked refunded.${admin}`,
  };
}

async function setAdmin(
  db: Db,
  actor: Actor & { id: string },
  target: Target,
  isAdmin: boolean,
): Promise<MemberActionResult> {
  if (target.id === actor.id) {
    return { ok: false, error: "You cannot change your own admin role." };
  }
  if (target.isAdmin === isAdmin) {
    return {
      ok: false,
      error: `${target.email} ${isAdmin ? "is already an admin" : "is not an admin"}.`,
    };
  }
  const changed = await db.transaction(async (tx) => {
    // One statement: removing is refused when no other admin would be left.
    const rows = await tx
      .update(user)
      .set({ isAdmin, updatedAt: sql`now()` })
      .where(
        and(
          eq(user.id, target.id),
          isAdmin
            ? undefined
            : sql`exists (select 1 from ${user} other where other.is_admin and other.id <> ${target.id})`,
        ),
      )
      .returning({ id: user.id });
    if (rows.length === 0) return false;
    await recordAudit(tx, actor, {
      kind: isAdmin ? "member.make-admin" : "member.remove-admin",
      target: target.email,
    });
    return true;
  });
  if (!changed) return { ok: false, error: "The last admin cannot be removed." };
  return {
    ok: true,
    message: isAdmin
      ? `${target.email} is now an admin.`
      : `${target.email} is no longer an admin.`,
  };
}

async function signOut(db: Db, actor: Actor, target: Target): Promise<MemberActionResult> {
  const ended = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(session)
      .where(eq(session.userId, target.id))
      .returning({ id: session.id });
    await recordAudit(tx, actor, {
      kind: "member.sign-out",
      target: target.email,
      detail: `${rows.length} session(s) ended`,
    });
    return rows.length;
  });
  return {
    ok: true,
    message: `Signed ${target.email} out everywhere (${ended} session${ended === 1 ? "" : "s"} ended).`,
  };
}

async function sendPasswordLink(db: Db, actor: Actor, target: Target): Promise<MemberActionResult> {
  // Better Auth writes the hashed token and queues the e-mail (valid 1 hour).
  await (await getAuth()).api.requestPasswordReset({ body: { email: target.email } });
  await recordAudit(db, actor, { kind: "member.password-link", target: target.email });
  return { ok: true, message: `Sent a link to choose a new password to ${target.email}.` };
}

/** The payments that granted nothing, newest first, for the owner to attach or dismiss. */
export function unmatchedPayments(db: Db) {
  return db
    .select()
    .from(paymentIssue)
    .where(isNull(paymentIssue.resolvedAt))
    .orderBy(desc(paymentIssue.createdAt))
    .limit(100);
}

/**
 * Attaches an unmatched payment to the account with this e-mail: a purchase
 * of the plan under the payment's own reference (so a refund from the
 * provider later finds it), and the issue resolved.
 */
export async function attachPayment(
  db: Db,
  actor: Actor,
  ref: { provider: string; providerRef: string },
  email: string,
): Promise<MemberActionResult> {
  const [issue] = await db
    .select()
    .from(paymentIssue)
    .where(
      and(
        eq(paymentIssue.provider, ref.provider as "stripe"),
        eq(paymentIssue.providerRef, ref.providerRef),
        isNull(paymentIssue.resolvedAt),
      ),
    )
    .limit(1);
  if (!issue) return { ok: false, error: "This payment is already resolved." };
  const [owner] = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email))
    .limit(1);
  if (!owner) return { ok: false, error: `No account with e-mail ${email}.` };
  await db.transaction(async (tx) => {
    await fulfilPurchase(tx, {
      userId: owner.id,
      provider: issue.provider,
      providerRef: issue.providerRef,
      product: accessProduct,
      amountCents: issue.amountCents,
      currency: issue.currency,
    });
    await tx
      .update(paymentIssue)
      .set({ resolvedAt: sql`now()` })
      .where(
        and(
          eq(paymentIssue.provider, issue.provider),
          eq(paymentIssue.providerRef, issue.providerRef),
        ),
      );
    await recordAudit(tx, actor, {
      kind: "payment.attach",
      target: owner.email,
      detail: `${issue.provider} ${issue.providerRef}`,
    });
  });
  return {
    ok: true,
    message: `Attached the payment to ${owner.email}: they have Lifetime Access.`,
  };
}

export async function dismissPayment(
  db: Db,
  actor: Actor,
  ref: { provider: string; providerRef: string },
): Promise<MemberActionResult> {
  const done = await db.transaction(async (tx) => {
    const rows = await tx
      .update(paymentIssue)
      .set({ resolvedAt: sql`now()` })
      .where(
        and(
          eq(paymentIssue.provider, ref.provider as "stripe"),
          eq(paymentIssue.providerRef, ref.providerRef),
          isNull(paymentIssue.resolvedAt),
        ),
      )
      .returning({ ref: paymentIssue.providerRef });
    if (rows.length === 0) return false;
    await recordAudit(tx, actor, {
      kind: "payment.dismiss",
      target: `${ref.provider} ${ref.providerRef}`,
    });
    return true;
  });
  return done
    ? { ok: true, message: "Dismissed the payment." }
    : { ok: false, error: "This payment is already resolved." };
}
