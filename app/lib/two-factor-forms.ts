import { currentPassword } from "./password-schemas";
import { z } from "./zod";

// Forms of the two-factor pages (account settings and the sign-in code step).

const password = currentPassword;

/** A 6-digit authenticator code; spaces people type between the digit groups are ignored. */
const totpCode = z
  .string()
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app"));

/** A recovery code as shown (XXXXX-XXXXX), in any letter case; spaces dropped. */
const recoveryCode = z
  .string()
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, "Enter one of your recovery codes"))
  .transform((v) => (v.includes("-") ? v : `${v.slice(0, 5)}-${v.slice(5)}`).toUpperCase());

/** The /account two-factor actions, by intent. */
export const accountTwoFactorSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("enable"), password }),
  z.object({ intent: z.literal("confirm"), code: totpCode, uri: z.string().max(512) }),
  z.object({ intent: z.literal("disable"), password }),
  z.object({ intent: z.literal("new-recovery-codes"), password }),
]);

/** The sign-in code step: an authenticator code, or a recovery code instead. */
export const signInCodeSchema = z.discriminatedUnion("method", [
  z.object({ method: z.literal("totp"), code: totpCode }),
  z.object({ method: z.literal("recovery"), code: recoveryCode }),
]);
