import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "~/test/helpers";
import { openDatabase } from "../db/client.server";
import { closeDatabase, getDb } from "../db/db.server";
import { emailOutbox } from "../db/schema";
import { runCli } from "../operator/cli.server";
import { cli } from "../operator/fixtures";
import { enqueueEmail } from "./outbox.server";

afterAll(closeDatabase);

describe("failed e-mail", () => {
  async function failedMessage(to: string) {
    const db = await getDb();
    await enqueueEmail(db, { to, subject: "Your receipt", text: "t", html: "<p>t</p>" });
    await db
      .update(emailOutbox)
      .set({ attempts: 5, lastError: "451 4.3.0 Try again later", nextAttemptAt: new Date(0) })
      .where(eq(emailOutbox.to, to));
  }

  it("lists what failed, and retries one recipient's mail from now", async () => {
    const to = uniqueEmail("failed");
    const other = uniqueEmail("failed-other");
    await failedMessage(to);
    await failedMessage(other);

    const listed = await cli("mail", "failed");
    expect(listed.code).toBe(0);
    const line = listed.out.split("\n").find((l) => l.startsWith(to));
    expect(line).toMatch(
      /Your receipt\s+5\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+451 4\.3\.0 Try again later$/,
    );

    const retried = await cli("mail", "retry", to.toUpperCase());
    expect(retried).toEqual({ code: 0, out: "1 message queued to be sent again.", err: "" });
    const db = await getDb();
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, to));
    // Due now with no attempts counted (on a shared database another test's sender may
    // already have delivered it: then one attempt, and sent).
    expect(row?.lastError).toBeNull();
    expect(row?.attempts).toBe(row?.sentAt ? 1 : 0);
    expect(Math.abs((row?.nextAttemptAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    // The other recipient's message is left as it was.
    const [untouched] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, other));
    expect(untouched?.attempts).toBe(5);
    expect((await cli("mail", "failed")).out).not.toContain(to);
  });

  it("retries every failed message with --all, and never a sent one", async () => {
    // A database of its own: --all must not touch other tests' mail.
    const own = await openDatabase({ dataDir: "memory://", databaseUrl: undefined });
    try {
      const io = { db: own.db, out: () => {}, err: () => {} };
      for (const to of ["a@example.test", "b@example.test", "sent@example.test"]) {
        await enqueueEmail(own.db, { to, subject: "S", text: "t", html: "t" });
      }
      await own.db.update(emailOutbox).set({ attempts: 2, lastError: "refused" });
      await own.db
        .update(emailOutbox)
        .set({ sentAt: new Date() })
        .where(eq(emailOutbox.to, "sent@example.test"));
      const out: string[] = [];
      expect(await runCli(["mail", "retry", "--all"], { ...io, out: (t) => out.push(t) })).toBe(0);
      expect(out).toEqual(["2 messages queued to be sent again."]);
      const rows = await own.db.select().from(emailOutbox);
      expect(
        rows
          .filter((r) => r.attempts === 0)
          .map((r) => r.to)
          .sort(),
      ).toEqual(["a@example.test", "b@example.test"]);
      const empty: string[] = [];
      await runCli(["mail", "failed"], { ...io, out: (t) => empty.push(t) });
      expect(empty).toEqual(["No failed e-mail."]);
      expect(await runCli(["mail", "retry"], io)).toBe(2);
    } finally {
      await own.close();
    }
  });
});
