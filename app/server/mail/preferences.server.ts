// Whether an account takes marketing e-mail (broadcasts): the signed link in
// every such message (no sign-in needed), the one-click unsubscribe of
// RFC 8058, and the addresses the SMTP server refused for good. Receipts,
// password and login e-mails are sent whatever these say.

import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { type Db, rowsOf, type Tx } from "../db/client.server";
import { emailPreference, user } from "../db/schema";

/** An unsubscribe link's account, and the broadcast it came in (null: none). */
export type UnsubscribeClaim = { userId: string; from: string | null };

const b64 = (value: string | Buffer) => Buffer.from(value).toString("base64url");

function signature(secret: string, payload: string): Buffer {
  return createHmac("sha256", secret).update(`email-preferences:${payload}`).digest();
}

/** The token of an account's preferences link: its id and the broadcast, signed; it never expires. */
export function unsubscribeToken(secret: string, claim: UnsubscribeClaim): string {
  const payload = `${claim.userId}:${claim.from ?? ""}`;
  return `${b64(payload)}.${b64(signature(secret, payload))}`;
}

/** The claim of a token this server signed; null for anything else. */
export function readUnsubscribeToken(secret: string, token: string): UnsubscribeClaim | null {
  const [encoded, signed, extra] = token.split(".");
  if (!encoded || !signed || extra !== undefined) return null;
  const payload = Buffer.from(encoded, "base64url").toString("utf8");
  const given = Buffer.from(signed, "base64url");
  const expected = signature(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const cut = payload.lastIndexOf(":");
  if (cut <= 0) return null;
  return { userId: payload.slice(0, cut), from: payload.slice(cut + 1) || null };
}

/** The page where a member changes their choice, without signing in. */
export const preferencesUrl = (origin: string, token: string) =>
  `${origin}/email/preferences?token=${encodeURIComponent(token)}`;

/** The List-Unsubscribe address a mail client POSTs to (RFC 8058). */
export const oneClickUrl = (origin: string, token: string) =>
  `${origin}/email/unsubscribe?token=${encodeURIComponent(token)}`;

export type EmailPreference = {
  email: string;
  unsubscribedAt: Date | null;
  undeliverableAt: Date | null;
  undeliverableReason: string | null;
};

/** An account's address and its marketing state; null: no such account. */
export async function readEmailPreference(
  db: Db | Tx,
  userId: string,
): Promise<EmailPreference | null> {
  const [row] = await db
    .select({
      email: user.email,
      unsubscribedAt: emailPreference.unsubscribedAt,
      undeliverableAt: emailPreference.undeliverableAt,
      undeliverableReason: emailPreference.undeliverableReason,
    })
    .from(user)
    .leftJoin(emailPreference, eq(emailPreference.userId, user.id))
    .where(eq(user.id, userId));
  return row ?? null;
}

/**
 * Unsubscribes an account from marketing e-mail (or subscribes it again).
 * Unsubscribing twice keeps the first time and broadcast. False: no such account.
 */
export async function setMarketingEmail(
  db: Db | Tx,
  claim: UnsubscribeClaim,
  subscribed: boolean,
): Promise<boolean> {
  const keep = (column: string) =>
    sql.raw(
      `case when email_preference.unsubscribed_at is null then excluded.${column} else email_preference.${column} end`,
    );
  const rows = await rowsOf(
    db,
    sql`insert into ${emailPreference} (user_id, unsubscribed_at, unsubscribed_from)
    select u.id, ${subscribed ? null : sql`now()`}, ${subscribed ? null : claim.from}::uuid
    from ${user} u where u.id = ${claim.userId}
    on conflict (user_id) do update set
      unsubscribed_at = ${subscribed ? sql`null` : keep("unsubscribed_at")},
      unsubscribed_from = ${subscribed ? sql`null` : keep("unsubscribed_from")},
      updated_at = now()
    returning user_id`,
  );
  return rows.length > 0;
}

/**
 * The SMTP server refused `address` for good (a 5xx answer): no more
 * marketing e-mail to the account that has it, until the owner clears it.
 */
export async function markUndeliverable(db: Db | Tx, address: string, reason: string) {
  await db.execute(sql`
    insert into ${emailPreference} (user_id, undeliverable_at, undeliverable_reason)
    select u.id, now(), ${reason.slice(0, 300)} from ${user} u where u.email = ${address.toLowerCase()}
    on conflict (user_id) do update set undeliverable_at = now(),
      undeliverable_reason = excluded.undeliverable_reason, updated_at = now()`);
}

/** The owner cleared an undeliverable address: marketing e-mail goes to it again. */
export async function clearUndeliverable(db: Db | Tx, userId: string) {
  await db
    .update(emailPreference)
    .set({ undeliverableAt: null, undeliverableReason: null, updatedAt: new Date() })
    .where(eq(emailPreference.userId, userId));
}

/** Whether an account takes marketing e-mail now, as SQL on the user row `u`. */
export function takesMarketingSql(u: string) {
  return sql`not exists (select 1 from ${emailPreference} ep where ep.user_id = ${sql.raw(u)}.id
    and (ep.unsubscribed_at is not null or ep.undeliverable_at is not null))`;
}
