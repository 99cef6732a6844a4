import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv as parseEnvFile } from "node:util";
import { type FunnelProductKey, funnelProductKeys, site } from "../config/site";
import { z } from "../lib/zod";
import { setLogLevel } from "./logger.server";

/** Empty strings in the environment count as unset. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

/** A positive whole number setting (a count or a number of seconds). */
const positiveInt = (fallback: number) =>
  optional(z.coerce.number().int().min(1).max(10_000_000)).default(fallback);

/** An http(s) origin: scheme, host and port, no path. */
const httpOrigin = () =>
  z
    .url({ protocol: /^https?$/ })
    .refine((v) => new URL(v).origin === v.replace(/\/$/, ""), "must be an origin (no path)");

/** A comma-separated list, its items trimmed, empty ones dropped. */
const commaList = () =>
  z.string().transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );

const envSchema = z.object({
  NODE_ENV: optional(z.enum(["development", "production", "test"])).default("development"),
  PORT: optional(z.coerce.number().int().min(1).max(65535)).default(3000),
  HOST: optional(z.string().min(1)).default("0.0.0.0"),
  PUBLIC_ORIGIN: optional(httpOrigin()),
  DATA_DIR: optional(z.string().min(1)).default("./data"),
  DATABASE_URL: optional(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres://")
      .refine(
        (v) => URL.canParse(v),
        "is not a valid URL (percent-encode @ : / ? # in the user name and password)",
      ),
  ),
  BETTER_AUTH_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  TRUSTED_PROXIES: optional(commaList().pipe(z.array(z.union([z.ipv4(), z.ipv6()])))).default([]),
  SHUTDOWN_DELAY_SECONDS: optional(z.coerce.number().min(0).max(60)),
  TEST_CHECKOUT: optional(z.enum(["auto", "on", "off"])).default("auto"),
  REQUIRE_ADMIN_TWO_FACTOR: optional(z.enum(["auto", "on", "off"])).default("auto"),
  ADMIN_PROOF_MINUTES: optional(z.coerce.number().int().min(0).max(1440)).default(15),
  STRIPE_SECRET_KEY: optional(
    z.string().regex(/^(sk|rk)_(test|live)_\w+$/, "must be sk_... or rk_..."),
  ),
  STRIPE_PRICE_ID: optional(z.string().regex(/^price_\w+$/, "must be price_...")),
  STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_\w+$/, "must be whsec_...")),
  STRIPE_API_URL: optional(httpOrigin()),
  LOG_LEVEL: optional(
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
  ).default("info"),
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" })),
  SMTP_FROM: optional(z.string().min(3)).default(`"${site.brand}" <${site.supportEmail}>`),
  EMAIL_MAX_ATTEMPTS: optional(z.coerce.number().int().min(1).max(100)).default(8),
  EMAIL_RATE_PER_MINUTE: optional(z.coerce.number().int().min(1).max(100_000)).default(600),
  WARRIORPLUS_SECURITY_KEY: optional(z.string().min(8, "must be at least 8 characters")),
  WARRIORPLUS_PRODUCTS: optional(
    commaList()
      .transform((pairs) => pairs.map((pair) => pair.split(":").map((s) => s.trim())))
      .pipe(
        z.array(
          z.tuple([
            z.string().min(1, "each entry must be item:product"),
            z.enum(funnelProductKeys as [FunnelProductKey, ...FunnelProductKey[]], {
              error: `product must be one of ${funnelProductKeys.join(", ")}`,
            }),
          ]),
        ),
      ),
  ).default([]),
  REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://")),
  REDIS_KEY_PREFIX: optional(z.string().min(1)).default("ailabs:"),
  APP_BUILDER_URL: optional(z.url({ protocol: /^https?$/ })).default("https://bolt.new"),
  DISCORD_INVITE_URL: optional(z.url({ protocol: /^https?$/ })),
  WEB_CONCURRENCY: optional(z.coerce.number().int().min(1).max(256)),
  METRICS_TOKEN: optional(z.string().min(16, "must be at least 16 characters")),
  // Set by the primary process for each server process it starts (cluster.server.ts), not by hand.
  SERVER_PROCESS_INDEX: optional(z.coerce.number().int().min(0)),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(15 * 60),
  RATE_LIMIT_LOGIN_PER_ADDRESS: positiveInt(100),
  RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL: positiveInt(10),
  RATE_LIMIT_LOGIN_PER_EMAIL: positiveInt(30),
  RATE_LIMIT_TWO_FACTOR_PER_ACCOUNT: positiveInt(10),
  RATE_LIMIT_SIGNUP_PER_ADDRESS: positiveInt(100),
  RATE_LIMIT_SIGNUP_WINDOW_SECONDS: positiveInt(60 * 60),
  RATE_LIMIT_RESET_PER_ADDRESS_AND_EMAIL: positiveInt(3),
  RATE_LIMIT_RESET_PER_EMAIL: positiveInt(10),
  RATE_LIMIT_RESET_PER_ADDRESS: positiveInt(20),
  RATE_LIMIT_RESET_WINDOW_SECONDS: positiveInt(60 * 60),
});

