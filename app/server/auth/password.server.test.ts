import { scryptSync } from "node:crypto";
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { passwordTooCommon } from "~/lib/password-rule";
import { isCommonPassword } from "./common-passwords.server";
import {
  hashingQueueLength,
  hashingSlots,
  hashPassword,
  needsRehash,
  passwordCost,
  passwordCostFor,
  passwordWork,
  refuseCommonPassword,
  testPasswordCost,
  verifyPassword,
} from "./password.server";

// The suite hashes at the test cost; production's cost is tested on its own below.
const hash = (password: string) => hashPassword(password, testPasswordCost);

describe("password hashing", () => {
  it("hashes at OWASP's scrypt minimum (N=2^17, r=8, p=1) off the event loop, and verifies", async () => {
    expect(passwordCost).toEqual({ N: 131072, r: 8, p: 1 });
    expect(passwordCostFor("production")).toBe(passwordCost);
    expect(passwordCostFor("development")).toBe(passwordCost);
    expect(passwordCostFor("test")).toBe(testPasswordCost);
    // The event loop keeps turning while a hash runs: a 10 ms timer fires long before it ends.
    let timerLate = Number.POSITIVE_INFINITY;
    const timerSet = performance.now();
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        timerLate = performance.now() - timerSet - 10;
        resolve();
      }, 10),
    );
    const started = performance.now();
    const stored = await hashPassword("correct horse");
    const took = performance.now() - started;
    await timer;
    expect(stored).toMatch(/^scrypt\$n=131072,r=8,p=1\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect(timerLate).toBeLessThan(took / 2);
    expect(await verifyPassword({ hash: stored, password: "correct horse" })).toBe(true);
    expect(await verifyPassword({ hash: stored, password: "correct horsE" })).toBe(false);
    expect(needsRehash(stored, passwordCost)).toBe(false);
    // Printed for the record: one hash at production cost on this machine.
    console.info(`scrypt N=2^17 r=8 p=1: ${Math.round(took)} ms`);
  });

  it("verifies the right password and refuses a wrong one", async () => {
    const stored = await hash("correct horse");
    expect(stored).toMatch(/^scrypt\$n=16384,r=8,p=1\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash: stored, password: "correct horse" })).toBe(true);
    expect(await verifyPassword({ hash: stored, password: "correct horsE" })).toBe(false);
  });

  it("tells a hash of an older cost or format from one of today's", async () => {
    const older = await hash("correct horse");
    expect(needsRehash(older, passwordCost)).toBe(true);
    expect(needsRehash(older, testPasswordCost)).toBe(false);
    expect(needsRehash(`scrypt$${"00".repeat(16)}$${"00".repeat(64)}`, testPasswordCost)).toBe(
      true,
    );
  });

  it("refuses a new password on the common-password list, in any letter case", async () => {
    for (const common of ["password123", "1234567890", "Qwertyuiop", "iloveyou12"]) {
      expect(await isCommonPassword(common)).toBe(true);
      await expect(refuseCommonPassword(common)).rejects.toMatchObject({
        body: { code: "PASSWORD_TOO_COMMON", message: passwordTooCommon },
      });
    }
    expect(await isCommonPassword("correct horse battery")).toBe(false);
    await expect(refuseCommonPassword("correct horse battery")).resolves.toBeUndefined();
  });

  it("salts: the same password hashes differently", async () => {
    expect(await hash("same")).not.toBe(await hash("same"));
  });

  it("verifies hashes written before the cost was stored in them (r=16)", async () => {
    // "correct horse" hashed with N=16384, r=16, p=1 and this salt, in the earlier format.
    const salt = "00112233445566778899aabbccddeeff";
    const key = scryptSync("correct horse", Buffer.from(salt, "hex"), 64, {
      N: 16384,
      r: 16,
      p: 1,
      maxmem: 64 * 1024 * 1024,
    }).toString("hex");
    expect(await verifyPassword({ hash: `scrypt$${salt}$${key}`, password: "correct horse" })).toBe(
      true,
    );
    expect(await verifyPassword({ hash: `scrypt$${salt}$${key}`, password: "wrong horse" })).toBe(
      false,
    );
  });

  it("refuses malformed hashes instead of throwing", async () => {
    const salt = "00112233445566778899aabbccddeeff";
    const key = "ab".repeat(64);
    for (const hash of [
      "",
      "bcrypt$aa$bb",
      "scrypt$00$11",
      "scrypt$zz",
      `scrypt$n=1000,r=8,p=1$${salt}$${key}`,
      `scrypt$n=16384,r=99,p=1$${salt}$${key}`,
      `scrypt$n=16384,r=8,p=1$${salt}$${key}$extra`,
    ]) {
      expect(await verifyPassword({ hash, password: "x" })).toBe(false);
    }
  });

  it("hashes on every core but one at most: one a slot waits its turn, any more is told busy", async () => {
    const slots = Math.max(1, availableParallelism() - 1);
    expect(hashingSlots).toBe(slots);
    expect(hashingQueueLength).toBe(slots);
    const hashes = Array.from({ length: 2 * slots }, () => hash("queued"));
    expect(passwordWork.running()).toBe(slots);
    expect(passwordWork.waiting()).toBe(slots);
    await expect(hash("one too many")).rejects.toMatchObject({ body: { code: "BUSY" } });
    expect(await Promise.all(hashes)).toHaveLength(2 * slots);
    expect(passwordWork.running()).toBe(0);
  });

  it("reports a cost scrypt refuses as an error, and keeps hashing afterwards", async () => {
    const salt = "00".repeat(16);
    const key = "00".repeat(64);
    // N=2^20, r=32 needs 4 GiB, over the 256 MiB the hashing threads allow.
    await expect(
      verifyPassword({ hash: `scrypt$n=1048576,r=32,p=1$${salt}$${key}`, password: "x" }),
    ).rejects.toThrow(/memory/i);
    const stored = await hash("after a refusal");
    expect(await verifyPassword({ hash: stored, password: "after a refusal" })).toBe(true);
  });
});
