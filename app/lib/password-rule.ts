import { z } from "./zod";

// The one password rule: its length limits and messages, shared by the sign-up,
// reset-password and account forms (browser and action), Better Auth's settings
// (server/auth/better-auth.server.ts) and its error messages (server/auth/errors.server.ts).

export const passwordMinLength = 10;
export const passwordMaxLength = 128;

export const passwordTooShort = `Password must be at least ${passwordMinLength} characters`;
export const passwordTooLong = `Password must be at most ${passwordMaxLength} characters`;
/** The server's answer to a password on the common-password list (auth/common-passwords.server.ts). */
export const passwordTooCommon =
  "This password is too common: it is on lists of leaked passwords. Choose another.";
/** The line under a new-password field. */
export const passwordRuleHint = `At least ${passwordMinLength} characters, not a common password.`;

/** A password being chosen (sign-up, reset). */
export const newPassword = z
  .string()
  .min(passwordMinLength, passwordTooShort)
  .max(passwordMaxLength, passwordTooLong);

/** A password being entered to prove who one is (sign-in, account settings). */
export const currentPassword = z
  .string()
  .min(1, "Please enter your password")
  .max(passwordMaxLength);
