import { isAPIError } from "better-auth/api";
import { passwordTooCommon, passwordTooLong, passwordTooShort } from "~/lib/password-rule";

// The one mapping of Better Auth's error codes to messages a person can act on,
// for sign-up, sign-in, the two-factor step and the two-factor settings.

export const signInExpired = "Your sign-in has expired. Please sign in again.";
export const twoFactorNotSetUp = "Two-factor authentication is not set up. Start again.";
export const twoFactorAlreadyOn = "Two-factor authentication is already on.";

const messages: Record<string, string> = {
  PASSWORD_TOO_SHORT: passwordTooShort,
  PASSWORD_TOO_LONG: passwordTooLong,
  PASSWORD_TOO_COMMON: passwordTooCommon,
  INVALID_EMAIL_OR_PASSWORD: "Invalid email or password",
  INVALID_EMAIL: "Please enter a valid email address",
  INVALID_PASSWORD: "Incorrect password",
  INVALID_CODE: "That code is not right. Check your app and try again.",
  INVALID_BACKUP_CODE: "That recovery code is not valid or was already used.",
  TOTP_ALREADY_ENABLED: twoFactorAlreadyOn,
  TWO_FACTOR_NOT_ENABLED: twoFactorNotSetUp,
  TOTP_NOT_ENABLED: twoFactorNotSetUp,
  INVALID_TWO_FACTOR_COOKIE: signInExpired,
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: signInExpired,
  ACCOUNT_TEMPORARILY_LOCKED: "Too many wrong codes. Please wait 15 minutes and try again.",
};

/** The code of an error Better Auth answered, or undefined for any other error. */
export function authErrorCode(error: unknown): string | undefined {
  return isAPIError(error)
    ? ((error.body as { code?: string } | undefined)?.code ?? "")
    : undefined;
}

/** Whether an error is the hashing queue's "busy" (password.server.ts): answered 503 with Retry-After. */
export function isBusy(error: unknown): boolean {
  return isAPIError(error) && error.status === "SERVICE_UNAVAILABLE";
}

/** A message a person can act on, for an error thrown by one of Better Auth's calls. */
export function authErrorMessage(error: unknown, fallback = "An error occurred"): string {
  if (!isAPIError(error)) return fallback;
  const code = authErrorCode(error) ?? "";
  if (code.startsWith("USER_ALREADY_EXISTS")) {
    return "An account with this email already exists. Sign in instead.";
  }
  const message = messages[code];
  if (message) return message;
  if (error.status === "TOO_MANY_REQUESTS")
    return "Too many attempts. Please wait a minute and try again.";
  return error.message || fallback;
}

/**
 * authErrorMessage for the two-factor calls, where only Better Auth's own
 * answers are expected: any other error is thrown on.
 */
export function twoFactorErrorMessage(error: unknown): string {
  if (!isAPIError(error)) throw error;
  return authErrorMessage(error);
}
