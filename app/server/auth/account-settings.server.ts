import { eq } from "drizzle-orm";
import { recordSecurityEvent } from "../audit-log.server";
import { getDb } from "../db/db.server";
import { user as userTable } from "../db/schema";
import { enqueuePasswordChanged } from "../mail/notices.server";
import { getAuth } from "./better-auth.server";
import { authErrorMessage, twoFactorErrorMessage } from "./errors.server";
import { refuseCommonPassword } from "./password.server";
import { getRateLimits, type RateLimits, tooManyAttempts } from "./rate-limit.server";
import { endResetLinks } from "./reset-links.server";
import { getSessionUser, type SessionUser } from "./session-user.server";

// The signed-in account's own settings (/account): its name and password here,
// two-factor in two-factor.server.ts. Both answer Better Auth's refusals as a
// message a person can act on, and count password checks per account.

export type Refused = { ok: false; error: string };

/** A call of Better Auth's whose own refusals become a message; any other error is thrown on. */
export async function call<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | Refused> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error: twoFactorErrorMessage(error) };
  }
}

/**
 * A password check of the signed-in account, counted per account like a
 * sign-in (RATE_LIMIT_LOGIN_PER_ADDRESS_AND_EMAIL per window): a stolen
 * session cookie cannot be used to guess the password. A right password
 * starts the count again.
 */
export async function checkingPassword<T extends { ok: boolean }>(
  request: Request,
  fn: () => Promise<T | Refused>,
  limits: RateLimits = getRateLimits(),
): Promise<T | Refused> {
  const user = await getSessionUser(request);
  // Without a session Better Auth refuses the call itself.
  if (!user) return fn();
  if (!(await limits.accountPassword.perAccount.hit(user.id))) {
    return { ok: false, error: tooManyAttempts };
  }
  const result = await fn();
  if (result.ok) await limits.accountPassword.perAccount.reset(user.id);
  return result;
}

/**
 * Changes the password (the current one required, counted like a sign-in).
 * Every other session of the account ends; this browser gets a new session
 * (the headers carry its cookie). Reset links sent before stop working, the
 * audit log records it, and the account's address is told, with the way back
 * in should it not have been its owner.
 */
export async function changePassword(
  request: Request,
  user: SessionUser,
  input: { currentPassword: string; newPassword: string },
): Promise<{ ok: true; headers: Headers } | Refused> {
  try {
    await refuseCommonPassword(input.newPassword);
  } catch (error) {
    return { ok: false, error: authErrorMessage(error) };
  }
  const auth = await getAuth();
  const changed = await checkingPassword(request, () =>
    call(() =>
      auth.api.changePassword({
        body: { ...input, revokeOtherSessions: true },
        headers: request.headers,
        returnHeaders: true,
      }),
    ),
  );
  if (!changed.ok) return changed;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await endResetLinks(tx, user.id);
    await recordSecurityEvent(tx, user, "security.password-change", "on the account page");
    await enqueuePasswordChanged(tx, user);
  });
  return { ok: true, headers: changed.value.headers };
}

/** Changes the name the account is greeted with and its receipts carry. */
export async function renameAccount(user: SessionUser, name: string): Promise<void> {
  const db = await getDb();
  await db.update(userTable).set({ name, updatedAt: new Date() }).where(eq(userTable.id, user.id));
}
