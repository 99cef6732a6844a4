import { userInfo } from "node:os";
import { and, desc, eq, sql } from "drizzle-orm";
import type { AuditKind } from "~/lib/admin-forms";
import type { Db, Tx } from "../db/client.server";
import { auditLog } from "../db/schema";

/** Who did something: an admin (by id and e-mail) or the operator's CLI (by OS user). */
export type Actor = { id: string | null; label: string };

export function adminActor(user: { id: string; email: string }): Actor & { id: string } {
  return { id: user.id, label: user.email };
}

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

export type AuditRow = typeof auditLog.$inferSelect;
export const auditPageSize = 50;

/** One page of the log (from 1), newest first, optionally only one actor's or one kind's. */
export async function listAudit(
  db: Db,
  filter: { actor?: string | null; kind?: string | null; page: number },
): Promise<{ rows: AuditRow[]; more: boolean }> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      and(
        filter.actor ? eq(auditLog.actor, filter.actor) : undefined,
        filter.kind ? eq(auditLog.kind, filter.kind) : undefined,
      ),
    )
    .orderBy(desc(auditLog.at), desc(auditLog.seq))
    .offset((filter.page - 1) * auditPageSize)
    .limit(auditPageSize + 1);
  return { rows: rows.slice(0, auditPageSize), more: rows.length > auditPageSize };
}

/** Everyone who has an entry, for the filter (a loose index scan over audit_log_actor_at_idx). */
export async function auditActors(db: Db): Promise<string[]> {
  const result = await db.execute<{ actor: string }>(sql`
    with recursive actors(actor) as (
      (select actor from ${auditLog} order by actor limit 1)
      union all
      select (select a.actor from ${auditLog} a where a.actor > actors.actor order by a.actor limit 1)
      from actors where actors.actor is not null
    )
    select actor from actors where actor is not null`);
  return (result as unknown as { rows: { actor: string }[] }).rows.map((r) => r.actor);
}
