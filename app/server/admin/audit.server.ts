// The owner's console, the audit log: its pages and the actor of an admin.

import { and, desc, eq, sql } from "drizzle-orm";
import type { Actor } from "../audit-log.server";
import type { Db } from "../db/client.server";
import { auditLog } from "../db/schema";

/** The actor of a signed-in admin, by id and e-mail. */
export function adminActor(user: { id: string; email: string }): Actor & { id: string } {
  return { id: user.id, label: user.email };
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
