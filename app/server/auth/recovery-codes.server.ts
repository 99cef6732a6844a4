import { randomBytes, randomInt, scrypt } from "node:crypto";
import { and, eq, not, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { twoFactor } from "../db/schema";

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

// Recovery codes are stored as salted scrypt hashes, never as codes: the
// database (or a backup of it) gives nobody a way in. One random salt per set
// of codes; each stored entry is `s1.<salt>.<hash>` (base64url), kept in the
// JSON array Better Auth's twoFactor plugin stores in two_factor.backup_codes.
// The plugin checks a code with `codes.includes(code)`, so the sign-in step
// hands it the typed code's hash (recoveryCodeToCheck) rather than the code.

const hashTag = "s1";
// scrypt's cost: 16 MiB and ~40 ms a hash, run on libuv's threads. A code has about 49 bits
// of its own, so this is for a stolen table, not for guessing at the form (rate limited).
const scryptOptions = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function scryptAsync(code: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(code, salt, 32, scryptOptions, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** A code as the generator makes it, whatever the case and dash it was typed with: XXXXX-XXXXX. */
export function normalizeRecoveryCode(typed: string): string {
  const chars = typed.replace(/[\s-]+/g, "").toUpperCase();
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

function isHashed(entry: string): boolean {
  return entry.startsWith(`${hashTag}.`);
}

/** The stored entry of one code with a salt. */
export async function hashRecoveryCode(typed: string, salt: Buffer): Promise<string> {
  const hash = await scryptAsync(normalizeRecoveryCode(typed), salt);
  return `${hashTag}.${salt.toString("base64url")}.${hash.toString("base64url")}`;
}

/**
 * What to store for a JSON array of codes (Better Auth's storeBackupCodes
 * `encrypt`): the plain codes of a new set hashed with a new salt; entries
 * already hashed (the set minus a used code) kept as they are.
 */
export async function storeRecoveryCodes(json: string): Promise<string> {
  const entries = JSON.parse(json) as string[];
  const salt = randomBytes(16);
  const stored = await Promise.all(
    entries.map((entry) => (isHashed(entry) ? entry : hashRecoveryCode(entry, salt))),
  );
  return JSON.stringify(stored);
}

/**
 * The stored entries as a JSON array (Better Auth's storeBackupCodes
 * `decrypt`). A set stored before the codes were hashed (encrypted with the
 * auth secret, Better Auth's default) is hashed as it is read; the next
 * write stores the hashes (and hashStoredRecoveryCodes does it for every row).
 */
export async function readStoredRecoveryCodes(
  stored: string,
  decryptLegacy: (data: string) => Promise<string>,
): Promise<string> {
  if (stored.startsWith("[")) return stored;
  return storeRecoveryCodes(await decryptLegacy(stored));
}

/**
 * The entry a typed code must match in a stored set: its hash with that
 * set's salt (null when no code is left). Case, spaces and the dash do not count.
 */
export async function recoveryCodeToCheck(
  stored: string,
  typed: string,
  decryptLegacy: (data: string) => Promise<string>,
): Promise<{ entry: string | null; stored: string }> {
  const current = await readStoredRecoveryCodes(stored, decryptLegacy);
  const [first] = JSON.parse(current) as string[];
  const salt = first?.split(".")[1];
  if (!salt) return { entry: null, stored: current };
  return { entry: await hashRecoveryCode(typed, Buffer.from(salt, "base64url")), stored: current };
}

/**
 * Stores every set of recovery codes still kept the old way (encrypted with
 * the auth secret, Better Auth's default, so recoverable with it) as hashes;
 * for one user, or all (getAuth does it once per process); answers how many.
 * Idempotent: a set already hashed is left alone, a row changed in between is
 * not overwritten, and one that does not decrypt is skipped.
 */
export async function hashStoredRecoveryCodes(
  db: Db,
  decryptLegacy: (data: string) => Promise<string>,
  userId?: string,
): Promise<number> {
  const rows = await db
    .select({ id: twoFactor.id, backupCodes: twoFactor.backupCodes })
    .from(twoFactor)
    .where(
      and(
        not(sql`${twoFactor.backupCodes} like '[%'`),
        userId ? eq(twoFactor.userId, userId) : undefined,
      ),
    );
  let hashed = 0;
  for (const row of rows) {
    let codes: string;
    try {
      codes = await decryptLegacy(row.backupCodes);
    } catch {
      // Encrypted with another secret: left as it is (its codes do not work with this one either).
      continue;
    }
    hashed += 1;
    await db
      .update(twoFactor)
      .set({ backupCodes: await storeRecoveryCodes(codes) })
      .where(and(eq(twoFactor.id, row.id), eq(twoFactor.backupCodes, row.backupCodes)));
  }
  return hashed;
}
