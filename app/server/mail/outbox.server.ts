import { and, asc, eq, isNotNull, isNull, lt, lte, sql } from "drizzle-orm";
import nodemailer, { type SendMailOptions, type Transporter } from "nodemailer";
import type { Db, Tx } from "../db/client.server";
import { emailOutbox } from "../db/schema";
import { logger } from "../logger.server";
import { countEmailDelivery } from "../metrics/metrics.server";
import type { MessageContent } from "./messages.server";
import { markUndeliverable } from "./preferences.server";

export type OutboxMessage = MessageContent & { to: string };
export type OutboxRow = typeof emailOutbox.$inferSelect;

/**
 * Why a marketing message was not sent when its turn came: the account
 * unsubscribed or its address bounced; for a sequence's step, the member no
 * longer holds the plan (refunded) or the owner switched the step off.
 */
export type SkipReason = "unsubscribed" | "undeliverable" | "no-access" | "off";

/** A marketing message made for its recipient when its turn comes, or the reason it is not sent. */
export type PreparedMessage =
  | { skip: SkipReason }
  | {
      message: MessageContent;
      from: SendMailOptions["from"];
      replyTo: string;
      headers: Record<string, string>;
    };

export type MarketingOptions = {
  /** Most marketing messages a pass sends: EMAIL_RATE_PER_MINUTE over the passes of a minute. */
  perPass: number;
  prepare(db: Db | Tx, row: OutboxRow): Promise<PreparedMessage>;
};

/**
 * Puts a message in the outbox; the sender delivers it later. Call it with
 * the transaction of the change that causes the message, so the message
 * exists exactly when the change does (a rollback leaves no e-mail behind).
 */
export async function enqueueEmail(db: Db | Tx, message: OutboxMessage): Promise<string> {
  const [row] = await db
    .insert(emailOutbox)
    .values({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    })
    .returning({ id: emailOutbox.id });
  if (!row) throw new Error("outbox insert returned no row");
  return row.id;
}

/** An SMTP transport for SMTP_URL (smtp://user:pass@host:587 or smtps://...:465). */
export function createSmtpTransport(smtpUrl: string): Transporter {
  return nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
}

export type SendOptions = {
  /** Where messages go; undefined: each message is logged (subject and domain) and marked sent. */
  transport: Transporter | undefined;
  from: string;
  maxAttempts: number;
  /**
   * Claim rows with FOR UPDATE SKIP LOCKED inside a transaction per message,
   * so several server processes on one PostgreSQL never send a message twice.
   * PGlite has one process and one connection: a transaction held across an
   * SMTP conversation would stall every request, so it claims without one.
   */
  lockRows: boolean;
  now?: Date;
  /** Most messages per pass. */
  batchSize?: number;
  /** Delay after the first failure; doubled after each further one, up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Broadcasts' messages: sent after every transactional one due, at a rate; none without. */
  marketing?: MarketingOptions;
};

export type SendReport = { sent: number; failed: number; gaveUp: number; skipped: number };

/** The wait before the next attempt after `attempts` failures: exponential, capped. */
export function retryDelayMs(attempts: number, baseDelayMs = 60_000, maxDelayMs = 6 * 3_600_000) {
  return Math.min(baseDelayMs * 2 ** Math.max(0, attempts - 1), maxDelayMs);
}

/**
 * Delivers the outbox messages that are due. At-least-once: a message is
 * marked sent only after the SMTP server accepted it; a failure counts an
 * attempt, records the error and schedules a retry with exponential backoff,
 * until maxAttempts (then it is logged and left unsent).
 */
export async function sendPendingEmails(db: Db, options: SendOptions): Promise<SendReport> {
  const report: SendReport = { sent: 0, failed: 0, gaveUp: 0, skipped: 0 };
  const passes: [boolean, number][] = [[false, options.batchSize ?? 50]];
  if (options.marketing) passes.push([true, options.marketing.perPass]);
  for (const [marketing, most] of passes) {
    for (let i = 0; i < most; i++) {
      const outcome = options.lockRows
        ? await db.transaction(async (tx) => {
            const row = await claimNext(tx, options, marketing, true);
            return row ? deliver(tx, row, options) : undefined;
          })
        : await claimNext(db, options, marketing, false).then((row) =>
            row ? deliver(db, row, options) : undefined,
          );
      if (!outcome) break;
      report[outcome] += 1;
    }
  }
  return report;
}

/** The next message due: transactional, or a broadcast's (each kind has its own index). */
async function claimNext(
  db: Db | Tx,
  options: SendOptions,
  marketing: boolean,
  lock: boolean,
): Promise<OutboxRow | undefined> {
  const query = db
    .select()
    .from(emailOutbox)
    .where(
      and(
        isNull(emailOutbox.sentAt),
        isNull(emailOutbox.skipped),
        marketing ? isNotNull(emailOutbox.broadcastId) : isNull(emailOutbox.broadcastId),
        lt(emailOutbox.attempts, options.maxAttempts),
        lte(emailOutbox.nextAttemptAt, options.now ?? new Date()),
      ),
    )
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(1);
  const [row] = lock ? await query.for("update", { skipLocked: true }) : await query;
  return row;
}

