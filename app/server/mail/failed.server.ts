// Failed e-mail, for the operator CLI (`mail failed`, `mail retry`): what the
// outbox could not send, and sending it again from now.

import { and, asc, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { emailIs } from "../db/email-match.server";
import { emailOutbox } from "../db/schema";

export type FailedMail = {
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
};

/** Unsent outbox messages with at least one failed attempt, oldest first: one query. */
export async function listFailedMail(db: Db): Promise<FailedMail[]> {
  return db
    .select({
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      attempts: emailOutbox.attempts,
      lastError: emailOutbox.lastError,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(and(isNull(emailOutbox.sentAt), gt(emailOutbox.attempts, 0)))
    .orderBy(asc(emailOutbox.createdAt));
}

/**
 * Failed, unsent messages (to `email`, or all when null) start over: no
 * attempts counted, due now. The server's sender picks them up on its next pass.
 */
export async function retryFailedMail(db: Db, email: string | null): Promise<number> {
  const rows = await db
    .update(emailOutbox)
    .set({ attempts: 0, nextAttemptAt: sql`now()`, lastError: null })
    .where(
      and(
        isNull(emailOutbox.sentAt),
        gt(emailOutbox.attempts, 0),
        email === null ? undefined : emailIs(emailOutbox.to, email),
      ),
    )
    .returning({ id: emailOutbox.id });
  return rows.length;
}
