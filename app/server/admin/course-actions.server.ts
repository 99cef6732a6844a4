import type { AdminAction } from "~/lib/forms";
import {
  createChapter,
  createCourse,
  deleteChapter,
  deleteCourse,
  moveChapter,
  updateChapter,
  updateCourse,
} from "../courses/authoring.server";
import type { Db } from "../db/client.server";
import { type Actor, type AuditEntry, recordAudit } from "./audit.server";

export type AdminResult =
  | { kind: "redirect"; to: string }
  | { kind: "saved"; message: string; courseId: string }
  | { kind: "not-found" };

const expand = (courseId: string) => `/admin?course=${courseId}`;

/**
 * Applies one admin panel action and, when it changed something, writes it to
 * the audit log. The caller has checked requireAdmin.
 */
export async function applyAdminAction(
  db: Db,
  actor: Actor,
  action: AdminAction,
): Promise<AdminResult> {
  const result = await apply(db, action);
  if (result.kind !== "not-found") await recordAudit(db, actor, auditEntryOf(action));
  return result;
}

const auditKindOf = {
  "create-course": "course.create",
  "update-course": "course.update",
  "delete-course": "course.delete",
  "create-chapter": "chapter.create",
  "update-chapter": "chapter.update",
  "delete-chapter": "chapter.delete",
  "move-chapter": "chapter.move",
} as const satisfies Record<AdminAction["intent"], AuditEntry["kind"]>;

/** The entry: a title where the action has one, else the id of what it changed. */
function auditEntryOf(action: AdminAction): AuditEntry {
  const id =
    "chapterId" in action ? action.chapterId : "courseId" in action ? action.courseId : null;
  return {
    kind: auditKindOf[action.intent],
    target: "title" in action ? action.title : id,
    detail: "direction" in action ? action.direction : "title" in action ? id : null,
  };
}

async function apply(db: Db, action: AdminAction): Promise<AdminResult> {
  switch (action.intent) {
    case "create-course": {
      const created = await createCourse(db, action);
      return { kind: "redirect", to: expand(created.id) };
    }
    case "update-course":
      return (await updateCourse(db, action.courseId, action))
        ? { kind: "redirect", to: expand(action.courseId) }
        : { kind: "not-found" };
    case "delete-course": {
      if (!(await deleteCourse(db, action.courseId))) return { kind: "not-found" };
      // Deleting the expanded course collapses it; another expanded course stays open.
      const keep = action.expanded && action.expanded !== action.courseId ? action.expanded : null;
      return { kind: "redirect", to: keep ? expand(keep) : "/admin" };
    }
    case "create-chapter": {
      const created = await createChapter(db, {
        courseId: action.courseId,
        title: action.title,
        contentHtml: action.content,
      });
      return created
        ? { kind: "saved", message: "New chapter created successfully!", courseId: action.courseId }
        : { kind: "not-found" };
    }
    case "update-chapter":
      return (await updateChapter(db, action.chapterId, {
        title: action.title,
        contentHtml: action.content,
      }))
        ? { kind: "saved", message: "Chapter updated successfully!", courseId: action.courseId }
        : { kind: "not-found" };
    case "delete-chapter":
      return (await deleteChapter(db, action.chapterId))
        ? { kind: "redirect", to: expand(action.courseId) }
        : { kind: "not-found" };
    case "move-chapter":
      await moveChapter(db, action.chapterId, action.direction);
      return { kind: "redirect", to: expand(action.courseId) };
  }
}
