import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { uniqueEmail } from "~/test/helpers";
import { startTestSmtpServer, type TestSmtpServer } from "~/test/smtp";
import { getDb } from "../db/db.server";
import { emailOutbox } from "../db/schema";
import { loadEnv } from "../env.server";
import { passwordResetMessage, purchaseReceiptMessage } from "./messages.server";
import {
  createSmtpTransport,
  enqueueEmail,
  retryDelayMs,
  type SendOptions,
  sendPendingEmails,
  startEmailSender,
} from "./outbox.server";

let smtp: TestSmtpServer;
let options: SendOptions;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  options = {
    transport: createSmtpTransport(smtp.url),
    from: loadEnv({ BETTER_AUTH_SECRET: "x".repeat(32) }).smtpFrom,
    maxAttempts: 3,
    lockRows: true,
    batchSize: 1000,
  };
});

afterAll(async () => {
  options.transport?.close();
  await smtp.close();
});

async function rowFor(to: string) {
  const db = await getDb();
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, to));
  return row;
}

function message(to: string) {
  return { to, subject: "Hello", text: "Plain body", html: "<p>HTML body</p>" };
}

describe("the e-mail sender", () => {
  it.each([true, false])(
    "delivers an outbox message over SMTP and marks it sent (row locks: %s)",
    async (lockRows) => {
      const to = uniqueEmail("mail");
      await enqueueEmail(await getDb(), message(to));
      // On a shared PostgreSQL database other test files enqueue mail at the same time, so
      // the batch may hold their rows first: send until ours has arrived.
      await expect
        .poll(
          async () => {
            await sendPendingEmails(await getDb(), { ...options, lockRows });
            return smtp.to(to).length;
          },
          { timeout: 30_000 },
        )
        .toBe(1);
      expect((await rowFor(to))?.sentAt).toBeInstanceOf(Date);
      const [arrived] = smtp.to(to);
      expect(arrived?.mail.subject).toBe("Hello");
      expect(arrived?.mail.text?.trim()).toBe("Plain body");
      expect(arrived?.mail.html).toContain("<p>HTML body</p>");
      expect(arrived?.mail.from?.text).toBe(`"${site.brand}" <${site.supportEmail}>`);
      const row = await rowFor(to);
      expect(row?.sentAt).toBeInstanceOf(Date);
      expect(row?.attempts).toBe(1);
      // Sent: the body (which may hold a working link) is not kept; who and what stay.
      expect(row).toMatchObject({ to, subject: "Hello", text: "", html: "" });
      // Sent once: a second pass does not send it again.
      await sendPendingEmails(await getDb(), options);
      expect(smtp.to(to)).toHaveLength(1);
    },
  );

  it("retries after a refusal, no sooner than the backoff, and records the error", async () => {
    const to = uniqueEmail("retry");
    smtp.rejectNext(to);
    await enqueueEmail(await getDb(), message(to));
    // The row is due from the database's now(), which has microseconds; a JavaScript Date
    // taken within the same millisecond would fall before it. Send from a second later.
    const start = new Date(Date.now() + 1000);
    await sendPendingEmails(await getDb(), { ...options, now: start });
    expect(smtp.to(to)).toHaveLength(0);
    const failed = await rowFor(to);
    expect(failed?.sentAt).toBeNull();
    expect(failed?.attempts).toBe(1);
    expect(failed?.lastError).toMatch(/451|Try again later/);
    expect(failed?.nextAttemptAt.getTime()).toBe(start.getTime() + retryDelayMs(1));

    await sendPendingEmails(await getDb(), {
      ...options,
      now: new Date(start.getTime() + retryDelayMs(1) - 1000),
    });
    expect(smtp.to(to)).toHaveLength(0);

    await sendPendingEmails(await getDb(), {
      ...options,
      now: new Date(start.getTime() + retryDelayMs(1)),
    });
    expect(smtp.to(to)).toHaveLength(1);
    const sent = await rowFor(to);
    expect(sent?.sentAt).toBeInstanceOf(Date);
    expect(sent?.attempts).toBe(2);
    expect(sent?.lastError).toBeNull();
  });

  it("doubles the wait after each failure and gives up after the max attempts", async () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(30)).toBe(6 * 3_600_000);
    const to = uniqueEmail("giveup");
    smtp.rejectNext(to, 10);
    await enqueueEmail(await getDb(), message(to));
    let now = Date.now() + 1000;
    let gaveUp = 0;
    for (let i = 0; i < 5; i++) {
      const report = await sendPendingEmails(await getDb(), { ...options, now: new Date(now) });
      gaveUp += report.gaveUp;
      now += retryDelayMs(8);
    }
    expect(gaveUp).toBe(1);
    const row = await rowFor(to);
    expect(row?.attempts).toBe(options.maxAttempts);
    expect(row?.sentAt).toBeNull();
    expect(smtp.to(to)).toHaveLength(0);
  });

  it("sends nothing for a change that rolled back: no outbox row, no message", async () => {
    const to = uniqueEmail("rollback");
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        await enqueueEmail(tx, message(to));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await rowFor(to)).toBeUndefined();
    await sendPendingEmails(db, options);
    expect(smtp.to(to)).toHaveLength(0);
  });

  it("two senders in parallel deliver each message once", async () => {
    const recipients = Array.from({ length: 6 }, () => uniqueEmail("parallel"));
    const db = await getDb();
    for (const to of recipients) await enqueueEmail(db, message(to));
    await Promise.all([sendPendingEmails(db, options), sendPendingEmails(db, options)]);
    for (const to of recipients) expect(smtp.to(to)).toHaveLength(1);
  });

  it("without SMTP marks the message sent and delivers nothing", async () => {
    const to = uniqueEmail("nosmtp");
    await enqueueEmail(await getDb(), message(to));
    // Another file's sender may hold the row for a moment (shared PostgreSQL): until ours is done.
    await expect
      .poll(
        async () => {
          await sendPendingEmails(await getDb(), { ...options, transport: undefined });
          return (await rowFor(to))?.sentAt instanceof Date;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(smtp.to(to)).toHaveLength(0);
  });

  it("the loop delivers on its own and stops cleanly", async () => {
    const to = uniqueEmail("loop");
    const db = await getDb();
    const sender = startEmailSender(db, {
      ...options,
      transport: createSmtpTransport(smtp.url),
      intervalMs: 50,
    });
    await enqueueEmail(db, message(to));
    sender.wake();
    await expect.poll(() => smtp.to(to).length, { timeout: 10_000 }).toBe(1);
    await sender.stop();
  });
});

