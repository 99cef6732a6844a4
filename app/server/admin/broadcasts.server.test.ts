import { randomUUID } from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audienceSchema } from "~/lib/admin-forms";
import { createTestApp } from "~/test/app-handler";
import { appRequest, createUser, origin, type TestUser } from "~/test/helpers";
import { startTestSmtpServer, type TestSmtpServer } from "~/test/smtp";
import { cliActor } from "../audit-log.server";
import { getDb } from "../db/db.server";
import { broadcast, emailOutbox, user } from "../db/schema";
import { getEnv } from "../env.server";
import {
  createSmtpTransport,
  enqueueEmail,
  type SendOptions,
  sendPendingEmails,
} from "../mail/outbox.server";
import {
  clearUndeliverable,
  readEmailPreference,
  setMarketingEmail,
  unsubscribeToken,
} from "../mail/preferences.server";
import {
  countAudience,
  createBroadcast,
  listBroadcasts,
  marketingContext,
  prepareBroadcastMessage,
  queueDueBroadcasts,
} from "./broadcasts.server";

const { app } = await createTestApp();
let smtp: TestSmtpServer;
let options: SendOptions;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  const context = marketingContext(getEnv());
  options = {
    transport: createSmtpTransport(smtp.url),
    from: getEnv().smtpFrom,
    maxAttempts: 3,
    lockRows: true,
    batchSize: 1000,
    marketing: {
      perPass: 1000,
      prepare: (db, row) => prepareBroadcastMessage(db, row, context),
    },
  };
});

afterAll(async () => {
  options.transport?.close();
  await smtp.close();
});

/** Members named with one tag, so that an audience searching for it holds them only. */
async function classOf(tag: string, paid: boolean[]): Promise<TestUser[]> {
  // One at a time: the server hashes one password at a time and turns more away busy.
  const members: TestUser[] = [];
  for (const [i, p] of paid.entries())
    members.push(await createUser({ name: `${tag} ${i}`, paid: p }));
  await sendAll(); // their receipts
  return members;
}

/** The marketing messages an address received (receipts and the like have no List-Unsubscribe). */
const broadcastsTo = (address: string | undefined) =>
  smtp.to(address ?? "").filter((r) => headerOf(r.mail, "list-unsubscribe") !== undefined);

/** A header as it was sent (mailparser folds the List-* headers into one parsed value). */
function headerOf(mail: ParsedMail | undefined, name: string): string | undefined {
  const line = mail?.headerLines.find((h) => h.key === name)?.line;
  return line?.slice(line.indexOf(":") + 1).trim();
}

const body = '<p>Chapter 4 is out: <a href="/dashboard">open it</a>.</p>';

async function sendAll(extra: Partial<SendOptions> = {}) {
  // Other test files may queue mail on a shared database: send until nothing of ours is left.
  const db = await getDb();
  for (let i = 0; i < 20; i++) {
    const report = await sendPendingEmails(db, { ...options, ...extra });
    if (report.sent + report.failed + report.gaveUp + report.skipped === 0) return;
  }
}

