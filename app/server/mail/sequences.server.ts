// Sequences: messages sent to one member some days after something happened
// to them (the welcome sequence: after a purchase of the plan). Each step is
// a `broadcast` row naming its sequence and day; starting a sequence queues
// a marketing outbox row per active step, due on its day, in one statement
// and in the transaction of what started it. The sender makes each message
// when it is due and skips it when the member has unsubscribed, bounced or
// lost the plan (refunded) by then.

import { sql } from "drizzle-orm";
import { type Db, rowsOf, type Tx } from "../db/client.server";
import { broadcast, emailOutbox, user } from "../db/schema";
import { takesMarketingSql } from "./preferences.server";

/** Sequences the product runs, by the event that starts them. */
export type SequenceName = "welcome";

/**
 * Queues every active step of `sequence` for one account, each due
 * `sequence_day` days after `startedAt`. Nothing for an account that takes
 * no marketing e-mail. Returns the steps queued.
 */
export async function startSequence(
  tx: Db | Tx,
  userId: string,
  sequence: SequenceName,
  startedAt: Date,
): Promise<number> {
  const rows = await rowsOf(
    tx,
    sql`insert into ${emailOutbox} (${sql.raw('"to", subject, text, html, broadcast_id, user_id, next_attempt_at')})
    select u.email, '', '', '', b.id, u.id, ${startedAt.toISOString()}::timestamptz + b.sequence_day * interval '1 day'
    from ${broadcast} b cross join ${user} u
    where b.sequence = ${sequence} and b.active and u.id = ${userId} and ${takesMarketingSql("u")}
    returning 1`,
  );
  return rows.length;
}
