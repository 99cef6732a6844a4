import { email, fullName } from "./forms";
import { passwordMaxLength } from "./password-rule";
import { currentPassword, newPassword } from "./password-schemas";
import { accountTwoFactorSchema } from "./two-factor-forms";
import { z } from "./zod";

// The forms of /account, one action told apart by `intent`: the name, the
// e-mail address, the password, two-factor (two-factor-forms.ts) and deleting the account. Each
// form's fields have names of their own, so one form's messages never show on
// another.

export const changeNameSchema = z.object({ intent: z.literal("change-name"), name: fullName });

export const changePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    currentPassword,
    newPassword,
    confirmPassword: z.string().max(passwordMaxLength),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "The passwords do not match",
  })
  .refine((v) => v.newPassword !== v.currentPassword, {
    path: ["newPassword"],
    message: "Choose a password other than your current one",
  });

const enterPassword = "Please enter your password";

/** What a used or expired e-mail change link's page says (/account/confirm-email). */
export const changeLinkExpired = "This link has expired or has already been used.";

/** A new address (confirmed by a link sent to it) and the password: fields of their own names. */
export const changeEmailSchema = z.object({
  intent: z.literal("change-email"),
  newEmail: email,
  emailPassword: z.string(enterPassword).min(1, enterPassword).max(passwordMaxLength),
});

/** The password (a field of its own name: the two-factor form has `password`) and the box ticked. */
export const deleteAccountSchema = z.object({
  intent: z.literal("delete-account"),
  deletePassword: z.string(enterPassword).min(1, enterPassword).max(passwordMaxLength),
  confirm: z.literal("on", "Tick the box to confirm"),
});

/**
 * Why an admin's account is not deleted at /account: the shop would lose an
 * admin without another admin knowing, and perhaps its last one.
 */
export const adminAccountKept =
  "An admin account cannot be deleted here. Ask another admin to remove your admin role first.";

export const accountSchema = z.discriminatedUnion("intent", [
  changeNameSchema,
  changePasswordSchema,
  changeEmailSchema,
  deleteAccountSchema,
  ...accountTwoFactorSchema.options,
]);
