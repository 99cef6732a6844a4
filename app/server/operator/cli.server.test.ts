import { randomUUID } from "node:crypto";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createUser, uniqueEmail } from "~/test/helpers";
import { hasPaidAccess } from "../access.server";
import type { Db } from "../db/client.server";
import { closeDatabase, getDatabase, getDb } from "../db/db.server";
import * as schema from "../db/schema";
import { user } from "../db/schema";
import { fulfilPurchase, revokePurchase } from "../payments/purchases.server";
import { listUsers } from "./accounts.server";
import { runCli } from "./cli.server";
import { cli, purchasesIn, userRow } from "./fixtures";

afterAll(closeDatabase);

async function buy(userId: string, provider: schema.PurchaseProvider) {
  return fulfilPurchase(await getDb(), {
    userId,
    provider,
    providerRef: randomUUID(),
    product: "lifetime-access",
    amountCents: 2500,
    currency: "usd",
  });
}

describe("usage", () => {
  it.each([[[]], [["--help"]], [["-h"]]])("prints usage for %j and exits 0", async (...argv) => {
    const r = await cli(...argv.flat());
    expect(r.code).toBe(0);
    expect(r.out).toContain("Usage: npm run cli -- COMMAND");
    expect(r.out).toContain("access revoke EMAIL");
    expect(r.err).toBe("");
  });

  it.each([
    ["frobnicate"],
    ["admin", "promote", "a@example.test"],
    ["admin", "grant"],
    ["access", "grant", "a@example.test", "extra"],
    ["users"],
    ["users", "list", "extra"],
    ["--help", "admin"],
  ])("rejects %j with usage on stderr and exit 2", async (...argv) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain("Unknown command");
    expect(r.err).toContain("Usage:");
    expect(r.out).toBe("");
  });

  it("does not touch the database for usage errors or help", async () => {
    const db = () => Promise.reject(new Error("opened the database"));
    const io = { db, out: () => {}, err: () => {} };
    expect(await runCli(["--help"], io)).toBe(0);
    expect(await runCli(["nope"], io)).toBe(2);
  });
});

describe("unknown e-mail", () => {
  it.each([
    ["admin", "grant"],
    ["admin", "revoke"],
    ["access", "grant"],
    ["access", "revoke"],
  ])("%s %s: says so on stderr and exits 1", async (area, verb) => {
    const email = uniqueEmail("nobody");
    const r = await cli(area, verb, email);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`No user with e-mail ${email}`);
    expect(r.out).toBe("");
  });
});

describe("admin grant / revoke", () => {
  it("sets and clears is_admin, matching the e-mail case-insensitively", async () => {
    const u = await createUser();
    const shouted = u.email.toUpperCase();

    const granted = await cli("admin", "grant", shouted);
    expect(granted).toEqual({ code: 0, out: `Granted admin to ${u.email}.`, err: "" });
    expect((await userRow(u.id)).isAdmin).toBe(true);

    const again = await cli("admin", "grant", u.email);
    expect(again.code).toBe(0);
    expect(again.out).toBe(`${u.email} is already an admin; nothing changed.`);
    expect((await userRow(u.id)).isAdmin).toBe(true);

    const revoked = await cli("admin", "revoke", shouted);
    expect(revoked).toEqual({ code: 0, out: `Revoked admin from ${u.email}.`, err: "" });
    expect((await userRow(u.id)).isAdmin).toBe(false);

    const notAdmin = await cli("admin", "revoke", u.email);
    expect(notAdmin.out).toBe(`${u.email} is not an admin; nothing changed.`);
  });

  it("changes only the named user", async () => {
    const target = await createUser();
    const bystander = await createUser();
    await cli("admin", "grant", target.email);
    expect((await userRow(bystander.id)).isAdmin).toBe(false);
  });
});

