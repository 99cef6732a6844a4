// The operator CLI's two-factor commands: letting an owner who lost their
// authenticator and recovery codes back in, and carrying the stored
// two-factor keys over to a new BETTER_AUTH_SECRET (docs/deploy.md,
// "Rotating BETTER_AUTH_SECRET").

import { readFileSync } from "node:fs";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../db/client.server";
import { twoFactor, user } from "../db/schema";
import type { CliIo } from "./cli-io.server";

/**
 * Turns two-factor off for the user with this e-mail: their authenticator key
 * and recovery codes are deleted and their sessions ended, so the next
 * sign-in asks for the password only (an admin is then asked to turn
 * two-factor on again, when it is required). One statement.
 */
export async function resetTwoFactor(db: Db, io: CliIo, email: string): Promise<number> {
  const rows = await rowsOf<{ email: string; was_on: boolean; keys: number; sessions: number }>(
    db,
    sql`with target as (
          select id, two_factor_enabled as was_on from "user"
          where lower(email) = lower(${email.trim()})
        ),
        removed as (
          delete from two_factor where user_id in (select id from target) returning 1
        ),
        ended as (
          delete from session where user_id in (select id from target) returning 1
        ),
        updated as (
          update "user" set two_factor_enabled = false, updated_at = now()
          where id in (select id from target)
          returning id, email
        )
        select updated.email, target.was_on, (select count(*)::int from removed) as keys,
          (select count(*)::int from ended) as sessions
        from updated join target on target.id = updated.id`,
  );
  const [row] = rows;
  if (!row) {
    io.err(`No user with e-mail ${email}`);
    return 1;
  }
  if (!row.was_on && row.keys === 0) {
    io.out(`${row.email} has no two-factor; nothing to reset. Sessions ended: ${row.sessions}.`);
    return 0;
  }
  io.out(
    `Two-factor reset for ${row.email}: authenticator key and recovery codes deleted, ` +
      `${row.sessions} session${row.sessions === 1 ? "" : "s"} ended. They sign in with their password` +
      " (an admin is then asked to turn two-factor on again).",
  );
  return 0;
}

/** Decrypts with `key`, or null when the value was not encrypted with it. */
async function decryptWith(key: string, data: string): Promise<string | null> {
  try {
    return await symmetricDecrypt({ key, data });
  } catch {
    return null;
  }
}

/**
 * After BETTER_AUTH_SECRET changed: every stored authenticator key (and the
 * recovery codes, when they are stored encrypted) that the old secret, read
 * from `oldSecretFile`, decrypts is encrypted again with the current one.
 * Idempotent: what the current secret already reads is left alone. Reports
 * the accounts neither secret reads (reset them). One read, one write statement.
 */
export async function rekeyTwoFactor(
  db: Db,
  io: CliIo,
  oldSecretFile: string,
  currentSecret: string,
): Promise<number> {
  let oldSecret: string;
  try {
    oldSecret = readFileSync(oldSecretFile, "utf8").trim();
  } catch (error) {
    io.err(`Cannot read ${oldSecretFile}: ${(error as NodeJS.ErrnoException).code ?? error}`);
    return 1;
  }
  if (oldSecret.length < 32) {
    io.err(`${oldSecretFile} does not hold an auth secret (at least 32 characters).`);
    return 1;
  }
  if (oldSecret === currentSecret) {
    io.err(
      "The old secret is the current one: put the new BETTER_AUTH_SECRET in the environment first.",
    );
    return 1;
  }

  const rows = await db
    .select({
      id: twoFactor.id,
      secret: twoFactor.secret,
      backupCodes: twoFactor.backupCodes,
      email: user.email,
    })
    .from(twoFactor)
    .innerJoin(user, sql`${user.id} = ${twoFactor.userId}`);

  const changed: { id: string; secret: string; codes: string }[] = [];
  const unreadable: string[] = [];
  let current = 0;
  for (const row of rows) {
    if ((await decryptWith(currentSecret, row.secret)) !== null) {
      current++;
      continue;
    }
    const secret = await decryptWith(oldSecret, row.secret);
    if (secret === null) {
      unreadable.push(row.email);
      continue;
    }
    // Recovery codes stored some other way (hashed) are not tied to the secret: kept as they are.
    const codes = await decryptWith(oldSecret, row.backupCodes);
    changed.push({
      id: row.id,
      secret: await symmetricEncrypt({ key: currentSecret, data: secret }),
      codes:
        codes === null
          ? row.backupCodes
          : await symmetricEncrypt({ key: currentSecret, data: codes }),
    });
  }

  if (changed.length > 0) {
    await db.execute(sql`
      update two_factor set secret = v.secret, backup_codes = v.codes
      from jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) as v(id text, secret text, codes text)
      where two_factor.id = v.id`);
  }
  io.out(
    `Two-factor keys re-encrypted with the current secret: ${changed.length}; ` +
      `already on it: ${current}; unreadable: ${unreadable.length}.`,
  );
  for (const email of unreadable) {
    io.err(
      `${email}: neither secret reads this key; run \`npm run cli -- two-factor reset ${email}\`.`,
    );
  }
  return unreadable.length > 0 ? 1 : 0;
}
