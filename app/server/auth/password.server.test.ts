import { scryptSync } from "node:crypto";
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { createWorkQueue, hashPassword, passwordWork, verifyPassword } from "./password.server";

describe("password hashing", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$n=16384,r=8,p=1\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash, password: "correct horse" })).toBe(true);
    expect(await verifyPassword({ hash, password: "correct horsE" })).toBe(false);
  });

  it("salts: the same password hashes differently", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
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

  it("hashes on every core but one at most: the rest wait their turn", async () => {
    const slots = Math.max(1, availableParallelism() - 1);
    const hashes = Array.from({ length: slots + 2 }, () => hashPassword("queued"));
    expect(passwordWork.running()).toBe(slots);
    expect(passwordWork.waiting()).toBe(2);
    expect(await Promise.all(hashes)).toHaveLength(slots + 2);
    expect(passwordWork.running()).toBe(0);
  });

  it("reports a cost scrypt refuses as an error, and keeps hashing afterwards", async () => {
    const salt = "00".repeat(16);
    const key = "00".repeat(64);
    // N=2^20, r=32 needs 4 GiB, over the 64 MiB the hashing threads allow.
    await expect(
      verifyPassword({ hash: `scrypt$n=1048576,r=32,p=1$${salt}$${key}`, password: "x" }),
    ).rejects.toThrow(/memory/i);
    const hash = await hashPassword("after a refusal");
    expect(await verifyPassword({ hash, password: "after a refusal" })).toBe(true);
  });
});

describe("the work queue", () => {
  it("runs at most its slots at once, in arrival order, and frees a slot on failure", async () => {
    const queue = createWorkQueue(2);
    const order: number[] = [];
    let active = 0;
    let most = 0;
    const task = (n: number, fail = false) =>
      queue.run(async () => {
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(n);
        active -= 1;
        if (fail) throw new Error(`task ${n}`);
        return n;
      });
    const results = await Promise.allSettled([task(1), task(2, true), task(3), task(4), task(5)]);
    expect(most).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual([1, 2]);
    expect(order.slice(2)).toEqual([3, 4, 5]);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    expect(queue.running()).toBe(0);
    expect(queue.waiting()).toBe(0);
  });
});
