import type { Redis } from "ioredis";
import { inCluster } from "../cluster-ipc.server";
import { getEnv, type RateLimitSettings } from "../env.server";
import { countRateLimited } from "../metrics/metrics.server";
import { createPrimaryRateLimiter } from "../process-messages.server";
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
} from "../rate-limiters.server";
import { getRedis } from "../redis.server";

// The app's rate limits: which counters there are (per address, e-mail,
// account), where they are kept (rate-limiters.server.ts: memory, Redis; the
// cluster's primary: process-messages.server.ts) and how a sign-in or a reset
// request counts against them.

/** Counts the attempts `limiter` refuses in the metrics, under its name. */
function countingRefusals(name: string, limiter: RateLimiter): RateLimiter {
  return {
    async hit(key) {
      const allowed = await limiter.hit(key);
      if (!allowed) countRateLimited(name);
      return allowed;
    },
    reset: (key) => limiter.reset(key),
  };
}

/** One-time sign-in links mailed per e-mail and window: one, so nobody can flood a mailbox. */
export const signInLinksPerWindow = 1;

/** Reset links per client address and e-mail once the e-mail's own count is used up. */
export const resetLinksPastEmailLimit = 1;

/** Returns to /success a user may have looked up at Stripe per window: reloads and a few checkouts. */
export const checkoutReturnsPerWindow = 20;

export type RateLimits = {
  /**
   * Sign-in attempts: per address, per address and e-mail, and per e-mail from
   * addresses that never signed in to it; one-time sign-in links sent per e-mail.
   */
  login: {
    perAddress: RateLimiter;
    perAddressAndEmail: RateLimiter;
    perEmail: RateLimiter;
    linkPerEmail: RateLimiter;
  };
  /** Two-factor codes (authenticator or recovery) per account. */
  twoFactor: { perAccount: RateLimiter };
  /** Password checks of a signed-in account (/account), like a sign-in's per address and e-mail. */
  accountPassword: { perAccount: RateLimiter };
  /** Stripe lookups from /success per user (each asks Stripe's API). */
  checkoutReturn: { perUser: RateLimiter };
  /**
   * Reset links asked for: per client address, per client address and e-mail,
   * and per e-mail from addresses that never signed in to it; past the
   * e-mail's count, one per client address and e-mail.
   */
  passwordReset: {
    perAddress: RateLimiter;
    perAddressAndEmail: RateLimiter;
    perEmail: RateLimiter;
    afterEmailLimit: RateLimiter;
  };
  /** Accounts created per address. */
  signup: { perAddress: RateLimiter };
};

/**
 * The app's limiters from the operator's settings: in Redis when a client is
 * given, in the cluster's primary for "primary", else in this process.
 */
export function createRateLimits(
  settings: RateLimitSettings,
  store?: { redis: Redis; prefix: string } | "primary",
): RateLimits {
  const make = (name: string, limit: number, windowSeconds: number) => {
    const windowMs = windowSeconds * 1000;
    return countingRefusals(
      name,
      store === "primary"
        ? createPrimaryRateLimiter({ name, limit, windowMs })
        : store
          ? createRedisRateLimiter({ ...store, name, limit, windowMs })
          : createMemoryRateLimiter({ limit, windowMs }),
    );
  };
  const w = settings.windowSeconds;
  return {
    login: {
      perAddress: make("login-address", settings.loginPerAddress, w),
      perAddressAndEmail: make("login-address-email", settings.loginPerAddressAndEmail, w),
      perEmail: make("login-email", settings.loginPerEmail, w),
      linkPerEmail: make("login-link-email", signInLinksPerWindow, w),
    },
    twoFactor: { perAccount: make("two-factor-account", settings.twoFactorPerAccount, w) },
    accountPassword: {
      perAccount: make("account-password", settings.loginPerAddressAndEmail, w),
    },
    checkoutReturn: { perUser: make("checkout-return-user", checkoutReturnsPerWindow, w) },
    passwordReset: {
      perAddress: make("reset-address", settings.resetPerAddress, settings.resetWindowSeconds),
      perAddressAndEmail: make(
        "reset-address-email",
        settings.resetPerAddressAndEmail,
        settings.resetWindowSeconds,
      ),
      perEmail: make("reset-email", settings.resetPerEmail, settings.resetWindowSeconds),
      afterEmailLimit: make(
        "reset-address-email-late",
        resetLinksPastEmailLimit,
        settings.resetWindowSeconds,
      ),
    },
    signup: {
      perAddress: make("signup-address", settings.signupPerAddress, settings.signupWindowSeconds),
    },
  };
}