describe("access grant", () => {
  it("records a manual purchase through fulfilPurchase and gives access", async () => {
    const u = await createUser();
    const r = await cli("access", "grant", u.email.toUpperCase());
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      new RegExp(`^Granted access to ${u.email} \\(manual purchase [0-9a-f-]{36}\\)\\.$`),
    );

    const rows = await purchasesIn(await getDb(), u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: "manual",
      product: "lifetime-access",
      amountCents: 0,
      currency: "usd",
      status: "completed",
      refundedAt: null,
    });
    expect(rows[0]?.providerRef).toMatch(/^[0-9a-f-]{36}$/);
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
  });

  it("gives another product when one is named, which opens its courses but not the members' area", async () => {
    const u = await createUser();
    const r = await cli("access", "grant", u.email, "white-label");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      new RegExp(
        `^Granted 12-in-1 White Label Package to ${u.email} \\(manual purchase [0-9a-f-]{36}\\)\\.$`,
      ),
    );
    expect(await purchasesIn(await getDb(), u.id)).toMatchObject([
      { provider: "manual", product: "white-label", amountCents: 0, status: "completed" },
    ]);
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(false);
    // The plan is a product of its own.
    expect((await cli("access", "grant", u.email)).out).toMatch(/^Granted access to /);
    expect((await cli("access", "grant", u.email, "white-label")).out).toBe(
      `${u.email} already has a completed manual purchase of 12-in-1 White Label Package; nothing changed.`,
    );
    expect((await cli("access", "grant", u.email, "everything")).code).toBe(2);
  });

  it("does nothing when the user already has a completed manual purchase", async () => {
    const u = await createUser();
    await cli("access", "grant", u.email);
    const r = await cli("access", "grant", u.email);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${u.email} already has a completed manual purchase; nothing changed.`);
    expect(await purchasesIn(await getDb(), u.id)).toHaveLength(1);
  });

  it("grants again once the access of the manual purchase was revoked", async () => {
    const u = await createUser();
    await cli("access", "grant", u.email);
    await cli("access", "revoke", u.email);
    const r = await cli("access", "grant", u.email);
    expect(r.out).toMatch(/^Granted access to /);
    const rows = await purchasesIn(await getDb(), u.id);
    expect(rows.map((p) => [p.status, p.accessRevokedAt === null])).toEqual(
      expect.arrayContaining([
        ["completed", false],
        ["completed", true],
      ]),
    );
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
  });

  it("adds a manual purchase beside a paid one", async () => {
    const u = await createUser({ paid: true });
    const r = await cli("access", "grant", u.email);
    expect(r.out).toMatch(/^Granted access to /);
    expect(await purchasesIn(await getDb(), u.id)).toHaveLength(2);
  });
});

describe("access revoke", () => {
  it("ends the access of every completed purchase, says how many, and refunds nothing", async () => {
    const u = await createUser({ paid: true });
    await buy(u.id, "stripe");
    const alreadyRefunded = await buy(u.id, "warriorplus");
    const refunded = await revokePurchase(await getDb(), {
      provider: "warriorplus",
      providerRef: alreadyRefunded.providerRef,
    });

    const r = await cli("access", "revoke", u.email.toUpperCase());
    expect(r).toEqual({
      code: 0,
      out: `Revoked access for ${u.email}: 2 purchases no longer give access; nothing was refunded.`,
      err: "",
    });
    const rows = await purchasesIn(await getDb(), u.id);
    expect(rows).toHaveLength(3);
    for (const p of rows.filter((row) => row.id !== alreadyRefunded.id)) {
      expect(p).toMatchObject({ status: "completed", refundedAt: null });
      expect(p.accessRevokedAt).toBeInstanceOf(Date);
    }
    // The one refunded earlier stays as it was.
    const earlier = rows.find((p) => p.id === alreadyRefunded.id);
    expect(earlier).toMatchObject({ status: "refunded", accessRevokedAt: null });
    expect(earlier?.refundedAt).toEqual(refunded?.refundedAt);
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(false);
  });

  it("leaves other users' purchases alone", async () => {
    const target = await createUser({ paid: true });
    const bystander = await createUser({ paid: true });
    await cli("access", "revoke", target.email);
    const [p] = await purchasesIn(await getDb(), bystander.id);
    expect(p).toMatchObject({ status: "completed", accessRevokedAt: null });
  });

  it("says an admin keeps access", async () => {
    const u = await createUser({ isAdmin: true, paid: true });
    const r = await cli("access", "revoke", u.email);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      `Revoked access for ${u.email}: 1 purchase no longer gives access; nothing was refunded.\n` +
        `${u.email} is an admin and keeps access through is_admin.`,
    );
  });

  it("says when there is no access to end", async () => {
    const u = await createUser();
    expect(await cli("access", "revoke", u.email)).toEqual({
      code: 0,
      out: `${u.email} has no purchases that give access; nothing changed.`,
      err: "",
    });
    const admin = await createUser({ isAdmin: true });
    const r = await cli("access", "revoke", admin.email);
    expect(r.out).toContain("keeps access through is_admin");
  });
});

describe("users list", () => {
  it("shows e-mail, name, admin, access and created date, as hasPaidAccess decides", async () => {
    const plain = await createUser({ name: "Plain Person" });
    const paid = await createUser({ name: "Paying Person", paid: true });
    const admin = await createUser({ name: "Admin Person", isAdmin: true });
    const refunded = await createUser({ name: "Refunded Person" });
    const manual = await createUser({ name: "Manual Person" });
    await cli("access", "grant", manual.email);
    const p = await buy(refunded.id, "stripe");
    await revokePurchase(await getDb(), { provider: "stripe", providerRef: p.providerRef });

    const r = await cli("users", "list");
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toMatch(/^EMAIL\s+NAME\s+ADMIN\s+ACCESS\s+CREATED$/);
    expect(lines.at(-1)).toMatch(/^\d+ users?\.$/);
    const today = new Date().toISOString().slice(0, 10);
    const line = (email: string) => lines.find((l) => l.startsWith(`${email} `))?.split(/\s{2,}/);
    expect(line(plain.email)).toEqual([plain.email, "Plain Person", "no", "no", today]);
    expect(line(paid.email)).toEqual([paid.email, "Paying Person", "no", "yes", today]);
    expect(line(admin.email)).toEqual([admin.email, "Admin Person", "yes", "yes", today]);
    expect(line(refunded.email)).toEqual([refunded.email, "Refunded Person", "no", "no", today]);
    expect(line(manual.email)).toEqual([manual.email, "Manual Person", "no", "yes", today]);

    await cli("access", "revoke", paid.email);
    await cli("admin", "grant", refunded.email);
    const after = (await cli("users", "list")).out.split("\n");
    expect(after.find((l) => l.startsWith(`${paid.email} `))).toMatch(/\s+no\s+no\s+\S+$/);
    expect(after.find((l) => l.startsWith(`${refunded.email} `))).toMatch(/\s+yes\s+yes\s+\S+$/);
  });

  it("agrees with hasPaidAccess for every user", async () => {
    await createUser({ paid: true });
    await createUser();
    const db = await getDb();
    const rows = await listUsers(db);
    const all = await db.select().from(user);
    expect(rows).toHaveLength(all.length);
    for (const u of all) {
      const row = rows.find((r) => r.email === u.email);
      expect(row?.hasAccess).toBe(await hasPaidAccess(db, u));
    }
  });

  it("asks the database once, however many users there are", async () => {
    for (let i = 0; i < 3; i++) await createUser({ paid: i % 2 === 0 });
    let queries = 0;
    const logger = { logQuery: () => void queries++ };
    const database = await getDatabase();
    const pool = process.env.DATABASE_URL
      ? new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 })
      : undefined;
    const counting = (pool
      ? drizzleNodePg(pool, { schema, logger })
      : drizzlePglite(database.pglite as NonNullable<typeof database.pglite>, {
          schema,
          logger,
        })) as unknown as Db;
    try {
      const rows = await listUsers(counting);
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(queries).toBe(1);
    } finally {
      await pool?.end();
    }
  });

  it("shows control characters in names as ?", async () => {
    const u = await createUser({ name: "Evil\u001b[2J\nName" });
    const r = await cli("users", "list");
    expect(r.out.split("\n").find((l) => l.startsWith(`${u.email} `))).toContain("Evil?[2J?Name");
  });
});
