import {
  passwordMaxLength,
  passwordMinLength,
  passwordTooLong,
  passwordTooShort,
} from "./password-rule";
import { z } from "./zod";

// The password rule (password-rule.ts) as the forms' schemas check it.

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
