import { fullName } from "./forms";
import { passwordMaxLength } from "./password-rule";
import { currentPassword, newPassword } from "./password-schemas";
import { accountTwoFactorSchema } from "./two-factor-forms";
import { z } from "./zod";

// The forms of /account, one action told apart by `intent`: the name, the
// password, and two-factor (two-factor-forms.ts). Each form's fields have
// names of their own, so one form's messages never show on another.

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

export const accountSchema = z.discriminatedUnion("intent", [
  changeNameSchema,
  changePasswordSchema,
  ...accountTwoFactorSchema.options,
]);
