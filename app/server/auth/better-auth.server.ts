import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { symmetricDecrypt } from "better-auth/crypto";
import { twoFactor as twoFactorPlugin } from "better-auth/plugins/two-factor";
import { passwordMaxLength, passwordMinLength } from "~/lib/password-rule";
import { recordSecurityEvent } from "../audit-log.server";
import type { Db } from "../db/client.server";
import { getDb } from "../db/db.server";
import { account, session, twoFactor, user, verification } from "../db/schema";
import { type Env, getEnv } from "../env.server";
import { enqueuePasswordReset } from "../mail/notices.server";
import { usesSecureCookies } from "./cookies.server";
import { hashPassword, passwordCostFor, verifyPassword } from "./password.server";
import {
  generateRecoveryCodes,
  hashStoredRecoveryCodes,
  readStoredRecoveryCodes,
  storeRecoveryCodes,
} from "./recovery-codes.server";
import {
  endResetLinks,
  hashResetIdentifier,
  resetIdentifierPrefix,
  storedResetIdentifier,
} from "./reset-links.server";

/** The header server.ts overwrites on every request with the socket's address. */
export const clientIpHeader = "x-client-ip";

export function createAuth(db: Db, env: Env) {
  return betterAuth({
    appName: "AI Labs",
    baseURL: env.publicOrigin,
    basePath: "/api/auth",
    secret: env.authSecret,
    trustedOrigins: [env.publicOrigin],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user, session, account, verification, twoFactor },
    }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: passwordMinLength,
      maxPasswordLength: passwordMaxLength,
      // Hashed at the environment's cost (password.server.ts). Any password: Better Auth also
      // hashes one at sign-in for an unknown e-mail, so that answers like a wrong password;
      // common passwords are refused where one is chosen (refuseCommonPassword).
      password: {
        hash: (password) => hashPassword(password, passwordCostFor(env.nodeEnv)),
        verify: verifyPassword,
      },
      // Password reset (password-reset.server.ts): a one-time link valid 1 hour, sent through
      // the outbox; a new link ends the older ones, using one ends them all, and a new
      // password signs every session out.
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        await endResetLinks(db, user.id, storedResetIdentifier(token));
        await enqueuePasswordReset(db, user, token);
      },
      // Using one link ends the others; the change is a security event in the audit log
      // (never the password).
      onPasswordReset: async ({ user }) => {
        await endResetLinks(db, user.id);
        await recordSecurityEvent(db, user, "security.password-change", "with an e-mailed link");
      },
    },
    // Reset and set-password tokens are stored as SHA-256 hashes under their prefix: the
    // table holds no working link (reset-links.server.ts).
    verification: {
      storeIdentifier: {
        default: "plain",
        overrides: { [resetIdentifierPrefix]: { hash: async (id) => hashResetIdentifier(id) } },
      },
    },
    user: {
      additionalFields: {
        // input: false, so a sign-up that sends isAdmin: true still makes a plain user.
        isAdmin: { type: "boolean", required: false, defaultValue: false, input: false },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    plugins: [
      // TOTP with 10 recovery codes (two-factor.server.ts). Sign-in with it on answers
      // { twoFactorRedirect } and sets only the short-lived two_factor cookie, no session.
      // Recovery codes avoid characters that are easy to confuse, and are stored as salted
      // hashes (recovery-codes.server.ts; two-factor.server.ts verifySecondFactor).
      twoFactorPlugin({
        issuer: "AI Labs",
        backupCodeOptions: {
          customBackupCodesGenerate: () => generateRecoveryCodes(),
          storeBackupCodes: {
            encrypt: storeRecoveryCodes,
            decrypt: (stored) =>
              readStoredRecoveryCodes(stored, (data) =>
                symmetricDecrypt({ key: env.authSecret, data }),
              ),
          },
        },
      }),
    ],
    logger: { level: "error", disabled: env.nodeEnv === "test" },
    // Sign-in and sign-up go through our actions, which do their own rate limiting
    // (rate-limit.server.ts); Better Auth's limiter only guards its HTTP handler, not mounted.
    rateLimit: { enabled: false },
    advanced: {
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
      useSecureCookies: usesSecureCookies(env.publicOrigin),
      database: { generateId: () => crypto.randomUUID() },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

let auth: Promise<Auth> | undefined;

export function getAuth(): Promise<Auth> {
  auth ??= getDb().then(async (db) => {
    const env = getEnv();
    // Recovery codes stored before they were hashed are hashed now (recovery-codes.server.ts).
    await hashStoredRecoveryCodes(db, (data) => symmetricDecrypt({ key: env.authSecret, data }));
    return createAuth(db, env);
  });
  return auth;
}
