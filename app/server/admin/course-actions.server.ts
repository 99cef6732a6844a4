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

function auditEntryOf(action: AdminAction): AuditEntry {
  switch (action.intent) {
    case "create-course":
      return { kind: "course.create", target: action.title };
    case "update-course":
      return { kind: "course.update", target: action.title, detail: action.courseId };
    case "delete-course":
      return { kind: "course.delete", target: action.courseId };
    case "create-chapter":
      return { kind: "chapter.create", target: action.title, detail: action.courseId };
    case "update-chapter":
      return { kind: "chapter.update", target: action.title, detail: action.chapterId };
    case "delete-chapter":
      return { kind: "chapter.delete", target: action.chapterId };
    case "move-chapter":
      return { kind: "chapter.move", target: action.chapterId, detail: action.direction };
  }
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
