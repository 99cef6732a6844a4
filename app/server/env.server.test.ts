import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  EnvError,
  isLoopbackAddress,
  listensOnLoopbackOnly,
  loadDatabaseEnv,
  loadDotEnv,
  loadEnv,
  mailIsOff,
  startWarnings,
} from "./env.server";

const secret = "s".repeat(40);

describe("loadEnv", () => {
  it("defaults: port 3000, ./data, origin on that port, embedded database", () => {
    const env = loadEnv({ BETTER_AUTH_SECRET: secret });
    expect(env.port).toBe(3000);
    expect(env.dataDir).toBe(path.resolve("./data"));
    expect(env.publicOrigin).toBe("http://localhost:3000");
    expect(env.databaseUrl).toBeUndefined();
  });

  it("derives the origin from PORT and strips a trailing slash from PUBLIC_ORIGIN", () => {
    expect(loadEnv({ PORT: "4100", BETTER_AUTH_SECRET: secret }).publicOrigin).toBe(
      "http://localhost:4100",
    );
    expect(
      loadEnv({ PUBLIC_ORIGIN: "https://ailabs.app/", BETTER_AUTH_SECRET: secret }).publicOrigin,
    ).toBe("https://ailabs.app");
  });

  it("app builder and Discord invite: defaults, URLs checked", () => {
    const env = loadEnv({ BETTER_AUTH_SECRET: secret, DISCORD_INVITE_URL: "" });
    expect(env.appBuilderUrl).toBe("https://bolt.new");
    expect(env.discordInviteUrl).toBeUndefined();
    const set = loadEnv({
      BETTER_AUTH_SECRET: secret,
      APP_BUILDER_URL: "https://builder.example.com/new",
      DISCORD_INVITE_URL: "https://discord.gg/abc123",
    });
    expect(set.appBuilderUrl).toBe("https://builder.example.com/new");
    expect(set.discordInviteUrl).toBe("https://discord.gg/abc123");
    expect(() =>
      loadEnv({ BETTER_AUTH_SECRET: secret, APP_BUILDER_URL: "bolt", DISCORD_INVITE_URL: "x" }),
    ).toThrow(/APP_BUILDER_URL[\s\S]*DISCORD_INVITE_URL/);
  });

  it("names every bad variable", () => {
    expect(() =>
      loadEnv({
        PORT: "eighty",
        DATABASE_URL: "mysql://x",
        PUBLIC_ORIGIN: "ftp://x",
        BETTER_AUTH_SECRET: secret,
      }),
    ).toThrowError(/PORT[\s\S]*PUBLIC_ORIGIN|PUBLIC_ORIGIN[\s\S]*PORT/);
    try {
      loadEnv({ PORT: "eighty", DATABASE_URL: "mysql://x", BETTER_AUTH_SECRET: secret });
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      expect((error as Error).message).toContain("PORT");
      expect((error as Error).message).toContain("DATABASE_URL");
    }
  });

  it("refuses an origin with a path", () => {
    expect(() =>
      loadEnv({ PUBLIC_ORIGIN: "https://ailabs.app/app", BETTER_AUTH_SECRET: secret }),
    ).toThrow(/PUBLIC_ORIGIN/);
  });

  it("server processes: one per core on PostgreSQL, one on the embedded database, more refused there", () => {
    const pgUrl = "postgres://localhost/x";
    expect(loadEnv({ BETTER_AUTH_SECRET: secret }).webConcurrency).toBe(1);
    expect(loadEnv({ DATABASE_URL: pgUrl, BETTER_AUTH_SECRET: secret }).webConcurrency).toBe(
      os.availableParallelism(),
    );
    expect(
      loadEnv({ DATABASE_URL: pgUrl, BETTER_AUTH_SECRET: secret, WEB_CONCURRENCY: "3" })
        .webConcurrency,
    ).toBe(3);
    expect(loadEnv({ BETTER_AUTH_SECRET: secret, WEB_CONCURRENCY: "1" }).webConcurrency).toBe(1);
    expect(() => loadEnv({ BETTER_AUTH_SECRET: secret, WEB_CONCURRENCY: "2" })).toThrow(
      "WEB_CONCURRENCY: 2 server processes need PostgreSQL (DATABASE_URL)",
    );
    expect(() =>
      loadEnv({ DATABASE_URL: pgUrl, BETTER_AUTH_SECRET: secret, WEB_CONCURRENCY: "0" }),
    ).toThrow("WEB_CONCURRENCY");
    expect(loadEnv({ BETTER_AUTH_SECRET: secret }).processIndex).toBeUndefined();
    expect(loadEnv({ BETTER_AUTH_SECRET: secret, SERVER_PROCESS_INDEX: "1" }).processIndex).toBe(1);
  });

  it("METRICS_TOKEN: unset by default, at least 16 characters", () => {
    expect(loadEnv({ BETTER_AUTH_SECRET: secret }).metricsToken).toBeUndefined();
    expect(
      loadEnv({ BETTER_AUTH_SECRET: secret, METRICS_TOKEN: "a-long-enough-token" }).metricsToken,
    ).toBe("a-long-enough-token");
    expect(() => loadEnv({ BETTER_AUTH_SECRET: secret, METRICS_TOKEN: "short" })).toThrow(
      "METRICS_TOKEN: must be at least 16 characters",
    );
  });

  it("requires the auth secret with DATABASE_URL", () => {
    expect(() => loadEnv({ DATABASE_URL: "postgres://localhost/x" })).toThrow(
      /BETTER_AUTH_SECRET: required/,
    );
    expect(() =>
      loadEnv({ DATABASE_URL: "postgres://localhost/x", BETTER_AUTH_SECRET: "short" }),
    ).toThrow(/BETTER_AUTH_SECRET/);
  });

  it("generates a secret once in DATA_DIR, readable by the owner only, and keeps it", () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "env-")), "nested", "data");
    const first = loadEnv({ DATA_DIR: dataDir });
    const second = loadEnv({ DATA_DIR: dataDir });
    expect(first.authSecret).toHaveLength(43);
    expect(second.authSecret).toBe(first.authSecret);
    const file = path.join(dataDir, "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first.authSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("treats empty variables as unset", () => {
    expect(loadEnv({ PORT: "", DATABASE_URL: "", BETTER_AUTH_SECRET: secret }).port).toBe(3000);
  });

  it("turns the test checkout on for a local origin only, unless told", () => {
    expect(loadEnv({ BETTER_AUTH_SECRET: secret }).testCheckout).toBe(true);
    expect(
      loadEnv({ BETTER_AUTH_SECRET: secret, PUBLIC_ORIGIN: "https://ailabs.app" }).testCheckout,
    ).toBe(false);
    expect(
      loadEnv({
        BETTER_AUTH_SECRET: secret,
        PUBLIC_ORIGIN: "https://ailabs.app",
        TEST_CHECKOUT: "on",
      }).testCheckout,
    ).toBe(true);
    expect(loadEnv({ BETTER_AUTH_SECRET: secret, TEST_CHECKOUT: "off" }).testCheckout).toBe(false);
    // Only TEST_CHECKOUT=on lets it pay for clients beyond this machine.
    expect(loadEnv({ BETTER_AUTH_SECRET: secret }).testCheckoutForAnyClient).toBe(false);
    expect(
      loadEnv({ BETTER_AUTH_SECRET: secret, TEST_CHECKOUT: "on" }).testCheckoutForAnyClient,
    ).toBe(true);
    expect(() => loadEnv({ BETTER_AUTH_SECRET: secret, TEST_CHECKOUT: "yes" })).toThrow(
      /TEST_CHECKOUT/,
    );
  });

  const stripeVars = {
    STRIPE_SECRET_KEY: "sk_test_123",
    STRIPE_PRICE_ID: "price_123",
    STRIPE_WEBHOOK_SECRET: "whsec_123",
  };

  it("configures Stripe only with key, price and webhook secret together", () => {
    expect(loadEnv({ BETTER_AUTH_SECRET: secret }).stripe).toBeUndefined();
    expect(loadEnv({ BETTER_AUTH_SECRET: secret, ...stripeVars }).stripe).toEqual({
      secretKey: "sk_test_123",
      priceId: "price_123",
      webhookSecret: "whsec_123",
      apiUrl: undefined,
    });
    expect(() =>
      loadEnv({ BETTER_AUTH_SECRET: secret, STRIPE_SECRET_KEY: "sk_test_123" }),
    ).toThrowError(/STRIPE_PRICE_ID: required[\s\S]*STRIPE_WEBHOOK_SECRET: required/);
    expect(() =>
      loadEnv({ BETTER_AUTH_SECRET: secret, ...stripeVars, STRIPE_PRICE_ID: "prod_1" }),
    ).toThrow(/STRIPE_PRICE_ID/);
    expect(() =>
      loadEnv({ BETTER_AUTH_SECRET: secret, ...stripeVars, STRIPE_API_URL: "ftp://x" }),
    ).toThrow(/STRIPE_API_URL/);
    expect(
      loadEnv({
        BETTER_AUTH_SECRET: secret,
        ...stripeVars,
        STRIPE_API_URL: "http://127.0.0.1:12111/",
      }).stripe?.apiUrl,
    ).toBe("http://127.0.0.1:12111");
  });

  it("turns the test checkout off whenever Stripe is configured", () => {
    expect(loadEnv({ BETTER_AUTH_SECRET: secret, ...stripeVars }).testCheckout).toBe(false);
    expect(
      loadEnv({ BETTER_AUTH_SECRET: secret, ...stripeVars, TEST_CHECKOUT: "on" }).testCheckout,
    ).toBe(false);
  });

  it("parses TRUSTED_PROXIES as a list of addresses", () => {
    expect(
      loadEnv({ BETTER_AUTH_SECRET: secret, TRUSTED_PROXIES: "10.0.0.2, ::1" }).trustedProxies,
    ).toEqual(["10.0.0.2", "::1"]);
    expect(() => loadEnv({ BETTER_AUTH_SECRET: secret, TRUSTED_PROXIES: "proxy.local" })).toThrow(
      /TRUSTED_PROXIES/,
    );
  });

  it("waits 5 s after SIGTERM behind a proxy, none without, or SHUTDOWN_DELAY_SECONDS", () => {
    const delay = (vars: Record<string, string>) =>
      loadEnv({ BETTER_AUTH_SECRET: secret, ...vars }).shutdownDelayMs;
    expect(delay({})).toBe(0);
    expect(delay({ TRUSTED_PROXIES: "10.0.0.2" })).toBe(5000);
    expect(delay({ TRUSTED_PROXIES: "10.0.0.2", SHUTDOWN_DELAY_SECONDS: "1.5" })).toBe(1500);
    expect(delay({ SHUTDOWN_DELAY_SECONDS: "3" })).toBe(3000);
    expect(() => delay({ SHUTDOWN_DELAY_SECONDS: "-1" })).toThrow(/SHUTDOWN_DELAY_SECONDS/);
  });

  it("refuses a secret file that is too short", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "env-"));
    writeFileSync(path.join(dataDir, "auth-secret"), "short\n");
    expect(() => loadEnv({ DATA_DIR: dataDir })).toThrow(/at least 32 characters/);
  });

  it("mail: logged without SMTP_URL, From names the brand and support address, 8 attempts", () => {
    const env = loadEnv({ BETTER_AUTH_SECRET: secret });
    expect(env.smtpUrl).toBeUndefined();
    expect(env.smtpFrom).toBe('"AI Labs" <support@ailabs.app>');
    expect(env.emailMaxAttempts).toBe(8);
    expect(() => loadEnv({ BETTER_AUTH_SECRET: secret, SMTP_URL: "http://mail" })).toThrowError(
      /SMTP_URL/,
    );
    expect(
      loadEnv({ BETTER_AUTH_SECRET: secret, SMTP_URL: "smtps://u:p@mail.example:465" }).smtpUrl,
    ).toBe("smtps://u:p@mail.example:465");
  });

  it("WarriorPlus: off without a key; the product map is parsed and checked", () => {
    expect(loadEnv({ BETTER_AUTH_SECRET: secret }).warriorplus).toBeUndefined();
    const env = loadEnv({
      BETTER_AUTH_SECRET: secret,
      WARRIORPLUS_SECURITY_KEY: "k".repeat(16),
      WARRIORPLUS_PRODUCTS: "wso_abc:lifetime-access, wso_def:bump-vip,wso_ghi:white-label",
    });
    expect(env.warriorplus?.products.get("wso_def")).toBe("bump-vip");
    expect(env.warriorplus?.products.size).toBe(3);
    expect(() =>
      loadEnv({ BETTER_AUTH_SECRET: secret, WARRIORPLUS_SECURITY_KEY: "k".repeat(16) }),
    ).toThrowError(/WARRIORPLUS_PRODUCTS: required/);
    expect(() =>
      loadEnv({
        BETTER_AUTH_SECRET: secret,
        WARRIORPLUS_SECURITY_KEY: "k".repeat(16),
        WARRIORPLUS_PRODUCTS: "wso_abc:gold-plan",
      }),
    ).toThrowError(/WARRIORPLUS_PRODUCTS[\s\S]*product must be one of/);
  });
});

