import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createUser, uniqueEmail } from "~/test/helpers";
import { type Db, openDatabase } from "../db/client.server";
import { closeDatabase } from "../db/db.server";
import { user } from "../db/schema";
import { socketPath, startDatabaseSocket } from "../db/socket.server";
import { OperatorDbError, openOperatorDatabase } from "./connect.server";
import { purchasesIn, userRow } from "./fixtures";

afterAll(closeDatabase);

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
      const rows = await purchasesIn(check.db, id);
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
      expect(await purchasesIn(holder.db, id)).toMatchObject([{ provider: "manual" }]);

      const revoke = await runChild(["access", "revoke", email], pgliteEnv(dir));
      expect(revoke.stdout).toContain("1 purchase no longer gives access; nothing was refunded");
      expect(revoke.stdout).toContain("keeps access through is_admin");
      const [revoked] = await purchasesIn(holder.db, id);
      expect(revoked).toMatchObject({ status: "completed" });
      expect(revoked?.accessRevokedAt).toBeInstanceOf(Date);

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
