import { and, eq } from "drizzle-orm";
import { adminAccountKept } from "~/lib/account-forms";
import { deleteAccount } from "../account/delete-account.server";
import { recordSecurityEvent } from "../audit-log.server";
import { getDb } from "../db/db.server";
import { account, user as userTable } from "../db/schema";
import { enqueuePasswordChanged } from "../mail/notices.server";
import { getAuth } from "./better-auth.server";
import { requestEmailChange } from "./change-email.server";
import { clearSessionCookies } from "./cookies.server";
import { authErrorMessage, twoFactorErrorMessage } from "./errors.server";
import { refuseCommonPassword, verifyPassword } from "./password.server";
import { getRateLimits, type RateLimits, tooManyAttempts } from "./rate-limit.server";
import { endResetLinks } from "./reset-links.server";
import { getSessionUser, type SessionUser } from "./session-user.server";

// The signed-in account's own settings (/account): its name and password, and
// deleting it, here; two-factor in two-factor.server.ts. They answer Better
// Auth's refusals as a message a person can act on, and count password checks
// per account.

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

export const incorrectPassword = "Incorrect password";

/** Whether `password` is the account's own (its credential row's hash); counted by the caller. */
async function isOwnPassword(userId: string, password: string): Promise<{ ok: true } | Refused> {
  const db = await getDb();
  const [credential] = await db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
    .limit(1);
  if (!credential?.hash) return { ok: false, error: incorrectPassword };
  const hash = credential.hash;
  // A full hashing queue answers "busy" (password.server.ts), as the other checks do.
  const checked = await call(() => verifyPassword({ hash, password }));
  if (!checked.ok) return checked;
  return checked.value ? { ok: true } : { ok: false, error: incorrectPassword };
}

/**
 * Deletes the signed-in account (deleteAccount: its purchases stay, anonymised)
 * once its password is given, counted like every password check of the
 * account. An admin is refused (adminAccountKept). Answers the headers that
 * clear this browser's session cookies; every session has ended.
 */
export async function deleteOwnAccount(
  request: Request,
  user: SessionUser,
  password: string,
): Promise<{ ok: true; headers: Headers } | Refused> {
  if (user.isAdmin) return { ok: false, error: adminAccountKept };
  const checked = await checkingPassword(request, () => isOwnPassword(user.id, password));
  if (!checked.ok) return checked;
  // Checked again in the deletion's transaction: the role may have been given since.
  const deleted = await deleteAccount(await getDb(), user.id);
  if (deleted === "admin") return { ok: false, error: adminAccountKept };
  return { ok: true, headers: clearSessionCookies() };
}

/**
 * Asks to change the account's address to `newEmail` once its password is
 * given (counted like every password check of the account): the new address
 * gets a link that confirms it (change-email.server.ts); until then nothing
 * changes.
 */
export async function changeEmail(
  request: Request,
  user: SessionUser,
  input: { newEmail: string; emailPassword: string },
): Promise<{ ok: true } | { ok: false; field: "newEmail" | "emailPassword"; error: string }> {
  const checked = await checkingPassword(request, () =>
    isOwnPassword(user.id, input.emailPassword),
  );
  if (!checked.ok) return { ok: false, field: "emailPassword", error: checked.error };
  const asked = await requestEmailChange(await getDb(), user, input.newEmail);
  return asked.ok ? asked : { ok: false, field: "newEmail", error: asked.error };
}
