import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadEnv } from "../env.server";
import {
  countLoginAttempt,
  countResetRequest,
  createRateLimits,
  forgetLoginAttempts,
} from "./rate-limit.server";
import { prefix, redisClient } from "./redis-fixtures";

/** An address that never signed in to the account, and one that did. */
const unknown = async () => false;
const known = async () => true;

describe("rate limit settings", () => {
  const settingsFrom = (vars: Record<string, string>) =>
    loadEnv({ DATA_DIR: "memory://", ...vars }).rateLimits;

  it("have safe defaults", () => {
    expect(settingsFrom({})).toEqual({
      windowSeconds: 900,
      loginPerAddress: 100,
      loginPerAddressAndEmail: 10,
      loginPerEmail: 30,
      twoFactorPerAccount: 10,
      signupPerAddress: 100,
      signupWindowSeconds: 3600,
      resetPerAddressAndEmail: 3,
      resetPerEmail: 10,
      resetPerAddress: 20,
      resetWindowSeconds: 3600,
    });
  });

  it("refuses a count that is not a positive whole number, naming the variable", () => {
    expect(() => loadEnv({ DATA_DIR: "memory://", RATE_LIMIT_LOGIN_PER_EMAIL: "0" })).toThrow(
      /RATE_LIMIT_LOGIN_PER_EMAIL/,
    );
    expect(() => loadEnv({ DATA_DIR: "memory://", RATE_LIMIT_WINDOW_SECONDS: "ten" })).toThrow(
      /RATE_LIMIT_WINDOW_SECONDS/,
    );
    expect(() => loadEnv({ DATA_DIR: "memory://", REDIS_URL: "http://x" })).toThrow(/REDIS_URL/);
  });

  it("change the limits: in memory and in Redis", async () => {
    const settings = settingsFrom({
      RATE_LIMIT_LOGIN_PER_ADDRESS: "50",
      RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL: "2",
      RATE_LIMIT_TWO_FACTOR_PER_ACCOUNT: "1",
      RATE_LIMIT_SIGNUP_PER_ADDRESS: "1",
      RATE_LIMIT_RESET_PER_ADDRESS_AND_EMAIL: "1",
    });
    for (const limits of [
      createRateLimits(settings),
      createRateLimits(settings, { redis: redisClient(), prefix: `${prefix}${randomUUID()}:` }),
    ]) {
      const email = `${randomUUID()}@example.test`;
      expect(await countLoginAttempt(limits, "203.0.113.1", email, unknown)).toBe("allowed");
      expect(await countLoginAttempt(limits, "203.0.113.1", email, unknown)).toBe("allowed");
      expect(await countLoginAttempt(limits, "203.0.113.1", email, unknown)).not.toBe("allowed");
      // Another address for the same e-mail has its own address-and-e-mail count.
      expect(await countLoginAttempt(limits, "203.0.113.2", email, unknown)).toBe("allowed");
      await forgetLoginAttempts(limits, "203.0.113.1", email);
      expect(await countLoginAttempt(limits, "203.0.113.1", email, unknown)).toBe("allowed");

      expect(await limits.twoFactor.perAccount.hit("user-1")).toBe(true);
      expect(await limits.twoFactor.perAccount.hit("user-1")).toBe(false);
      expect(await limits.signup.perAddress.hit("203.0.113.1")).toBe(true);
      expect(await limits.signup.perAddress.hit("203.0.113.1")).toBe(false);
      expect(await limits.passwordReset.perAddressAndEmail.hit(email)).toBe(true);
      expect(await limits.passwordReset.perAddressAndEmail.hit(email)).toBe(false);
    }
  });

  it("count per e-mail across addresses", async () => {
    const limits = createRateLimits(settingsFrom({ RATE_LIMIT_LOGIN_PER_EMAIL: "2" }));
    const email = `${randomUUID()}@example.test`;
    expect(await countLoginAttempt(limits, "198.51.100.1", email, unknown)).toBe("allowed");
    expect(await countLoginAttempt(limits, "198.51.100.2", email, unknown)).toBe("allowed");
    expect(await countLoginAttempt(limits, "198.51.100.3", email.toUpperCase(), unknown)).not.toBe(
      "allowed",
    );
  });

  it("never lock a member out: 40 guesses from one address leave the e-mail open elsewhere, in memory and in Redis", async () => {
    const settings = settingsFrom({});
    for (const store of [
      undefined,
      { redis: redisClient(), prefix: `${prefix}${randomUUID()}:` },
    ]) {
      const limits = createRateLimits(settings, store);
      const victim = `${randomUUID()}@example.test`;
      const guesses = [];
      for (let i = 0; i < 40; i++)
        guesses.push(
          (await countLoginAttempt(limits, "203.0.113.66", victim, unknown)) === "allowed",
        );
      // The guessing address is stopped after its per-address-and-e-mail count...
      expect(guesses.filter(Boolean)).toHaveLength(10);
      // ...and the member, from another address, is not.
      expect(await countLoginAttempt(limits, "198.51.100.7", victim, unknown)).toBe("allowed");
    }
  });

  it("do not count an address the member signed in from against the e-mail's limit", async () => {
    const limits = createRateLimits(
      settingsFrom({
        RATE_LIMIT_LOGIN_PER_EMAIL: "3",
        RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL: "2",
      }),
    );
    const email = `${randomUUID()}@example.test`;
    // Guesses spread over many addresses use up the e-mail's limit...
    const spread = [];
    for (let i = 10; i < 16; i++)
      spread.push(await countLoginAttempt(limits, `203.0.113.${i}`, email, unknown));
    expect(spread.filter((a) => a === "allowed")).toHaveLength(3);
    expect(spread.slice(3)).toEqual(["account-limited", "account-limited", "account-limited"]);
    expect(await countLoginAttempt(limits, "203.0.113.99", email, unknown)).not.toBe("allowed");
    // ...but not for the member at home, an address the account signed in from.
    expect(await countLoginAttempt(limits, "192.0.2.1", email, known)).toBe("allowed");
  });

  it("count reset requests per address first: others cannot use up a member's own", async () => {
    const limits = createRateLimits(
      settingsFrom({
        RATE_LIMIT_RESET_PER_ADDRESS_AND_EMAIL: "2",
        RATE_LIMIT_RESET_PER_EMAIL: "3",
      }),
    );
    const email = `${randomUUID()}@example.test`;
    // One stranger asks for the member's links: stopped at the address's own count.
    const stranger = [];
    for (let i = 0; i < 5; i++)
      stranger.push(await countResetRequest(limits, "203.0.113.5", email, unknown));
    expect(stranger).toEqual([true, true, false, false, false]);
    // Strangers at many addresses use up the e-mail's limit: past it, each
    // address gets one link and no more...
    for (let i = 10; i < 20; i++) await countResetRequest(limits, `203.0.113.${i}`, email, unknown);
    expect(await countResetRequest(limits, "203.0.113.19", email, unknown)).toBe(false);
    // ...the member, from an address that signed in before, still gets links...
    expect(await countResetRequest(limits, "192.0.2.1", email, known)).toBe(true);
    expect(await countResetRequest(limits, "192.0.2.1", email, known)).toBe(true);
    // ...and from a new address, one link per window.
    expect(await countResetRequest(limits, "198.51.100.9", email, unknown)).toBe(true);
    expect(await countResetRequest(limits, "198.51.100.9", email, unknown)).toBe(false);
  });

  it("a member on a new device gets a reset link after strangers use up the e-mail's count", async () => {
    // The defaults: 3 per address and e-mail, 10 per e-mail.
    const limits = createRateLimits(settingsFrom({}));
    const email = `${randomUUID()}@example.test`;
    // Four strangers' addresses, three requests each: the e-mail's 10 are used up.
    const strangers = [];
    for (let i = 1; i <= 4; i++)
      for (let j = 0; j < 3; j++)
        strangers.push(await countResetRequest(limits, `203.0.113.${i}`, email, unknown));
    expect(strangers.filter(Boolean)).toHaveLength(11);
    expect(await countResetRequest(limits, "203.0.113.1", email, unknown)).toBe(false);
    // The member, at an address that never signed in to the account, still gets a link.
    expect(await countResetRequest(limits, "198.51.100.7", email, unknown)).toBe(true);
  });
});
