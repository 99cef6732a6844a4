import { randomInt } from "node:crypto";

/**
 * Letters and digits of recovery codes: upper case, without the ones easy to
 * confuse when read or typed (0 and O, 1, I and L), 31 characters.
 */
export const recoveryCodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/**
 * `count` recovery codes of 10 random characters shown as xxxxx-xxxxx (about
 * 49 bits each), the format the sign-in form takes. Random from node:crypto.
 */
export function generateRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from(
      { length: 10 },
      () => recoveryCodeAlphabet[randomInt(recoveryCodeAlphabet.length)],
    ).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}
