// The owner's console, e-mail: broadcasts to a members-list filter. Queuing
// one is a single statement that puts a row per recipient in the outbox (the
// message itself is made for each recipient when the sender reaches it, at
// EMAIL_RATE_PER_MINUTE, after every transactional message due): a 20,000
// member broadcast is queued in one round trip and never holds member pages.

import { and, asc, desc, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { accessProduct } from "~/config/site";
import { type Audience, audienceSchema } from "~/lib/admin-forms";
import { holdsProductSql } from "../access.server";
import { type Actor, recordAudit } from "../audit-log.server";
import { sanitizeChapterHtml } from "../content/sanitize.server";
import { type Db, rowsOf, type Tx } from "../db/client.server";
import { broadcast, chapter, course, emailOutbox, emailPreference, user } from "../db/schema";
import type { Env } from "../env.server";
import { addressOf, broadcastMessage, type Sender } from "../mail/broadcast-message.server";
import { escapeHtml, type MessageContent } from "../mail/messages.server";
import { enqueueEmail, type OutboxRow, type PreparedMessage } from "../mail/outbox.server";
import { takesMarketingSql, unsubscribeToken } from "../mail/preferences.server";
import type { SequenceName } from "../mail/sequences.server";
import { currentOfferSettings } from "../settings/offer-settings.server";
import { matchingAccountsSql } from "./members.server";

/** How many accounts a broadcast to `audience` reaches, and how many it leaves out (unsubscribed or bounced). */
export async function countAudience(
  db: Db,
  audience: Audience,
): Promise<{ recipients: number; leftOut: number }> {
  // One pass: the matching accounts joined to the few preferences there are.
  const [row] = await rowsOf(
    db,
    sql`select count(*) - count(ep.user_id) as recipients, count(ep.user_id) as left_out
    from (${matchingAccountsSql(audience)}) m
    left join ${emailPreference} ep on ep.user_id = m.id
      and (ep.unsubscribed_at is not null or ep.undeliverable_at is not null)`,
  );
  return { recipients: Number(row?.recipients ?? 0), leftOut: Number(row?.left_out ?? 0) };
}

export type NewBroadcast = {
  subject: string;
  /** Sanitized already (sanitizeChapterHtml). */
  bodyHtml: string;
  audience: Audience;
  /** When to queue it; null: now. */
  scheduledFor: Date | null;
};

/** Saves a broadcast and, unless it is scheduled, queues it: one transaction, audited. */
export async function createBroadcast(
  db: Db,
  actor: Actor,
  input: NewBroadcast,
): Promise<{ id: string; recipients: number | null }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(broadcast)
      .values({
        subject: input.subject,
        bodyHtml: input.bodyHtml,
        audience: input.audience,
        scheduledFor: input.scheduledFor,
        createdBy: actor.label,
      })
      .returning({ id: broadcast.id });
    if (!row) throw new Error("broadcast insert returned no row");
    const recipients = input.scheduledFor ? null : await queue(tx, row.id, input.audience);
    await recordAudit(tx, actor, {
      kind: input.scheduledFor ? "email.schedule" : "email.broadcast",
      target: input.subject,
      detail: input.scheduledFor
        ? `for ${input.scheduledFor.toISOString()}`
        : `to ${recipients} members`,
    });
    return { id: row.id, recipients };
  });
}

/** Puts one outbox row per recipient who takes marketing e-mail, in one statement. */
async function queue(tx: Tx, broadcastId: string, audience: Audience): Promise<number> {
  const [row] = await rowsOf(
    tx,
    sql`with queued as (
      insert into ${emailOutbox} (${sql.raw('"to", subject, text, html, broadcast_id, user_id')})
      select m.email, '', '', '', ${broadcastId}::uuid, m.id
      from (${matchingAccountsSql(audience, takesMarketingSql("u"))}) m
      returning 1)
    select count(*) as n from queued`,
  );
  const recipients = Number(row?.n ?? 0);
  await tx
    .update(broadcast)
    .set({ queuedAt: new Date(), recipients, updatedAt: new Date() })
    .where(eq(broadcast.id, broadcastId));
  return recipients;
}

/**
 * Queues the scheduled broadcasts whose time has come (the sender's loop
 * calls it each pass). Each in a transaction of its own, its row locked and
 * read again, so two processes queue it once.
 */
export async function queueDueBroadcasts(db: Db, now = new Date()): Promise<number> {
  const due = await db
    .select({ id: broadcast.id })
    .from(broadcast)
    .where(and(isNull(broadcast.queuedAt), lte(broadcast.scheduledFor, now)));
  let queued = 0;
  for (const { id } of due) {
    queued += await db.transaction(async (tx) => {
      const [row] = await tx
        .select({ audience: broadcast.audience })
        .from(broadcast)
        .where(and(eq(broadcast.id, id), isNull(broadcast.queuedAt)))
        .for("update");
      if (!row) return 0;
      await queue(tx, id, row.audience as Audience);
      return 1;
    });
  }
  return queued;
}