async function deliver(
  db: Db | Tx,
  row: OutboxRow,
  options: SendOptions,
): Promise<keyof SendReport> {
  const domain = row.to.split("@").pop();
  let mail: SendMailOptions = {
    from: options.from,
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
  };
  if (row.broadcastId) {
    if (!options.marketing) throw new Error("a broadcast's message without marketing options");
    const prepared = await options.marketing.prepare(db, row);
    if ("skip" in prepared) {
      await db
        .update(emailOutbox)
        .set({ skipped: prepared.skip })
        .where(eq(emailOutbox.id, row.id));
      return "skipped";
    }
    const { message, from, replyTo, headers } = prepared;
    mail = { ...mail, ...message, from, replyTo, headers };
  }
  try {
    if (options.transport) {
      await options.transport.sendMail(mail);
    } else {
      // Never the body: it holds sign-in links.
      logger.info({ subject: row.subject, domain }, "e-mail logged, not sent (SMTP_URL unset)");
    }
  } catch (error) {
    const code = (error as { responseCode?: number; code?: string }).responseCode;
    // A permanent refusal (5xx): the address is marked and the message not tried again.
    const permanent = code !== undefined && code >= 500 && code < 600;
    if (permanent) await markUndeliverable(db, row.to, errorText(error));
    const attempts = permanent ? options.maxAttempts : row.attempts + 1;
    const now = options.now ?? new Date();
    const next = new Date(
      now.getTime() + retryDelayMs(attempts, options.baseDelayMs, options.maxDelayMs),
    );
    await db
      .update(emailOutbox)
      .set({ attempts, lastError: errorText(error), nextAttemptAt: next })
      .where(eq(emailOutbox.id, row.id));
    if (attempts >= options.maxAttempts) {
      logger.error({ id: row.id, attempts, domain, code }, "e-mail given up after max attempts");
      countEmailDelivery("gave_up");
      return "gaveUp";
    }
    logger.warn({ id: row.id, attempts, domain, code, next }, "e-mail failed; will retry");
    countEmailDelivery("failed");
    return "failed";
  }
  await db
    .update(emailOutbox)
    // Its body may hold a working link (reset, set-password): not kept once
    // sent. Without SMTP_URL (a local run) nothing left: the row is how to read it.
    .set({
      sentAt: new Date(),
      attempts: row.attempts + 1,
      lastError: null,
      // A broadcast's message is made when sent: kept in its row when logged only.
      ...(options.transport
        ? { text: "", html: "" }
        : { subject: String(mail.subject), text: String(mail.text), html: String(mail.html) }),
    })
    .where(eq(emailOutbox.id, row.id));
  countEmailDelivery("sent");
  return "sent";
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

export type EmailSender = {
  /** Runs a pass now instead of waiting for the next tick. */
  wake(): void;
  /** Stops the loop and waits for the pass in flight; call before closing the database. */
  stop(): Promise<void>;
};

/**
 * Starts the sender loop of this process: a pass every `intervalMs` (and on
 * wake). A pass that throws is logged and the loop goes on.
 */
export function startEmailSender(
  db: Db,
  options: Omit<SendOptions, "now"> & {
    intervalMs?: number;
    /** Runs before each pass (the scheduled broadcasts whose time has come are queued). */
    beforePass?: () => Promise<unknown>;
  },
): EmailSender {
  const intervalMs = options.intervalMs ?? 5_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const pass = () => {
    if (stopped || running) return;
    clearTimeout(timer);
    running = (options.beforePass?.() ?? Promise.resolve())
      .then(() => sendPendingEmails(db, options))
      .then((report) => {
        if (report.sent + report.failed + report.gaveUp + report.skipped > 0) {
          logger.debug(report, "e-mail pass");
        }
      })
      .catch((error: unknown) => logger.error({ err: error }, "e-mail pass failed"))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(pass, intervalMs);
      });
  };
  timer = setTimeout(pass, 0);

  return {
    wake: pass,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      options.transport?.close();
    },
  };
}

/**
 * Messages not sent yet: those still to be tried (due or waiting for their
 * next attempt), and those given up on after `maxAttempts`. One query.
 */
export async function outboxDepth(
  db: Db,
  maxAttempts: number,
): Promise<{ pending: number; givenUp: number }> {
  const [row] = await db
    .select({
      pending:
        sql<number>`count(*) filter (where ${emailOutbox.attempts} < ${maxAttempts})`.mapWith(
          Number,
        ),
      givenUp:
        sql<number>`count(*) filter (where ${emailOutbox.attempts} >= ${maxAttempts})`.mapWith(
          Number,
        ),
    })
    .from(emailOutbox)
    .where(and(isNull(emailOutbox.sentAt), isNull(emailOutbox.skipped)));
  return { pending: row?.pending ?? 0, givenUp: row?.givenUp ?? 0 };
}