describe("REQUIRE_ADMIN_TWO_FACTOR", () => {
  it("is on for an https origin and off on localhost unless set, like the test checkout", () => {
    const secret = "x".repeat(40);
    const required = (vars: Record<string, string>) =>
      loadEnv({ BETTER_AUTH_SECRET: secret, ...vars }).requireAdminTwoFactor;
    expect(required({})).toBe(false);
    expect(required({ PUBLIC_ORIGIN: "https://ailabs.app" })).toBe(true);
    expect(required({ PUBLIC_ORIGIN: "https://ailabs.app", REQUIRE_ADMIN_TWO_FACTOR: "off" })).toBe(
      false,
    );
    expect(required({ REQUIRE_ADMIN_TWO_FACTOR: "on" })).toBe(true);
    expect(() => required({ REQUIRE_ADMIN_TWO_FACTOR: "yes" })).toThrow(/REQUIRE_ADMIN_TWO_FACTOR/);
  });
});

describe("loopback addresses", () => {
  it("are 127.0.0.0/8 and ::1, also IPv4-mapped; nothing else", () => {
    for (const address of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) {
      expect(isLoopbackAddress(address)).toBe(true);
    }
    for (const address of [
      "203.0.113.5",
      "::ffff:10.0.0.1",
      "128.0.0.1",
      "::",
      "",
      null,
      undefined,
    ]) {
      expect(isLoopbackAddress(address)).toBe(false);
    }
    expect(listensOnLoopbackOnly("127.0.0.1")).toBe(true);
    expect(listensOnLoopbackOnly("localhost")).toBe(true);
    expect(listensOnLoopbackOnly("0.0.0.0")).toBe(false);
    expect(listensOnLoopbackOnly("::")).toBe(false);
  });
});

