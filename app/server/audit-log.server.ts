// The audit log's writing side: who did something (an admin, the operator's
// CLI, an account's own security event) and the entry written, in the
// caller's transaction. The owner's console reads it (admin/audit.server.ts).

import { userInfo } from "node:os";
import type { AuditKind } from "~/lib/admin-forms";
import type { Db, Tx } from "./db/client.server";
import { auditLog } from "./db/schema";

/** Who did something: an admin (by id and e-mail) or the operator's CLI (by OS user). */
export type Actor = { id: string | null; label: string };

export function cliActor(): Actor {
  let name = "unknown";
  try {
    name = userInfo().username;
  } catch {
    // No passwd entry for this uid (a container): the uid is not worth more.
  }
  return { id: null, label: `cli:${name}` };
}

/**
 * A security event of an account (sign-in, failed sign-in, two-factor and
 * password changes, an admin's "confirm it's you"), with the account's
 * e-mail as who did it. `detail` says how (e.g. "password and authenticator
 * code"): callers never pass a password, a code or a token.
 */
export async function recordSecurityEvent(
  db: Db | Tx,
  account: { id: string | null; email: string },
  kind: Extract<AuditKind, `security.${string}`>,
  detail?: string,
): Promise<void> {
  await recordAudit(db, { id: account.id, label: account.email }, { kind, detail });
}

export type AuditEntry = { kind: AuditKind; target?: string | null; detail?: string | null };

/** Writes one entry; in the caller's transaction when given one. */
export async function recordAudit(db: Db | Tx, actor: Actor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actor: actor.label,
    kind: entry.kind,
    target: entry.target ?? null,
    detail: entry.detail ?? null,
  });
}
