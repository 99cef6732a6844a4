import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createUser, uniqueEmail } from "~/test/helpers";
import { hasPaidAccess } from "../access.server";
import { type Db, openDatabase } from "../db/client.server";
import { closeDatabase, getDatabase, getDb } from "../db/db.server";
import * as schema from "../db/schema";
import { emailOutbox, purchase, user } from "../db/schema";
import { socketPath, startDatabaseSocket } from "../db/socket.server";
import { enqueueEmail } from "../mail/outbox.server";
import { fulfilPurchase, revokePurchase } from "../payments/purchases.server";
import { listUsers } from "./accounts.server";
import { runCli } from "./cli.server";
import { OperatorDbError, openOperatorDatabase } from "./connect.server";

afterAll(closeDatabase);

/** Runs the CLI in-process against the test database; returns the exit code and what it printed. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    db: getDb,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function userRow(id: string) {
  const [row] = await (await getDb()).select().from(user).where(eq(user.id, id));
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

async function purchasesOf(db: Db, userId: string) {
  return db.select().from(purchase).where(eq(purchase.userId, userId));
}

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

    const rows = await purchasesOf(await getDb(), u.id);
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

  it("does nothing when the user already has a completed manual purchase", async () => {
    const u = await createUser();
    await cli("access", "grant", u.email);
    const r = await cli("access", "grant", u.email);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${u.email} already has a completed manual purchase; nothing changed.`);
    expect(await purchasesOf(await getDb(), u.id)).toHaveLength(1);
  });

  it("grants again once the manual purchase was refunded", async () => {
    const u = await createUser();
    await cli("access", "grant", u.email);
    await cli("access", "revoke", u.email);
    const r = await cli("access", "grant", u.email);
    expect(r.out).toMatch(/^Granted access to /);
    const rows = await purchasesOf(await getDb(), u.id);
    expect(rows.map((p) => p.status).sort()).toEqual(["completed", "refunded"]);
  });

  it("adds a manual purchase beside a paid one", async () => {
    const u = await createUser({ paid: true });
    const r = await cli("access", "grant", u.email);
    expect(r.out).toMatch(/^Granted access to /);
    expect(await purchasesOf(await getDb(), u.id)).toHaveLength(2);
  });
});

describe("access revoke", () => {
  it("marks every completed purchase refunded, says how many, and ends access", async () => {
    const u = await createUser({ paid: true });
    await buy(u.id, "stripe");
    const alreadyRefunded = await buy(u.id, "warriorplus");
    await revokePurchase(await getDb(), {
      provider: "warriorplus",
      providerRef: alreadyRefunded.providerRef,
    });
    const before = new Date(Date.now() - 60_000);

    const r = await cli("access", "revoke", u.email.toUpperCase());
    expect(r).toEqual({
      code: 0,
      out: `Revoked access for ${u.email}: 2 purchases marked refunded; their paid access has ended.`,
      err: "",
    });
    const rows = await purchasesOf(await getDb(), u.id);
    expect(rows).toHaveLength(3);
    for (const p of rows) {
      expect(p.status).toBe("refunded");
      expect(p.refundedAt?.getTime()).toBeGreaterThan(before.getTime());
    }
    // The one refunded earlier keeps its own refund time.
    const earlier = rows.find((p) => p.id === alreadyRefunded.id);
    expect(earlier?.refundedAt?.getTime()).toBeLessThanOrEqual(
      Math.min(
        ...rows.filter((p) => p.id !== alreadyRefunded.id).map((p) => p.refundedAt?.getTime() ?? 0),
      ),
    );
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(false);
  });

  it("leaves other users' purchases alone", async () => {
    const target = await createUser({ paid: true });
    const bystander = await createUser({ paid: true });
    await cli("access", "revoke", target.email);
    const [p] = await purchasesOf(await getDb(), bystander.id);
    expect(p?.status).toBe("completed");
  });

  it("says an admin keeps access", async () => {
    const u = await createUser({ isAdmin: true, paid: true });
    const r = await cli("access", "revoke", u.email);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      `Revoked access for ${u.email}: 1 purchase marked refunded; their paid access has ended.\n` +
        `${u.email} is an admin and keeps access through is_admin.`,
    );
  });

  it("says when there is nothing to refund", async () => {
    const u = await createUser();
    expect(await cli("access", "revoke", u.email)).toEqual({
      code: 0,
      out: `${u.email} has no completed purchases; nothing changed.`,
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

describe("openOperatorDatabase", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cli-open-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to create a database where there is none", async () => {
    const dir = tempDir();
    await expect(openOperatorDatabase({ dataDir: dir, databaseUrl: undefined })).rejects.toThrow(
      /No database in DATA_DIR/,
    );
    expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(false);
    await expect(
      openOperatorDatabase({ dataDir: "memory://", databaseUrl: undefined }),
    ).rejects.toBeInstanceOf(OperatorDbError);
  });

  it("does not open the files when the socket is there but answers badly", async () => {
    const dir = tempDir();
    // What pglite-socket sends when its connections are all taken.
    const sockets = new Set<Socket>();
    const server = createServer((s) => {
      sockets.add(s);
      s.end("Too many connections\n");
    });
    await new Promise<void>((resolve) => server.listen(socketPath(dir), resolve));
    try {
      await expect(openOperatorDatabase({ dataDir: dir, databaseUrl: undefined })).rejects.toThrow(
        /exists but did not answer/,
      );
      expect(sockets.size).toBe(1);
      expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(false);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

// ---------------------------------------------------------------------------
// cli.ts as the operator runs it, in a child process.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const secret = "cli-test-secret-cli-test-secret-0123456789";

type Run = { code: number | null; stdout: string; stderr: string };

function runChild(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "cli.ts", ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The embedded database's environment: no DATABASE_URL, whatever the suite runs on. */
const pgliteEnv = (dataDir: string) => ({ DATA_DIR: dataDir, BETTER_AUTH_SECRET: secret });

