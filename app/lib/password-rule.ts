// The one password rule: its length limits and messages, shared by the sign-up,
// reset-password and account forms (browser and action), Better Auth's settings
// (server/auth/better-auth.server.ts) and its error messages (server/auth/errors.server.ts).
// Its schemas are in password-schemas.ts: the sign-in pages read these constants in the
// browser without the validation library.

export const passwordMinLength = 10;
export const passwordMaxLength = 128;

export const passwordTooShort = `Password must be at least ${passwordMinLength} characters`;
export const passwordTooLong = `Password must be at most ${passwordMaxLength} characters`;
/** The server's answer to a password on the common-password list (auth/common-passwords.server.ts). */
export const passwordTooCommon =
  "This password is too common: it is on lists of leaked passwords. Choose another.";
/** The line under a new-password field. */
export const passwordRuleHint = `At least ${passwordMinLength} characters, not a common password.`;
