import { randomUUID } from "node:crypto";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audienceSchema } from "~/lib/admin-forms";
import { createTestApp } from "~/test/app-handler";
import { appRequest, createUser, origin, type TestUser } from "~/test/helpers";
import { startTestSmtpServer, type TestSmtpServer } from "~/test/smtp";
import { cliActor } from "../audit-log.server";
import { createChapter, createCourse } from "../courses/authoring.server";
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
import { fulfilPurchase, revokeUserAccess } from "../payments/purchases.server";
import {
  announceChapter,
  countAudience,
  createBroadcast,
  listBroadcasts,
  listSequence,
  marketingContext,
  prepareBroadcastMessage,
  queueDueBroadcasts,
  updateSequenceStep,
} from "./broadcasts.server";

const { app } = await createTestApp();
let smtp: TestSmtpServer;
let options: SendOptions;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  const steps = await (await getDb())
    .select({ subject: broadcast.subject })
    .from(broadcast)
    .where(isNotNull(broadcast.sequence));
  welcomeSubjects = new Set(steps.map((s) => s.subject));
  const context = marketingContext(getEnv());
  options = {
    transport: createSmtpTransport(smtp.url),
    from: getEnv().smtpFrom,
    maxAttempts: 3,
    lockRows: true,
    // Marketing messages only: on a shared PostgreSQL database the other test files'
    // transactional mail is theirs to send (to their own SMTP servers).
    batchSize: 0,
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
  return members;
}

/** The marketing messages an address received (receipts and the like have no List-Unsubscribe). */
const broadcastsTo = (address: string | undefined) =>
  smtp
    .to(address ?? "")
    .filter((r) => headerOf(r.mail, "list-unsubscribe") !== undefined)
    .filter((r) => !welcomeSubjects.has(r.mail.subject ?? ""));