/** Leaves a socket file nobody listens on, as a crashed server does. */
async function leaveStaleSocket(dataDir: string): Promise<void> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "-e",
      "require('net').createServer().listen(process.argv[1], () => console.log('up'))",
      socketPath(dataDir),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

async function seedUser(db: Db, email: string) {
  const id = randomUUID();
  await db.insert(user).values({ id, email, name: "Child Test" });
  return id;
}

describe("cli.ts in a child process", { timeout: 240_000 }, () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cli-"));
    dirs.push(dir);
    return dir;
  };

  it("opens the PGlite files itself when no server holds them (past a stale socket)", async () => {
    const dir = tempDir();
    const email = uniqueEmail("files");
    const setup = await openDatabase({ dataDir: dir, databaseUrl: undefined });
    const id = await seedUser(setup.db, email);
    await setup.close();
    await leaveStaleSocket(dir);
    expect(existsSync(socketPath(dir))).toBe(true);

    const granted = await runChild(["access", "grant", email.toUpperCase()], pgliteEnv(dir));
    expect(granted.stderr).toBe("");
    expect(granted.stdout).toMatch(new RegExp(`^Granted access to ${email} \\(manual purchase `));
    expect(granted.code).toBe(0);

    const unknown = await runChild(["admin", "grant", "nobody@example.test"], pgliteEnv(dir));
    expect(unknown).toEqual({
      code: 1,
      stdout: "",
      stderr: "No user with e-mail nobody@example.test\n",
    });

    const bad = await runChild(["admin", "promote", email], pgliteEnv(dir));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Usage:");

    const check = await openDatabase({ dataDir: dir, databaseUrl: undefined });
    try {
      const rows = await purchasesOf(check.db, id);
      expect(rows).toMatchObject([{ provider: "manual", status: "completed", amountCents: 0 }]);
    } finally {
      await check.close();
    }
  });

  it("goes through the socket of the process that holds the database", async () => {
    const dir = tempDir();
    const email = uniqueEmail("socket");
    const holder = await openDatabase({ dataDir: dir, databaseUrl: undefined });
    if (!holder.pglite) throw new Error("expected PGlite");
    const socket = await startDatabaseSocket(holder.pglite, dir);
    let connections = 0;
    socket.addEventListener("connection", () => {
      connections++;
    });
    try {
      const id = await seedUser(holder.db, email);

      const admin = await runChild(["admin", "grant", email], pgliteEnv(dir));
      expect(admin).toEqual({ code: 0, stdout: `Granted admin to ${email}.\n`, stderr: "" });
      expect(connections).toBe(1);
      const [row] = await holder.db.select().from(user).where(eq(user.id, id));
      expect(row?.isAdmin).toBe(true);

      const access = await runChild(["access", "grant", email], pgliteEnv(dir));
      expect(access.code).toBe(0);
      expect(await purchasesOf(holder.db, id)).toMatchObject([{ provider: "manual" }]);

      const revoke = await runChild(["access", "revoke", email], pgliteEnv(dir));
      expect(revoke.stdout).toContain("1 purchase marked refunded");
      expect(revoke.stdout).toContain("keeps access through is_admin");
      expect(await purchasesOf(holder.db, id)).toMatchObject([{ status: "refunded" }]);

      const list = await runChild(["users", "list"], pgliteEnv(dir));
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(
        new RegExp(`^${email}\\s+Child Test\\s+yes\\s+yes\\s+\\d{4}-`, "m"),
      );
      expect(connections).toBe(4);
    } finally {
      await socket.stop();
      await holder.close();
    }
  });

  // Runs in the PostgreSQL pass of the suite (CI runs it on both databases).
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    it("uses PostgreSQL when DATABASE_URL is set", async () => {
      const u = await createUser();
      const r = await runChild(["admin", "grant", u.email], {
        DATA_DIR: tempDir(),
        DATABASE_URL: databaseUrl,
        BETTER_AUTH_SECRET: secret,
      });
      expect(r).toEqual({ code: 0, stdout: `Granted admin to ${u.email}.\n`, stderr: "" });
      expect((await userRow(u.id)).isAdmin).toBe(true);
    });
  }
});

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
