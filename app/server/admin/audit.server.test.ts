import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "~/test/helpers";
import { recordAudit } from "../audit-log.server";
import { getDb } from "../db/db.server";
import { auditLog, course } from "../db/schema";
import { cli } from "../operator/fixtures";
import { adminActor, auditActors, auditPageSize, listAudit } from "./audit.server";
import { applyAdminAction } from "./course-actions.server";

describe("the audit log", () => {
  it("records an admin's course actions with who, what and the target", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const title = `Audited ${randomUUID()}`;
    const result = await applyAdminAction(db, adminActor(admin), {
      intent: "create-course",
      title,
      description: "",
      published: true,
      coverImageUrl: "",
      coverAlt: "",
    });
    expect(result.kind).toBe("done");
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.target, title));
    expect(entry).toMatchObject({ kind: "course.create", actor: admin.email, actorId: admin.id });
    // A course deleted is named by the title it had, its id in the detail.
    const [created] = await db
      .select({ id: course.id })
      .from(course)
      .where(eq(course.title, title));
    const courseId = created?.id ?? "";
    await applyAdminAction(db, adminActor(admin), { intent: "delete-course", courseId });
    const [deleted] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.kind, "course.delete"), eq(auditLog.actorId, admin.id)));
    expect(deleted).toMatchObject({ target: title, detail: courseId });
    // An action that finds nothing changes nothing and records nothing.
    const missing = await applyAdminAction(db, adminActor(admin), {
      intent: "delete-chapter",
      courseId: randomUUID(),
      chapterId: randomUUID(),
    });
    expect(missing.kind).toBe("failed");
    expect((await listAudit(db, { actor: admin.email, page: 1 })).rows).toHaveLength(2);
  });

  it("records every operator command, with its exit code", async () => {
    const member = await createUser();
    expect((await cli("access", "grant", member.email)).code).toBe(0);
    expect((await cli("users", "list")).code).toBe(0);
    const db = await getDb();
    const entries = await db.select().from(auditLog).where(eq(auditLog.target, member.email));
    expect(entries).toMatchObject([{ kind: "cli.command", detail: "access grant (exit 0)" }]);
    expect(entries[0]?.actor).toMatch(/^cli:/);
    expect(entries[0]?.actorId).toBeNull();
  });

  it("lists newest first, filters by who and by kind, pages by 50", async () => {
    const db = await getDb();
    const actor = { id: null, label: `filter-${randomUUID()}` };
    for (let i = 0; i < auditPageSize + 2; i++) {
      await recordAudit(db, actor, {
        kind: i % 2 ? "settings.update" : "member.grant",
        target: `t${i}`,
      });
    }
    const first = await listAudit(db, { actor: actor.label, page: 1 });
    expect(first.rows).toHaveLength(auditPageSize);
    expect(first.more).toBe(true);
    expect(first.rows[0]?.target).toBe(`t${auditPageSize + 1}`);
    const second = await listAudit(db, { actor: actor.label, page: 2 });
    expect(second).toMatchObject({ more: false });
    expect(second.rows.map((r) => r.target)).toEqual(["t1", "t0"]);
    const kinds = await listAudit(db, { actor: actor.label, kind: "settings.update", page: 1 });
    expect(kinds.rows.every((r) => r.kind === "settings.update")).toBe(true);
    expect(kinds.rows).toHaveLength((auditPageSize + 2) / 2);
    expect(await auditActors(db)).toContain(actor.label);
  });

  it("lists entries of the same instant newest first, in the order they were written", async () => {
    const db = await getDb();
    const actor = { id: null, label: `same-instant-${randomUUID()}` };
    // One transaction: now() is the same for every entry.
    await db.transaction(async (tx) => {
      for (const target of ["first", "second", "third"]) {
        await recordAudit(tx, actor, { kind: "member.grant", target });
      }
    });
    const listed = await listAudit(db, { actor: actor.label, page: 1 });
    expect(new Set(listed.rows.map((r) => r.at.getTime())).size).toBe(1);
    expect(listed.rows.map((r) => r.target)).toEqual(["third", "second", "first"]);
  });
});