/** Attempts allowed per fixed window (rate-limit.server.ts). */
export type RateLimitSettings = {
  /** Window of the sign-in and two-factor counts. */
  windowSeconds: number;
  loginPerAddress: number;
  loginPerAddressAndEmail: number;
  loginPerEmail: number;
  twoFactorPerAccount: number;
  signupPerAddress: number;
  signupWindowSeconds: number;
  /**
   * Reset links asked for per reset window: per client address and e-mail, per
   * e-mail from addresses that never signed in to it, and per client address.
   */
  resetPerAddressAndEmail: number;
  resetPerEmail: number;
  resetPerAddress: number;
  resetWindowSeconds: number;
};

/** Stripe settings (Env.stripe). Set together or not at all. */
export type StripeConfig = {
  secretKey: string;
  /** The Price of the Lifetime Access plan (price_...). */
  priceId: string;
  /** Signing secret of the webhook endpoint (whsec_...). */
  webhookSecret: string;
  /** A local stand-in for Stripe's API (tests, offline runs); unset in production. */
  apiUrl?: string;
};

export type Env = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  publicOrigin: string;
  /** PGlite data directory, or `memory://` for a throwaway database. */
  dataDir: string;
  databaseUrl: string | undefined;
  authSecret: string;
  logLevel: string;
  /** Addresses of reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  /**
   * After SIGTERM, how long the server keeps listening and answering on open
   * connections while /readyz fails, so that a proxy's health check takes it
   * out before it closes them: 5 s behind a proxy (TRUSTED_PROXIES set), else
   * 0, unless SHUTDOWN_DELAY_SECONDS says.
   */
  shutdownDelayMs: number;
  /**
   * The built-in test checkout grants access without payment: on for a local
   * origin (localhost), off for any other unless TEST_CHECKOUT=on, and always
   * off when Stripe is configured.
   */
  testCheckout: boolean;
  /**
   * TEST_CHECKOUT=on: the test checkout pays for any client. Otherwise it
   * pays only for a request from this machine (a loopback client address).
   */
  testCheckoutForAnyClient: boolean;
  /**
   * Admins must turn two-factor on before /admin or any admin action works:
   * on for an https PUBLIC_ORIGIN (a real deployment), off on localhost,
   * unless REQUIRE_ADMIN_TWO_FACTOR says on or off.
   */
  requireAdminTwoFactor: boolean;
  /**
   * How long a proof (sign-in, password, two-factor code) lets an admin make
   * sensitive changes before "confirm it's you" asks again (ADMIN_PROOF_MINUTES).
   */
  adminProofMinutes: number;
  /** Stripe Checkout and webhooks, when STRIPE_SECRET_KEY is set. */
  stripe: StripeConfig | undefined;
  /** SMTP server for outgoing mail; unset: messages are logged instead. */
  smtpUrl: string | undefined;
  /** The From header of outgoing mail. */
  smtpFrom: string;
  /** Delivery attempts per message before the sender gives up on it. */
  emailMaxAttempts: number;
  /** Most marketing messages (broadcasts) sent a minute; transactional mail is not held by it. */
  emailRatePerMinute: number;
  /** The WarriorPlus IPN endpoint is on when this is set. */
  warriorplus: WarriorPlusConfig | undefined;
  /** When set, rate-limit counters are shared through this Redis. */
  redisUrl: string | undefined;
  /** Prefix of every key this app writes to Redis. */
  redisKeyPrefix: string;
  rateLimits: RateLimitSettings;
  /** The external app builder that /app-builder hands the prompt to. */
  appBuilderUrl: string;
  /** The members' Discord invite; unset: the bonuses page says it is coming soon. */
  discordInviteUrl: string | undefined;
  /**
   * Server processes sharing the port (WEB_CONCURRENCY): the number of cores
   * on PostgreSQL, 1 on the embedded database (one process owns its files).
   */
  webConcurrency: number;
  /**
   * This process's place among them (0 to webConcurrency - 1), set by the
   * primary; undefined when one process serves alone. Process 0 runs the
   * background work (the e-mail sender).
   */
  processIndex: number | undefined;
  /** Bearer token that opens /metrics to clients beyond this machine; unset: loopback only. */
  metricsToken: string | undefined;
};