describe(".env in the working directory (loadDotEnv)", () => {
  const envFile = (text: string) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ailabs-dotenv-")), ".env");
    writeFileSync(file, text);
    return file;
  };

  it("sets what is unset; a variable already set, even empty, keeps its value", () => {
    const file = envFile(
      '# a comment\nPORT=4200\nSMTP_FROM="AI Labs <a@b.example>"\nDATA_DIR=/from/file\nHOST=0.0.0.0\n',
    );
    const target: Record<string, string | undefined> = { DATA_DIR: "/from/systemd", HOST: "" };
    expect(loadDotEnv(file, target).sort()).toEqual(["PORT", "SMTP_FROM"]);
    expect(target).toEqual({
      DATA_DIR: "/from/systemd",
      HOST: "",
      PORT: "4200",
      SMTP_FROM: "AI Labs <a@b.example>",
    });
    expect(loadEnv({ ...target, BETTER_AUTH_SECRET: secret }).port).toBe(4200);
  });

  it("no file: nothing set, no error", () => {
    const target = {};
    expect(loadDotEnv(path.join(tmpdir(), "no-such-dir-ailabs", ".env"), target)).toEqual([]);
    expect(target).toEqual({});
  });

  it("a .env that cannot be read is named", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ailabs-dotenv-"));
    // A directory where the file should be: unreadable as a file for any user.
    expect(() => loadDotEnv(dir, {})).toThrow(new RegExp(`${dir}: cannot be read \\(EISDIR\\)`));
  });

  it("the example, used as systemd's EnvironmentFile, sets neither NODE_ENV nor DATA_DIR", () => {
    const target: Record<string, string | undefined> = {};
    loadDotEnv(path.resolve(".env.example"), target);
    expect(target.NODE_ENV).toBeUndefined();
    expect(target.DATA_DIR).toBeUndefined();
    // Every value it sets is a valid setting.
    expect(() => loadEnv({ ...target, BETTER_AUTH_SECRET: secret })).not.toThrow();
  });
});