/** What announcing a chapter did. */
export type Announcement =
  | { kind: "queued"; recipients: number }
  /** It was announced before: a chapter is announced once. */
  | { kind: "already" }
  /** The chapter or its course is a draft: no member can open it yet. */
  | { kind: "draft" };

/**
 * Tells the members who can open a chapter's course that it is out: a
 * broadcast naming the chapter, queued now, audited, in one transaction. The
 * broadcast's unique chapter_id makes it once per chapter, however often the
 * form is sent.
 */
export async function announceChapter(
  db: Db,
  actor: Actor,
  chapterId: string,
): Promise<Announcement> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({
        title: chapter.title,
        published: chapter.published,
        courseId: course.id,
        courseTitle: course.title,
        coursePublished: course.published,
      })
      .from(chapter)
      .innerJoin(course, eq(course.id, chapter.courseId))
      .where(eq(chapter.id, chapterId));
    if (!found?.published || !found.coursePublished) return { kind: "draft" };
    const subject = `New chapter: ${found.title}`;
    const href = `/course/${found.courseId}?chapter=${chapterId}`;
    const audience = audienceSchema.parse({ opens: found.courseId });
    const [row] = await tx
      .insert(broadcast)
      .values({
        subject,
        bodyHtml: sanitizeChapterHtml(
          `<p>A new chapter of <strong>${escapeHtml(found.courseTitle)}</strong> is out: ${escapeHtml(found.title)}.</p><p><a href="${href}">Read it now</a></p>`,
        ),
        audience,
        createdBy: actor.label,
        chapterId,
      })
      .onConflictDoNothing({ target: broadcast.chapterId })
      .returning({ id: broadcast.id });
    if (!row) return { kind: "already" };
    const recipients = await queue(tx, row.id, audience);
    await recordAudit(tx, actor, {
      kind: "email.broadcast",
      target: subject,
      detail: `to ${recipients} members`,
    });
    return { kind: "queued", recipients };
  });
}

/** A scheduled broadcast not queued yet is deleted; false: there was none (sent, or unknown). */
export async function cancelScheduled(db: Db, actor: Actor, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(broadcast)
      .where(and(eq(broadcast.id, id), isNull(broadcast.queuedAt)))
      .returning({ subject: broadcast.subject });
    if (!row) return false;
    await recordAudit(tx, actor, { kind: "email.cancel", target: row.subject });
    return true;
  });
}

export type BroadcastSummary = {
  id: string;
  subject: string;
  createdBy: string;
  createdAt: Date;
  scheduledFor: Date | null;
  queuedAt: Date | null;
  /** Recipients queued (null: still scheduled). */
  recipients: number | null;
  sent: number;
  /** Given up after the last attempt, or refused for good. */
  failed: number;
  /** Not sent: the account unsubscribed or bounced before its turn. */
  skipped: number;
  /** Unsubscribed with this broadcast's link. */
  unsubscribed: number;
};

/** The latest broadcasts (sequences' steps aside), newest first, with their delivery figures: two statements. */
export async function listBroadcasts(
  db: Db,
  maxAttempts: number,
  limit = 50,
): Promise<BroadcastSummary[]> {
  const rows = await db
    .select()
    .from(broadcast)
    .where(isNull(broadcast.sequence))
    .orderBy(desc(broadcast.createdAt))
    .limit(limit);
  return withFigures(db, rows, maxAttempts);
}

export type SequenceStep = BroadcastSummary & { day: number; active: boolean; bodyHtml: string };

/** A sequence's steps by day, with their delivery figures so far. */
export async function listSequence(
  db: Db,
  maxAttempts: number,
  sequence: SequenceName,
): Promise<SequenceStep[]> {
  const rows = await db
    .select()
    .from(broadcast)
    .where(eq(broadcast.sequence, sequence))
    .orderBy(asc(broadcast.sequenceDay), asc(broadcast.createdAt));
  const figures = await withFigures(db, rows, maxAttempts);
  return figures.map((f, i) => ({
    ...f,
    day: rows[i]?.sequenceDay ?? 0,
    active: rows[i]?.active ?? false,
    bodyHtml: rows[i]?.bodyHtml ?? "",
  }));
}

/** A step as the owner edits it: when, what it says, and whether it is sent. */
export type StepEdit = {
  id: string;
  day: number;
  subject: string;
  bodyHtml: string;
  active: boolean;
};

/** Saves a sequence's step, audited; false: no such step. Rows queued already are made with what it says when sent. */
export async function updateSequenceStep(db: Db, actor: Actor, edit: StepEdit): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(broadcast)
      .set({
        sequenceDay: edit.day,
        subject: edit.subject,
        bodyHtml: edit.bodyHtml,
        active: edit.active,
        updatedAt: new Date(),
      })
      .where(and(eq(broadcast.id, edit.id), isNotNull(broadcast.sequence)))
      .returning({ sequence: broadcast.sequence });
    if (!row) return false;
    await recordAudit(tx, actor, {
      kind: "email.sequence",
      target: edit.subject,
      detail: `${row.sequence} day ${edit.day}${edit.active ? "" : ", off"}`,
    });
    return true;
  });
}

