import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { cookieHeader, createUser, origin } from "~/test/helpers";
import { decodeBase32, totpCode } from "~/test/totp";
import { createAuth } from "../auth/better-auth.server";
import { type Database, openDatabase } from "../db/client.server";
import { closeDatabase, getDb } from "../db/db.server";
import { auditLog, session, twoFactor, user } from "../db/schema";
import { getEnv } from "../env.server";
import { runCli } from "./cli.server";
import { cli, userRow } from "./fixtures";

afterAll(closeDatabase);

/** Signs up through Better Auth on `db` with `secret` and turns TOTP on; the base32 key. */
async function signUpWithTwoFactor(db: Database["db"], secret: string, email: string) {
  const auth = createAuth(db, { ...getEnv(), authSecret: secret });
  const password = "correct horse battery";
  const { headers, response } = await auth.api.signUpEmail({
    body: { name: "Owner", email, password },
    headers: new Headers({ origin }),
    returnHeaders: true,
  });
  const session = new Headers({ origin, cookie: cookieHeader(headers) });
  const enabled = await auth.api.enableTwoFactor({ body: { password }, headers: session });
  if (enabled.method !== "totp") throw new Error("expected TOTP");
  const key = new URL(enabled.totpURI).searchParams.get("secret") ?? "";
  await auth.api.verifyTOTP({ body: { code: totpCode(key) }, headers: session });
  return { id: response.user.id, email, password, key };
}

/** Signs in with password then a code from `key`, with Better Auth on `secret`: whether it let them in. */
async function signInWithCode(
  db: Database["db"],
  secret: string,
  account: { email: string; password: string; key: string },
): Promise<boolean> {
  const auth = createAuth(db, { ...getEnv(), authSecret: secret });
  const first = await auth.api.signInEmail({
    body: { email: account.email, password: account.password },
    headers: new Headers({ origin }),
    returnHeaders: true,
  });
  if (!("twoFactorRedirect" in first.response)) throw new Error("expected the two-factor step");
  try {
    const verified = await auth.api.verifyTOTP({
      body: { code: totpCode(account.key) },
      headers: new Headers({ origin, cookie: cookieHeader(first.headers) }),
    });
    return Boolean(verified.token);
  } catch {
    return false;
  }
}

describe("two-factor reset", () => {
  it("lets a locked-out owner in with the password, ends their sessions, and is in the audit log", async () => {
    const db = await getDb();
    const email = `owner-${crypto.randomUUID()}@example.com`;
    const owner = await signUpWithTwoFactor(db, getEnv().authSecret, email);
    await db.update(user).set({ isAdmin: true }).where(eq(user.id, owner.id));
    const bystander = await signUpWithTwoFactor(db, getEnv().authSecret, `b-${email}`);
    expect((await userRow(owner.id)).twoFactorEnabled).toBe(true);

    const r = await cli("two-factor", "reset", email.toUpperCase());
    expect(r).toEqual({
      code: 0,
      out:
        `Two-factor reset for ${email}: authenticator key and recovery codes deleted, ` +
        "1 session ended. They sign in with their password (an admin is then asked to turn two-factor on again).",
      err: "",
    });
    expect((await userRow(owner.id)).twoFactorEnabled).toBe(false);
    expect(await db.select().from(twoFactor).where(eq(twoFactor.userId, owner.id))).toEqual([]);
    expect(await db.select().from(session).where(eq(session.userId, owner.id))).toEqual([]);

    // The password alone signs them in now.
    const auth = createAuth(db, getEnv());
    const signedIn = await auth.api.signInEmail({
      body: { email, password: owner.password },
      headers: new Headers({ origin }),
    });
    expect("token" in signedIn && signedIn.token).toBeTruthy();

    // Nobody else's two-factor changed.
    expect((await userRow(bystander.id)).twoFactorEnabled).toBe(true);
    expect(await signInWithCode(db, getEnv().authSecret, bystander)).toBe(true);

    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.kind, "cli.command"), eq(auditLog.target, email.toUpperCase())))
      .orderBy(desc(auditLog.seq));
    expect(entry?.detail).toBe("two-factor reset (exit 0)");
    expect(entry?.actor).toMatch(/^cli:/);
  });

  it("says so for a user without two-factor, and for an unknown e-mail", async () => {
    const u = await createUser();
    expect(await cli("two-factor", "reset", u.email)).toEqual({
      code: 0,
      out: `${u.email} has no two-factor; nothing to reset. Sessions ended: 1.`,
      err: "",
    });
    const nobody = `nobody-${crypto.randomUUID()}@example.com`;
    expect(await cli("two-factor", "reset", nobody)).toEqual({
      code: 1,
      out: "",
      err: `No user with e-mail ${nobody}`,
    });
  });

  it.each([
    [["two-factor", "reset"]],
    [["two-factor", "reset", "a@example.test", "b@example.test"]],
    [["two-factor", "off", "a@example.test"]],
    [["two-factor", "rekey"]],
  ])("rejects %j with usage", async (argv) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain("two-factor reset EMAIL");
  });
});

