import { isAPIError } from "better-auth/api";

/** A message a person can act on, for an error thrown by Better Auth's sign-up or sign-in. */
export function authErrorMessage(error: unknown, fallback: string): string {
  if (!isAPIError(error)) return fallback;
  const code = (error.body as { code?: string } | undefined)?.code ?? "";
  if (code.startsWith("USER_ALREADY_EXISTS")) {
    return "An account with this email already exists. Sign in instead.";
  }
  if (code === "PASSWORD_TOO_SHORT") return "Password must be at least 8 characters";
  if (code === "PASSWORD_TOO_LONG") return "Password must be at most 128 characters";
  if (code === "INVALID_EMAIL_OR_PASSWORD") return "Invalid email or password";
  if (code === "INVALID_EMAIL") return "Please enter a valid email address";
  if (error.status === "TOO_MANY_REQUESTS")
    return "Too many attempts. Please wait a minute and try again.";
  return error.message || fallback;
}
