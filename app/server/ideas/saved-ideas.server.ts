import { and, desc, eq, sql } from "drizzle-orm";
import { maxSavedIdeas } from "~/lib/idea-forms";
import type { SaasIdea } from "~/lib/ideas";
import type { Db } from "../db/client.server";
import { savedIdea } from "../db/schema";

// Ideas a member keeps from the idea generator (table saved_idea). Every
// function is scoped to one member: nobody reads or removes another's ideas.

export type SavedIdea = { savedId: string; savedAt: string; idea: SaasIdea };

/** The member's saved ideas, newest first, in one query. */
export async function listSavedIdeas(db: Db, userId: string): Promise<SavedIdea[]> {
  const rows = await db
    .select({ id: savedIdea.id, idea: savedIdea.idea, createdAt: savedIdea.createdAt })
    .from(savedIdea)
    .where(eq(savedIdea.userId, userId))
    .orderBy(desc(savedIdea.createdAt), desc(savedIdea.id))
    .limit(maxSavedIdeas);
  return rows.map((r) => ({
    savedId: r.id,
    savedAt: r.createdAt.toISOString(),
    idea: r.idea as SaasIdea,
  }));
}

export type SaveOutcome =
  | { ok: true; savedId: string; already: boolean }
  | { ok: false; error: string };

/**
 * Keeps an idea in the member's account. Idempotent: the same idea (same
 * generated id) saved twice is kept once. Refuses beyond maxSavedIdeas.
 * Runs in one transaction, serialized per member so two saves at
 * once see each other.
 */
export async function saveIdea(db: Db, userId: string, idea: SaasIdea): Promise<SaveOutcome> {
  return db.transaction(async (tx) => {
    // Serializes one member's saves (the cap and the duplicate check), nobody else's.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`saved-idea:${userId}`}, 0))`,
    );
    const mine = await tx
      .select({ id: savedIdea.id, idea: savedIdea.idea })
      .from(savedIdea)
      .where(eq(savedIdea.userId, userId));
    const same = mine.find((r) => (r.idea as SaasIdea).id === idea.id);
    if (same) return { ok: true, savedId: same.id, already: true };
    if (mine.length >= maxSavedIdeas) {
      return {
        ok: false,
        error: `You can keep up to ${maxSavedIdeas} ideas. Remove one to save another.`,
      };
    }
    const [row] = await tx
      .insert(savedIdea)
      .values({ userId, title: idea.title, idea })
      .returning({ id: savedIdea.id });
    return { ok: true, savedId: row?.id ?? "", already: false };
  });
}

/** Removes one of the member's saved ideas; false when they have no such idea. */
export async function removeSavedIdea(db: Db, userId: string, savedId: string): Promise<boolean> {
  const removed = await db
    .delete(savedIdea)
    .where(and(eq(savedIdea.id, savedId), eq(savedIdea.userId, userId)))
    .returning({ id: savedIdea.id });
  return removed.length > 0;
}