describe("start-up messages", () => {
  it("names every bad variable on one line", () => {
    let message = "";
    try {
      loadEnv({ PORT: "eighty", DATABASE_URL: "mysql://x", BETTER_AUTH_SECRET: secret });
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      message = (error as Error).message;
    }
    expect(message).not.toContain("\n");
    expect(message).toMatch(
      /^Invalid environment: PORT: .+; DATABASE_URL: must start with postgres/,
    );
  });

  it("a DATABASE_URL that is not a URL (an unescaped @ or # in the password) is refused", () => {
    expect(() =>
      loadEnv({ DATABASE_URL: "postgres://app:p#ss@db:5432/ailabs", BETTER_AUTH_SECRET: secret }),
    ).toThrow(/DATABASE_URL: is not a valid URL \(percent-encode/);
    expect(() =>
      loadEnv({ DATABASE_URL: "postgres://app:p%23ss@db:5432/ailabs", BETTER_AUTH_SECRET: secret }),
    ).not.toThrow();
  });

  it("loadDatabaseEnv needs only DATABASE_URL or DATA_DIR: no auth secret, other settings ignored", () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "ailabs-dbenv-")), "data");
    expect(
      loadDatabaseEnv({ DATABASE_URL: "postgres://db/ailabs", STRIPE_SECRET_KEY: "nonsense" }),
    ).toEqual({ dataDir: path.resolve("./data"), databaseUrl: "postgres://db/ailabs" });
    expect(loadDatabaseEnv({ DATA_DIR: dataDir })).toEqual({ dataDir, databaseUrl: undefined });
    // No secret generated in DATA_DIR.
    expect(() => statSync(path.join(dataDir, "auth-secret"))).toThrow();
    expect(() => loadDatabaseEnv({ DATABASE_URL: "mysql://db" })).toThrow(/DATABASE_URL/);
  });

  it("an https origin without SMTP_URL: e-mail is off, said at start", () => {
    const prod = loadEnv({ PUBLIC_ORIGIN: "https://shop.example", BETTER_AUTH_SECRET: secret });
    expect(mailIsOff(prod)).toBe(true);
    expect(startWarnings(prod)).toEqual([
      expect.stringMatching(/^SMTP_URL is not set: e-mail is not being sent/),
    ]);
    const withSmtp = { ...prod, smtpUrl: "smtps://u:p@smtp.example:465" };
    expect(mailIsOff(withSmtp)).toBe(false);
    expect(startWarnings(withSmtp)).toEqual([]);
    // On localhost, logging the messages is the expected way to try the product.
    const local = loadEnv({ BETTER_AUTH_SECRET: secret });
    expect(mailIsOff(local)).toBe(false);
    expect(startWarnings(local)).toEqual([]);
  });
});