/** Each broadcast with its delivery figures, counted in one statement from the outbox and the preferences. */
async function withFigures(
  db: Db,
  rows: (typeof broadcast.$inferSelect)[],
  maxAttempts: number,
): Promise<BroadcastSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const figures = await rowsOf(
    db,
    sql`select b.id,
      (select count(*) from ${emailOutbox} o where o.broadcast_id = b.id and o.sent_at is not null) as sent,
      (select count(*) from ${emailOutbox} o where o.broadcast_id = b.id and o.sent_at is null
        and o.skipped is null and o.attempts >= ${maxAttempts}) as failed,
      (select count(*) from ${emailOutbox} o where o.broadcast_id = b.id and o.skipped is not null) as skipped,
      (select count(*) from ${emailPreference} p where p.unsubscribed_from = b.id
        and p.unsubscribed_at is not null) as unsubscribed
    from ${broadcast} b where b.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  const byId = new Map(figures.map((f) => [String(f.id), f]));
  return rows.map((r) => {
    const f = byId.get(r.id);
    return {
      id: r.id,
      subject: r.subject,
      createdBy: r.createdBy,
      createdAt: r.createdAt,
      scheduledFor: r.scheduledFor,
      queuedAt: r.queuedAt,
      recipients: r.recipients,
      sent: Number(f?.sent ?? 0),
      failed: Number(f?.failed ?? 0),
      skipped: Number(f?.skipped ?? 0),
      unsubscribed: Number(f?.unsubscribed ?? 0),
    };
  });
}

export type MarketingContext = {
  origin: string;
  secret: string;
  /** SMTP_FROM's address: marketing e-mail is sent from it in the seller's name. */
  fromAddress: string;
  sender: () => Sender;
};

/** A broadcast's outbox row made into its recipient's message, or the reason it is not sent. */
export async function prepareBroadcastMessage(
  db: Db | Tx,
  row: OutboxRow,
  context: MarketingContext,
): Promise<PreparedMessage> {
  const [found] = await db
    .select({
      subject: broadcast.subject,
      bodyHtml: broadcast.bodyHtml,
      sequence: broadcast.sequence,
      active: broadcast.active,
      holdsPlan: holdsProductSql({ id: user.id }, accessProduct).mapWith(Boolean),
      unsubscribedAt: emailPreference.unsubscribedAt,
      undeliverableAt: emailPreference.undeliverableAt,
    })
    .from(broadcast)
    .innerJoin(user, eq(user.id, row.userId ?? ""))
    .leftJoin(emailPreference, eq(emailPreference.userId, user.id))
    .where(eq(broadcast.id, row.broadcastId ?? ""));
  if (!found || found.unsubscribedAt) return { skip: "unsubscribed" };
  if (found.undeliverableAt) return { skip: "undeliverable" };
  // A sequence's step stops for a member refunded since it started, and when switched off.
  if (found.sequence && !found.active) return { skip: "off" };
  if (found.sequence && !found.holdsPlan) return { skip: "no-access" };
  return marketingMessage(context, {
    subject: found.subject,
    bodyHtml: found.bodyHtml,
    userId: row.userId ?? "",
    broadcastId: row.broadcastId,
  });
}

/** The message as a recipient gets it, with the headers and sender of marketing e-mail. */
export function marketingMessage(
  context: MarketingContext,
  input: { subject: string; bodyHtml: string; userId: string; broadcastId: string | null },
): PreparedMessage & { message: MessageContent } {
  const sender = context.sender();
  const token = unsubscribeToken(context.secret, {
    userId: input.userId,
    from: input.broadcastId,
  });
  const { message, headers } = broadcastMessage({
    subject: input.subject,
    bodyHtml: input.bodyHtml,
    token,
    origin: context.origin,
    sender,
  });
  return {
    message,
    headers,
    from: { name: sender.sellerName, address: context.fromAddress },
    replyTo: sender.supportEmail,
  };
}

/** A broadcast's message, made for the owner and sent to their own address now (it is not saved). */
export async function sendTestBroadcast(
  db: Db,
  context: MarketingContext,
  admin: { id: string; email: string },
  input: { subject: string; bodyHtml: string },
): Promise<void> {
  const { message } = marketingMessage(context, { ...input, userId: admin.id, broadcastId: null });
  await enqueueEmail(db, { ...message, subject: `[Test] ${message.subject}`, to: admin.email });
}

/** This process's marketing context: its origin and secret, SMTP_FROM's address, the seller in the offer settings. */
export function marketingContext(env: Env): MarketingContext {
  return {
    origin: env.publicOrigin,
    secret: env.authSecret,
    fromAddress: addressOf(env.smtpFrom),
    sender: () => {
      const { sellerName, sellerAddress, supportEmail } = currentOfferSettings();
      return { sellerName, sellerAddress, supportEmail };
    },
  };
}