describe("messages", () => {
  it("escape what the user typed in the HTML part and keep it readable in the text part", async () => {
    const to = uniqueEmail("escape");
    const name = `<img src=x onerror="alert(1)"> & "Bob"`;
    await enqueueEmail(await getDb(), {
      to,
      ...passwordResetMessage({
        name,
        resetUrl: "https://ailabs.app/reset-password?token=a&b=<c>",
      }),
    });
    // Other test files' rows may come first on a shared PostgreSQL database: send until ours arrives.
    await expect
      .poll(
        async () => {
          await sendPendingEmails(await getDb(), options);
          return smtp.to(to).length;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    const [arrived] = smtp.to(to);
    const html = String(arrived?.mail.html);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &quot;Bob&quot;");
    expect(html).toContain('href="https://ailabs.app/reset-password?token=a&amp;b=&lt;c&gt;"');
    expect(html).toContain(site.supportEmail);
    expect(arrived?.mail.text).toContain(`Hi ${name},`);
    expect(arrived?.mail.text).toContain("valid for 1 hour");
  });

  it("a receipt names the order number, the product, the amount and links to the printable receipt", () => {
    const receipt = purchaseReceiptMessage({
      name: "Ada",
      product: "lifetime-access",
      amountCents: 1700,
      currency: "usd",
      orderNumber: "AIL-7K3Q9",
      reference: "sale_123",
      date: new Date("2025-06-06T16:00:00Z"),
      receiptUrl: "http://localhost:3000/account/receipts/AIL-7K3Q9",
      dashboardUrl: "http://localhost:3000/dashboard",
    });
    expect(receipt.text).toContain("Order number: AIL-7K3Q9");
    expect(receipt.text).toContain("Product: Lifetime Access");
    expect(receipt.text).toContain("Amount: $17");
    expect(receipt.text).toContain("Payment reference: sale_123");
    expect(receipt.text).toContain(
      "View and print your receipt:\nhttp://localhost:3000/account/receipts/AIL-7K3Q9",
    );
    expect(receipt.html).toContain("Amount: $17<br>");
    expect(receipt.html).toContain('href="http://localhost:3000/account/receipts/AIL-7K3Q9"');
  });
});