let limits: RateLimits | undefined;

/**
 * The process's limiters (env.server.ts settings): in Redis when REDIS_URL is
 * set, else shared through the primary when several processes serve
 * (WEB_CONCURRENCY > 1), else in this process.
 */
export function getRateLimits(): RateLimits {
  if (!limits) {
    const env = getEnv();
    const redis = getRedis();
    limits = createRateLimits(
      env.rateLimits,
      redis ? { redis, prefix: env.redisKeyPrefix } : inCluster() ? "primary" : undefined,
    );
  }
  return limits;
}

/**
 * What a sign-in attempt's counts allow: go on, refuse the address (it has
 * used up its own limits), or refuse the account from this address (the
 * e-mail's limit is used up: answered with a one-time sign-in link).
 */
export type LoginAllowance = "allowed" | "address-limited" | "account-limited";

/**
 * Counts one sign-in attempt, before the password is checked, so a burst of
 * parallel guesses is refused too.
 *
 * Nobody can lock a member out (docs/decisions/021-no-sign-in-lockout.md): the
 * e-mail's own limit holds back guesses spread over many addresses, but it
 * counts only attempts the address limits let through (one address adds at
 * most its per-address-and-e-mail count), and none from an address that has
 * signed in to this account before (`knownAddress`, asked only when needed).
 */
export async function countLoginAttempt(
  limits: RateLimits,
  address: string,
  email: string,
  knownAddress: () => Promise<boolean>,
): Promise<LoginAllowance> {
  const key = email.toLowerCase();
  const [byAddress, byPair] = await Promise.all([
    limits.login.perAddress.hit(address),
    limits.login.perAddressAndEmail.hit(`${address}|${key}`),
  ]);
  if (!byAddress || !byPair) return "address-limited";
  if (await knownAddress()) return "allowed";
  return (await limits.login.perEmail.hit(key)) ? "allowed" : "account-limited";
}

/** After a successful sign-in: the account's own counts start again (the address's do not). */
export async function forgetLoginAttempts(
  limits: RateLimits,
  address: string,
  email: string,
): Promise<void> {
  const key = email.toLowerCase();
  await Promise.all([
    limits.login.perAddressAndEmail.reset(`${address}|${key}`),
    limits.login.perEmail.reset(key),
  ]);
}

/**
 * Counts one reset-link request: per address, then per address and e-mail,
 * then (only from an address that never signed in to the account) per
 * e-mail. Requests from elsewhere cannot use up what the member's own address
 * may ask: once the e-mail's count is used up, each address still gets one
 * link for it per window (`afterEmailLimit`), so the member on a new device
 * is never refused, while a flood stays bounded by each sender's own counts.
 */
export async function countResetRequest(
  limits: RateLimits,
  address: string,
  email: string,
  knownAddress: () => Promise<boolean>,
): Promise<boolean> {
  const key = email.toLowerCase();
  if (!(await limits.passwordReset.perAddress.hit(address))) return false;
  if (!(await limits.passwordReset.perAddressAndEmail.hit(`${address}|${key}`))) return false;
  if (await knownAddress()) return true;
  if (await limits.passwordReset.perEmail.hit(key)) return true;
  return limits.passwordReset.afterEmailLimit.hit(`${address}|${key}`);
}

export const tooManyAttempts = "Too many attempts. Please wait a few minutes and try again.";