describe("two-factor rekey", () => {
  const oldSecret = "old-secret-old-secret-old-secret-0123456789";
  const newSecret = "new-secret-new-secret-new-secret-9876543210";
  const secretFile = (secret: string) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ailabs-rekey-")), "old-secret");
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return file;
  };
  const rekey = async (db: Database["db"], file: string, current: string) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(["two-factor", "rekey", file], {
      db,
      authSecret: current,
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  it("after a new BETTER_AUTH_SECRET, owners sign in with the same authenticator", async () => {
    // Its own database: the command rewrites every two-factor row, and on PostgreSQL the
    // other test files share one database.
    const database = await openDatabase({ dataDir: "memory://", databaseUrl: undefined });
    try {
      const { db } = database;
      const owner = await signUpWithTwoFactor(db, oldSecret, "owner@example.com");
      const [before] = await db.select().from(twoFactor).where(eq(twoFactor.userId, owner.id));
      // Recovery codes are salted hashes, not tied to the secret.
      expect(before?.backupCodes).toMatch(/^\["s1\./);
      // An account whose codes are still stored the older way, encrypted with the secret.
      const legacy = await signUpWithTwoFactor(db, oldSecret, "legacy@example.com");
      const legacyCodes = JSON.stringify(["AAAAA-BBBBB", "CCCCC-DDDDD"]);
      await db
        .update(twoFactor)
        .set({ backupCodes: await symmetricEncrypt({ key: oldSecret, data: legacyCodes }) })
        .where(eq(twoFactor.userId, legacy.id));

      // The new secret alone cannot read the key: the owner would be locked out.
      expect(await signInWithCode(db, newSecret, owner)).toBe(false);

      const r = await rekey(db, secretFile(oldSecret), newSecret);
      expect(r).toEqual({
        code: 0,
        out: "Two-factor keys re-encrypted with the current secret: 2; already on it: 0; unreadable: 0.",
        err: "",
      });
      expect(await signInWithCode(db, newSecret, owner)).toBe(true);
      const [after] = await db.select().from(twoFactor).where(eq(twoFactor.userId, owner.id));
      // The same key (its base32 in the app) under the new secret; the hashed codes as they were.
      expect(
        Buffer.from(await symmetricDecrypt({ key: newSecret, data: after?.secret ?? "" })),
      ).toEqual(Buffer.from(decodeBase32(owner.key).toString()));
      expect(after?.backupCodes).toBe(before?.backupCodes);
      // The older, encrypted set: the same codes under the new secret.
      const [legacyAfter] = await db
        .select()
        .from(twoFactor)
        .where(eq(twoFactor.userId, legacy.id));
      expect(await symmetricDecrypt({ key: newSecret, data: legacyAfter?.backupCodes ?? "" })).toBe(
        legacyCodes,
      );

      // Run again: nothing left to do.
      expect((await rekey(db, secretFile(oldSecret), newSecret)).out).toBe(
        "Two-factor keys re-encrypted with the current secret: 0; already on it: 2; unreadable: 0.",
      );

      // A key neither secret reads is named, with the way out.
      const third = "third-secret-third-secret-third-secret-000";
      const stranger = await signUpWithTwoFactor(db, third, "stranger@example.com");
      const failed = await rekey(db, secretFile(oldSecret), newSecret);
      expect(failed.code).toBe(1);
      expect(failed.err).toBe(
        `${stranger.email}: neither secret reads this key; run \`npm run cli -- two-factor reset ${stranger.email}\`.`,
      );
    } finally {
      await database.close();
    }
  });

  it("refuses an old secret that is the current one, or a file that holds none", async () => {
    const database = await openDatabase({ dataDir: "memory://", databaseUrl: undefined });
    try {
      const same = await rekey(database.db, secretFile(newSecret), newSecret);
      expect(same.code).toBe(1);
      expect(same.err).toMatch(/^The old secret is the current one/);
      const short = await rekey(database.db, secretFile("short"), newSecret);
      expect(short.code).toBe(1);
      expect(short.err).toMatch(/does not hold an auth secret/);
    } finally {
      await database.close();
    }
  });
});