export type WarriorPlusConfig = {
  securityKey: string;
  /** WarriorPlus item number (WP_ITEM_NUMBER) to our product key. */
  products: ReadonlyMap<string, FunnelProductKey>;
};

export class EnvError extends Error {}

/**
 * Parses and checks the environment once. Throws EnvError naming every bad
 * variable. Without BETTER_AUTH_SECRET on the embedded database, a random
 * secret is generated on first start and kept in DATA_DIR (mode 0600).
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const e = parseEnv(envSchema, source);
  const problems: string[] = [];
  if (e.DATABASE_URL && !e.BETTER_AUTH_SECRET) {
    problems.push("BETTER_AUTH_SECRET: required when DATABASE_URL is set");
  }
  const stripeVars = ["STRIPE_SECRET_KEY", "STRIPE_PRICE_ID", "STRIPE_WEBHOOK_SECRET"] as const;
  const stripeSet = stripeVars.filter((name) => e[name] !== undefined);
  if (stripeSet.length > 0) {
    for (const name of stripeVars) {
      if (e[name] === undefined) problems.push(`${name}: required with ${stripeSet.join(", ")}`);
    }
  }
  if (e.WARRIORPLUS_SECURITY_KEY && e.WARRIORPLUS_PRODUCTS.length === 0) {
    problems.push("WARRIORPLUS_PRODUCTS: required when WARRIORPLUS_SECURITY_KEY is set");
  }
  if (!e.DATABASE_URL && e.WEB_CONCURRENCY !== undefined && e.WEB_CONCURRENCY > 1) {
    problems.push(
      `WEB_CONCURRENCY: ${e.WEB_CONCURRENCY} server processes need PostgreSQL (DATABASE_URL); the embedded database is opened by one process only. Unset WEB_CONCURRENCY or set it to 1.`,
    );
  }
  if (problems.length > 0) throw invalidEnvironment(problems);

  const dataDir = e.DATA_DIR === "memory://" ? e.DATA_DIR : path.resolve(e.DATA_DIR);
  const publicOrigin = (e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  const stripe: StripeConfig | undefined =
    e.STRIPE_SECRET_KEY && e.STRIPE_PRICE_ID && e.STRIPE_WEBHOOK_SECRET
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          priceId: e.STRIPE_PRICE_ID,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          apiUrl: e.STRIPE_API_URL?.replace(/\/$/, ""),
        }
      : undefined;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicOrigin,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    authSecret: e.BETTER_AUTH_SECRET ?? readOrCreateSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    trustedProxies: e.TRUSTED_PROXIES,
    shutdownDelayMs: (e.SHUTDOWN_DELAY_SECONDS ?? (e.TRUSTED_PROXIES.length > 0 ? 5 : 0)) * 1000,
    // With a real card provider the free test checkout must not exist at all.
    testCheckout:
      !stripe &&
      (e.TEST_CHECKOUT === "auto" ? isLocalOrigin(publicOrigin) : e.TEST_CHECKOUT === "on"),
    testCheckoutForAnyClient: !stripe && e.TEST_CHECKOUT === "on",
    requireAdminTwoFactor:
      e.REQUIRE_ADMIN_TWO_FACTOR === "auto"
        ? publicOrigin.startsWith("https://")
        : e.REQUIRE_ADMIN_TWO_FACTOR === "on",
    adminProofMinutes: e.ADMIN_PROOF_MINUTES,
    stripe,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    emailMaxAttempts: e.EMAIL_MAX_ATTEMPTS,
    emailRatePerMinute: e.EMAIL_RATE_PER_MINUTE,
    warriorplus: e.WARRIORPLUS_SECURITY_KEY
      ? {
          securityKey: e.WARRIORPLUS_SECURITY_KEY,
          products: new Map(e.WARRIORPLUS_PRODUCTS),
        }
      : undefined,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    appBuilderUrl: e.APP_BUILDER_URL,
    discordInviteUrl: e.DISCORD_INVITE_URL,
    webConcurrency: e.WEB_CONCURRENCY ?? (e.DATABASE_URL ? os.availableParallelism() : 1),
    processIndex: e.SERVER_PROCESS_INDEX,
    metricsToken: e.METRICS_TOKEN,
    rateLimits: {
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      loginPerAddress: e.RATE_LIMIT_LOGIN_PER_ADDRESS,
      loginPerAddressAndEmail: e.RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL,
      loginPerEmail: e.RATE_LIMIT_LOGIN_PER_EMAIL,
      twoFactorPerAccount: e.RATE_LIMIT_TWO_FACTOR_PER_ACCOUNT,
      signupPerAddress: e.RATE_LIMIT_SIGNUP_PER_ADDRESS,
      signupWindowSeconds: e.RATE_LIMIT_SIGNUP_WINDOW_SECONDS,
      resetPerAddressAndEmail: e.RATE_LIMIT_RESET_PER_ADDRESS_AND_EMAIL,
      resetPerEmail: e.RATE_LIMIT_RESET_PER_EMAIL,
      resetPerAddress: e.RATE_LIMIT_RESET_PER_ADDRESS,
      resetWindowSeconds: e.RATE_LIMIT_RESET_WINDOW_SECONDS,
    },
  };
}

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === "::1";
}

/** Whether HOST (the listening address) is reachable from this machine only. */
export function listensOnLoopbackOnly(host: string): boolean {
  return host === "localhost" || isLoopbackAddress(host);
}

