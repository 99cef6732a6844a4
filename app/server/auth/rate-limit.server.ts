import { createHash } from "node:crypto";
import { isIPv4 } from "node:net";
import type { Redis } from "ioredis";
import { askPrimary, inCluster } from "../cluster-ipc.server";
import { getEnv, type RateLimitSettings } from "../env.server";
import { logger } from "../logger.server";
import { countRateLimited } from "../metrics/metrics.server";
import { getRedis } from "../redis.server";

/**
 * Fixed-window attempt counters. In process memory by default; shared
 * through Redis when REDIS_URL is set, so several server copies behind a load
 * balancer count one limit together.
 */
export type RateLimiter = {
  /** Counts one attempt; false once the key has used up its window. */
  hit(key: string): Promise<boolean>;
  /** Forgets the key (after a success). */
  reset(key: string): Promise<void>;
};

type LimiterOptions = { limit: number; windowMs: number };

/**
 * Counters in this process's memory. Memory is bounded: at most `maxKeys`
 * keys, the oldest dropped first, and expired windows swept on a timer,
 * never while answering a request.
 */
export function createMemoryRateLimiter(
  options: LimiterOptions & { maxKeys?: number; now?: () => number },
): RateLimiter {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 50_000;
  const windows = new Map<string, { start: number; count: number }>();

  const sweep = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (t - w.start >= options.windowMs) windows.delete(key);
  }, options.windowMs);
  sweep.unref();

  return {
    async hit(key) {
      const t = now();
      let w = windows.get(key);
      if (!w || t - w.start >= options.windowMs) {
        windows.delete(key);
        if (windows.size >= maxKeys) {
          const oldest = windows.keys().next().value;
          if (oldest !== undefined) windows.delete(oldest);
        }
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      return w.count <= options.limit;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

// One round trip, atomic: the first hit of a window starts its expiry.
const hitScript = `
local count = redis.call("INCR", KEYS[1])
if count == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end
return count`;

/**
 * Counters in Redis, shared by every process using the same `prefix`: one
 * key per limiter and attempt key (hashed, so no e-mail address is stored),
 * expiring with its window. If Redis fails, the attempt is counted in this
 * process's memory instead (and the failure logged): the limit still holds
 * per process rather than opening up or refusing every sign-in.
 */
export function createRedisRateLimiter(
  options: LimiterOptions & { redis: Redis; prefix: string; name: string },
): RateLimiter {
  const { redis, limit, windowMs } = options;
  const fallback = createMemoryRateLimiter({ limit, windowMs });
  const keyOf = (key: string) =>
    `${options.prefix}rate:${options.name}:${createHash("sha256").update(key).digest("base64url")}`;
  return {
    async hit(key) {
      try {
        const count = Number(await redis.eval(hitScript, 1, keyOf(key), String(windowMs)));
        return count <= limit;
      } catch (error) {
        logger.error({ err: error, limiter: options.name }, "rate limit store unavailable");
        return fallback.hit(key);
      }
    },
    async reset(key) {
      await fallback.reset(key);
      try {
        await redis.del(keyOf(key));
      } catch (error) {
        logger.error({ err: error, limiter: options.name }, "rate limit store unavailable");
      }
    },
  };
}

/** How long a server process waits for the primary's counters before counting alone. */
const primaryTimeoutMs = 1000;

/**
 * Counters kept by the cluster's primary (cluster.server.ts) for every server
 * process it started (WEB_CONCURRENCY > 1) when there is no Redis: one limit
 * for the whole server, as with one process. If the primary does not answer,
 * the attempt is counted in this process's memory (and the failure logged).
 */
export function createPrimaryRateLimiter(options: LimiterOptions & { name: string }): RateLimiter {
  const fallback = createMemoryRateLimiter(options);
  const ask = (op: "hit" | "reset", key: string) =>
    askPrimary<boolean>(
      {
        kind: "rate",
        op,
        name: options.name,
        key,
        limit: options.limit,
        windowMs: options.windowMs,
      },
      primaryTimeoutMs,
    );
  return {
    async hit(key) {
      try {
        return await ask("hit", key);
      } catch (error) {
        logger.error({ err: error, limiter: options.name }, "rate limit store unavailable");
        return fallback.hit(key);
      }
    },
    async reset(key) {
      await fallback.reset(key);
      await ask("reset", key).catch((error: unknown) =>
        logger.error({ err: error, limiter: options.name }, "rate limit store unavailable"),
      );
    },
  };
}

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

/**
 * The client address server.ts put in the request (never the client's own
 * claim), as a rate-limit key: IPv6 addresses by their /64, which one
 * subscriber usually holds whole.
 */
export function clientAddress(request: Request): string {
  const address = request.headers.get("x-client-ip") ?? "unknown";
  if (address.startsWith("::ffff:") && isIPv4(address.slice(7))) return address.slice(7);
  if (!address.includes(":")) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

function expandIPv6(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array(Math.max(0, missing)).fill("0"), ...right].map((h) =>
    h.toLowerCase().replace(/^0+(?=.)/, ""),
  );
}