describe("broadcasts", () => {
  it("go to the members a filter matches, with one-click unsubscribe headers, the seller and absolute links", async () => {
    const tag = `bc${randomUUID().slice(0, 8)}`;
    const [a, b, c] = await classOf(tag, [true, true, false]);
    const db = await getDb();
    const audience = { q: tag, product: "lifetime-access" as const };
    const parsed = audienceSchema.parse(audience);
    expect(await countAudience(db, parsed)).toEqual({ recipients: 2, leftOut: 0 });

    const sent = await createBroadcast(db, cliActor(), {
      subject: "Chapter 4",
      bodyHtml: body,
      audience: parsed,
      scheduledFor: null,
    });
    expect(sent.recipients).toBe(2);
    await sendAll();

    expect(broadcastsTo(c?.email)).toHaveLength(0);
    const [received] = broadcastsTo(a?.email);
    expect(broadcastsTo(b?.email)).toHaveLength(1);
    const mail = received?.mail;
    expect(mail?.subject).toBe("Chapter 4");
    const unsubscribe = String(headerOf(mail, "list-unsubscribe"));
    expect(unsubscribe).toMatch(new RegExp(`^<${origin}/email/unsubscribe\\?token=[^>]+>$`));
    expect(headerOf(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(mail?.from?.value[0]?.name).toBe("AI Labs");
    expect(mail?.replyTo?.value[0]?.address).toBeTruthy();
    expect(mail?.html).toContain(`href="${origin}/dashboard"`);
    expect(mail?.html).toContain(`${origin}/email/preferences?token=`);
    expect(mail?.text).toContain(`open it (${origin}/dashboard)`);
    expect(mail?.text).toContain("Unsubscribe or change your e-mail preferences:");

    // The mail client's one-click POST: no cookie, no Origin, the token in the address.
    const url = unsubscribe.slice(1, -1);
    const oneClick = await app.fetch(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }),
    );
    expect(oneClick.status).toBe(200);
    expect((await readEmailPreference(db, a?.id ?? ""))?.unsubscribedAt).toBeInstanceOf(Date);

    // The next broadcast leaves them out; the first counts the unsubscribe.
    expect(await countAudience(db, parsed)).toEqual({ recipients: 1, leftOut: 1 });
    const next = await createBroadcast(db, cliActor(), {
      subject: "Chapter 5",
      bodyHtml: body,
      audience: parsed,
      scheduledFor: null,
    });
    expect(next.recipients).toBe(1);
    await sendAll();
    expect(broadcastsTo(a?.email).map((r) => r.mail.subject)).toEqual(["Chapter 4"]);
    expect(broadcastsTo(b?.email).map((r) => r.mail.subject)).toEqual(["Chapter 4", "Chapter 5"]);
    const figures = (await listBroadcasts(db, 3)).find((f) => f.id === sent.id);
    expect(figures).toMatchObject({
      recipients: 2,
      sent: 2,
      failed: 0,
      skipped: 0,
      unsubscribed: 1,
    });
  });

  it("skip a recipient who unsubscribed after it was queued, and refuse a forged token", async () => {
    const tag = `bc${randomUUID().slice(0, 8)}`;
    const [a, b] = await classOf(tag, [true, true]);
    const db = await getDb();
    const audience = audienceSchema.parse({ q: tag });
    const queued = await createBroadcast(db, cliActor(), {
      subject: "Welcome week",
      bodyHtml: body,
      audience,
      scheduledFor: null,
    });
    await setMarketingEmail(db, { userId: b?.id ?? "", from: null }, false);
    await sendAll();
    expect(broadcastsTo(a?.email)).toHaveLength(1);
    expect(broadcastsTo(b?.email)).toHaveLength(0);
    const figures = (await listBroadcasts(db, 3)).find((f) => f.id === queued.id);
    expect(figures).toMatchObject({ recipients: 2, sent: 1, skipped: 1 });

    const forged = `${unsubscribeToken("another-secret-another-secret-0123", { userId: a?.id ?? "", from: null })}`;
    const refused = await app.fetch(
      new Request(`${origin}/email/unsubscribe?token=${encodeURIComponent(forged)}`, {
        method: "POST",
      }),
    );
    expect(refused.status).toBe(400);
    expect((await readEmailPreference(db, a?.id ?? ""))?.unsubscribedAt).toBeNull();
  });

  it("are queued when their time comes, not before", async () => {
    const tag = `bc${randomUUID().slice(0, 8)}`;
    const [a] = await classOf(tag, [true]);
    const db = await getDb();
    const audience = audienceSchema.parse({ q: tag });
    const now = new Date();
    const inAnHour = new Date(now.getTime() + 3_600_000);
    const scheduled = await createBroadcast(db, cliActor(), {
      subject: "Live call tonight",
      bodyHtml: body,
      audience,
      scheduledFor: inAnHour,
    });
    expect(scheduled.recipients).toBeNull();
    await queueDueBroadcasts(db, now);
    await sendAll();
    expect(broadcastsTo(a?.email)).toHaveLength(0);
    const [before] = await db.select().from(broadcast).where(eq(broadcast.id, scheduled.id));
    expect(before?.queuedAt).toBeNull();

    await queueDueBroadcasts(db, new Date(inAnHour.getTime() + 1000));
    const [after] = await db.select().from(broadcast).where(eq(broadcast.id, scheduled.id));
    expect(after?.recipients).toBe(1);
    await sendAll();
    expect(broadcastsTo(a?.email).map((r) => r.mail.subject)).toEqual(["Live call tonight"]);
  });

  it("mark an address the SMTP server refuses for good (5xx), leave it out until cleared", async () => {
    const tag = `bc${randomUUID().slice(0, 8)}`;
    const [a] = await classOf(tag, [true]);
    const db = await getDb();
    const address = a?.email ?? "";
    const audience = audienceSchema.parse({ q: tag });
    smtp.rejectNext(address, 1, 550);
    const first = await createBroadcast(db, cliActor(), {
      subject: "Bounce",
      bodyHtml: body,
      audience,
      scheduledFor: null,
    });
    await sendAll();
    const preference = await readEmailPreference(db, a?.id ?? "");
    expect(preference?.undeliverableAt).toBeInstanceOf(Date);
    expect(preference?.undeliverableReason).toContain("No such mailbox");
    // Not tried again: a permanent refusal gives up at once.
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.broadcastId, first.id));
    expect(row?.attempts).toBe(3);
    expect(row?.sentAt).toBeNull();
    expect((await listBroadcasts(db, 3)).find((f) => f.id === first.id)?.failed).toBe(1);
    expect(await countAudience(db, audience)).toEqual({ recipients: 0, leftOut: 1 });
    // Transactional mail still goes to it.
    await enqueueEmail(db, { to: address, subject: "Your receipt", text: "t", html: "<p>t</p>" });
    await sendAll();
    expect(smtp.to(address).map((r) => r.mail.subject)).toContain("Your receipt");

    await clearUndeliverable(db, a?.id ?? "");
    expect(await countAudience(db, audience)).toEqual({ recipients: 1, leftOut: 0 });
  });

  it("send transactional mail first, and at most the rate's share of marketing a pass", async () => {
    const tag = `bc${randomUUID().slice(0, 8)}`;
    const members = await classOf(tag, [true, true, true]);
    const db = await getDb();
    const audience = audienceSchema.parse({ q: tag });
    const queued = await createBroadcast(db, cliActor(), {
      subject: "Rate",
      bodyHtml: body,
      audience,
      scheduledFor: null,
    });
    const receipt = `receipt-${randomUUID()}@example.test`;
    await enqueueEmail(db, { to: receipt, subject: "Receipt", text: "t", html: "<p>t</p>" });
    const slow = {
      marketing: { ...(options.marketing as NonNullable<SendOptions["marketing"]>), perPass: 1 },
    };
    await sendPendingEmails(db, { ...options, ...slow });
    expect(smtp.to(receipt)).toHaveLength(1);
    const sentRows = await db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.broadcastId, queued.id), isNotNull(emailOutbox.sentAt)));
    expect(sentRows).toHaveLength(1);
    await sendAll();
    for (const m of members) expect(broadcastsTo(m.email)).toHaveLength(1);
  });

  it("reach the members never seen, by the members list's filter", async () => {
    const db = await getDb();
    const tag = `bc${randomUUID().slice(0, 8)}`;
    const [seen] = await classOf(tag, [false]);
    const id = randomUUID();
    await db.insert(user).values({ id, name: `${tag} never`, email: `${tag}-never@example.test` });
    expect(await countAudience(db, audienceSchema.parse({ q: tag }))).toEqual({
      recipients: 2,
      leftOut: 0,
    });
    expect(await countAudience(db, audienceSchema.parse({ q: tag, seen: "never" }))).toEqual({
      recipients: 1,
      leftOut: 0,
    });
    expect(seen).toBeDefined();
  });
});

describe("the e-mail preferences page", () => {
  it("shows the account's choice by its signed link and changes it without signing in", async () => {
    const member = await createUser({ paid: true });
    const token = unsubscribeToken(getEnv().authSecret, { userId: member.id, from: null });
    const page = await app.fetch(
      appRequest(`/email/preferences?token=${encodeURIComponent(token)}`),
    );
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(member.email);
    expect(html).toContain("Unsubscribe");

    const posted = await app.fetch(
      appRequest(`/email/preferences?token=${encodeURIComponent(token)}`, {
        form: { token, intent: "unsubscribe" },
      }),
    );
    expect(posted.status).toBe(302);
    const db = await getDb();
    expect((await readEmailPreference(db, member.id))?.unsubscribedAt).toBeInstanceOf(Date);
    await app.fetch(
      appRequest(`/email/preferences?token=${encodeURIComponent(token)}`, {
        form: { token, intent: "subscribe" },
      }),
    );
    expect((await readEmailPreference(db, member.id))?.unsubscribedAt).toBeNull();

    const bad = await app.fetch(appRequest("/email/preferences?token=nonsense"));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("This link is not valid.");
  });
});