function isLocalOrigin(origin: string): boolean {
  const host = new URL(origin).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

function readOrCreateSecret(dataDir: string): string {
  if (dataDir === "memory://") return randomBytes(32).toString("base64url");
  try {
    return readOrCreateSecretFile(dataDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS" || code === "ENOTDIR") {
      throw invalidEnvironment([
        `DATA_DIR: ${dataDir} cannot be written by this user (${code} on ${(error as NodeJS.ErrnoException).path ?? dataDir}); make it the server's user's (chown), or set BETTER_AUTH_SECRET`,
      ]);
    }
    throw error;
  }
}

function readOrCreateSecretFile(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // Written whole under a temporary name, then linked into place: a reader never sees half
    // a secret, and of two processes starting at once the first link wins.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(temp);
    }
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) {
    throw invalidEnvironment([`${file}: the auth secret must be at least 32 characters`]);
  }
  return secret;
}

let cached: Env | undefined;

/** The process's environment, parsed on first use. */
export function getEnv(): Env {
  if (!cached) {
    cached = loadEnv();
    setLogLevel(cached.logLevel);
  }
  return cached;
}

/** Thrown with every problem found, on one line: "Invalid environment: NAME: what; NAME: what". */
function invalidEnvironment(problems: readonly string[]): EnvError {
  return new EnvError(`Invalid environment: ${problems.join("; ")}`);
}

/** The variables `schema` names, parsed from `source`; throws EnvError naming each bad one. */
function parseEnv<T extends z.ZodType>(schema: T, source: Record<string, string | undefined>) {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw invalidEnvironment(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  return parsed.data as z.output<T>;
}

/**
 * Only what reaching the database needs (`npm run db:migrate`): DATA_DIR and
 * DATABASE_URL, checked as loadEnv checks them. No auth secret is read or made.
 */
export function loadDatabaseEnv(
  source: Record<string, string | undefined> = process.env,
): Pick<Env, "dataDir" | "databaseUrl"> {
  const e = parseEnv(envSchema.pick({ DATA_DIR: true, DATABASE_URL: true }), source);
  return {
    dataDir: e.DATA_DIR === "memory://" ? e.DATA_DIR : path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
  };
}

/**
 * Reads `.env` in the working directory into `target` (process.env), when
 * there is one, with Node's own parser (the format of `node --env-file`). A
 * variable already set, even to an empty value, keeps its value: the
 * environment (systemd's EnvironmentFile, the shell) wins over the file.
 * Called by the entry points (server.ts, dev-server.ts, cli.ts,
 * migrate-cli.ts) before the environment is read; tests never read it.
 * Returns the names it set.
 */
export function loadDotEnv(
  file = path.resolve(".env"),
  target: Record<string, string | undefined> = process.env,
): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return [];
    throw invalidEnvironment([`${file}: cannot be read (${code ?? (error as Error).message})`]);
  }
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnvFile(text))) {
    if (name in target) continue;
    target[name] = value;
    set.push(name);
  }
  return set;
}

/**
 * What an operator must know at start, one line each: e-mail goes nowhere on
 * a real deployment (an https origin) without SMTP_URL.
 */
export function startWarnings(env: Pick<Env, "publicOrigin" | "smtpUrl">): string[] {
  return mailIsOff(env)
    ? [
        "SMTP_URL is not set: e-mail is not being sent (password resets, receipts, marketplace logins are only logged)",
      ]
    : [];
}

/** Production (an https origin) without SMTP_URL: messages are logged, never delivered. */
export function mailIsOff(env: Pick<Env, "publicOrigin" | "smtpUrl">): boolean {
  return env.publicOrigin.startsWith("https://") && !env.smtpUrl;
}