/** The welcome sequence's subjects: a paid member gets its day-0 step too. */
let welcomeSubjects = new Set<string>();

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
    // Not a buyer: no welcome e-mail goes to the address before the broadcast.
    const [a] = await classOf(tag, [false]);
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
    await expect
      .poll(async () => {
        await sendAll({ batchSize: 1000 });
        return smtp.to(address).map((r) => r.mail.subject);
      })
      .toContain("Your receipt");

    await clearUndeliverable(db, a?.id ?? "");
    expect(await countAudience(db, audience)).toEqual({ recipients: 1, leftOut: 0 });
  });

  it("send transactional mail first, and at most the rate's share of marketing a pass", async () => {
    const tag = `bc${randomUUID().slice(0, 8)}`;
    const members = await classOf(tag, [true, true, true]);
    const db = await getDb();
    const audience = audienceSchema.parse({ q: tag });
    await createBroadcast(db, cliActor(), {
      subject: "Rate",
      bodyHtml: body,
      audience,
      scheduledFor: null,
    });
    const receipt = `receipt-${randomUUID()}@example.test`;
    await enqueueEmail(db, { to: receipt, subject: "Receipt", text: "t", html: "<p>t</p>" });
    const marketing = options.marketing as NonNullable<SendOptions["marketing"]>;
    // A pass sends at most its share of marketing mail, however much is due.
    const pass = await sendPendingEmails(db, {
      ...options,
      marketing: { ...marketing, perPass: 1 },
    });
    expect(pass.sent + pass.skipped + pass.failed).toBe(1);
    // Transactional mail is not held by that share: a pass with none left for marketing sends it.
    await expect
      .poll(async () => {
        await sendPendingEmails(db, {
          ...options,
          batchSize: 1000,
          marketing: { ...marketing, perPass: 0 },
        });
        return smtp.to(receipt).length;
      })
      .toBe(1);
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

  it("announce a chapter to the members who can open its course, with a link to it", async () => {
    const db = await getDb();
    const tag = `bc${randomUUID().slice(0, 8)}`;
    const [member, free] = await classOf(tag, [true, false]);
    const { id: courseId } = await createCourse(db, { title: `${tag} course`, description: "" });
    const created = await createChapter(db, {
      courseId,
      title: "Pricing",
      contentHtml: "<p>x</p>",
    });
    const chapterId = created?.id ?? "";
    expect(await countAudience(db, audienceSchema.parse({ q: tag, opens: courseId }))).toEqual({
      recipients: 1,
      leftOut: 0,
    });

    const announced = await announceChapter(db, cliActor(), chapterId);
    expect(announced.kind).toBe("queued");
    expect(await announceChapter(db, cliActor(), chapterId)).toEqual({ kind: "already" });
    await sendAll();
    const [mail] = broadcastsTo(member?.email).map((r) => r.mail);
    expect(mail?.subject).toBe("New chapter: Pricing");
    expect(mail?.html).toContain(`href="${origin}/course/${courseId}?chapter=${chapterId}"`);
    expect(mail?.text).toContain(`A new chapter of ${tag} course is out: Pricing.`);
    expect(broadcastsTo(free?.email)).toEqual([]);
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

const day = 86_400_000;

/** Sends everything due at `now`, until nothing is left (other files may queue mail meanwhile). */
async function sendDueAt(now: Date) {
  const db = await getDb();
  for (let i = 0; i < 20; i++) {
    const r = await sendPendingEmails(db, { ...options, now });
    if (r.sent + r.failed + r.gaveUp + r.skipped === 0) return;
  }
}

async function welcomeSteps() {
  return (await getDb())
    .select()
    .from(broadcast)
    .where(eq(broadcast.sequence, "welcome"))
    .orderBy(asc(broadcast.sequenceDay));
}

const subjectsTo = (address: string) => smtp.to(address).map((r) => r.mail.subject);

describe("the welcome sequence", () => {
  it("ships with four steps, days 0, 1, 3 and 7, each linking to the course", async () => {
    const steps = await welcomeSteps();
    expect(steps.map((s) => s.sequenceDay)).toEqual([0, 1, 3, 7]);
    expect(steps.every((s) => s.active)).toBe(true);
    // The first three open the demo course's chapters in order.
    const links = steps.map((s) => /href="([^"]+)"/.exec(s.bodyHtml)?.[1]);
    expect(links.slice(0, 3).every((l) => l?.startsWith("/course/"))).toBe(true);
    expect(new Set(links.slice(0, 3)).size).toBe(3);
  });

  it("starts with a purchase of the plan and sends each step on its day", async () => {
    const steps = await welcomeSteps();
    const started = Date.now();
    const member = await createUser({ paid: true });
    const db = await getDb();
    const queued = await db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.userId, member.id))
      .orderBy(asc(emailOutbox.nextAttemptAt));
    expect(queued).toHaveLength(4);
    queued.forEach((row, i) => {
      const due = row.nextAttemptAt.getTime() - started;
      expect(Math.round(due / day)).toBe(steps[i]?.sequenceDay);
    });

    await sendDueAt(new Date(started + 3 * day + 60_000));
    const subjects = subjectsTo(member.email);
    expect(subjects).toContain(steps[0]?.subject);
    expect(subjects).toContain(steps[1]?.subject);
    expect(subjects).toContain(steps[2]?.subject);
    expect(subjects).not.toContain(steps[3]?.subject);
    const day3 = smtp.to(member.email).find((r) => r.mail.subject === steps[2]?.subject);
    expect(day3?.mail.html).toMatch(/href="http[^"]+\/course\/[^"]+\?chapter=/);
    expect(day3?.mail.headerLines.some((h) => h.key === "list-unsubscribe")).toBe(true);

    await sendDueAt(new Date(started + 7 * day + 60_000));
    expect(subjectsTo(member.email)).toContain(steps[3]?.subject);
  });

  it("stops for a member refunded or unsubscribed, and never starts for one who opted out", async () => {
    const steps = await welcomeSteps();
    const started = Date.now();
    const db = await getDb();
    const refunded = await createUser({ paid: true });
    await sendDueAt(new Date(started + 60_000));
    expect(subjectsTo(refunded.email)).toContain(steps[0]?.subject);
    await revokeUserAccess(db, [refunded.id]);
    await sendDueAt(new Date(started + 8 * day));
    expect(subjectsTo(refunded.email)).not.toContain(steps[1]?.subject);
    const skipped = await db
      .select({ skipped: emailOutbox.skipped })
      .from(emailOutbox)
      .where(eq(emailOutbox.userId, refunded.id));
    expect(skipped.filter((r) => r.skipped === "no-access")).toHaveLength(3);

    const leaving = await createUser({ paid: true });
    await setMarketingEmail(db, { userId: leaving.id, from: null }, false);
    await sendDueAt(new Date(started + 8 * day));
    expect(subjectsTo(leaving.email).filter((s) => steps.some((st) => st.subject === s))).toEqual(
      [],
    );

    const optedOut = await createUser();
    await setMarketingEmail(db, { userId: optedOut.id, from: null }, false);
    await fulfilPurchase(db, {
      userId: optedOut.id,
      provider: "test",
      providerRef: randomUUID(),
      product: "lifetime-access",
      amountCents: 2500,
      currency: "usd",
    });
    const rows = await db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, optedOut.id)));
    expect(rows).toHaveLength(0);
  });

  it("sends a step as the owner last wrote it, and not at all once switched off", async () => {
    const db = await getDb();
    const before = await listSequence(db, 3, "welcome");
    const day1 = before.find((s) => s.day === 1);
    if (!day1) throw new Error("no day-1 step");
    const started = Date.now();
    const member = await createUser({ paid: true });
    const subject = `Day 1, rewritten ${randomUUID().slice(0, 6)}`;
    try {
      await updateSequenceStep(db, cliActor(), {
        id: day1.id,
        day: 1,
        subject,
        bodyHtml: "<p>Rewritten.</p>",
        active: true,
      });
      await sendDueAt(new Date(started + day + 60_000));
      expect(subjectsTo(member.email)).toContain(subject);

      const other = await createUser({ paid: true });
      await updateSequenceStep(db, cliActor(), { ...day1, id: day1.id, active: false });
      await sendDueAt(new Date(started + day + 60_000));
      expect(subjectsTo(other.email)).not.toContain(day1.subject);
      const after = await listSequence(db, 3, "welcome");
      expect(after.find((s) => s.id === day1.id)?.skipped).toBeGreaterThanOrEqual(1);
    } finally {
      await updateSequenceStep(db, cliActor(), {
        id: day1.id,
        day: 1,
        subject: day1.subject,
        bodyHtml: day1.bodyHtml,
        active: true,
      });
    }
  });
});
