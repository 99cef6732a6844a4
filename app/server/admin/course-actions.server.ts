import type { AdminNotice } from "~/lib/course-authoring";
import type { AdminAction } from "~/lib/forms";
import { type Actor, type AuditEntry, recordAudit } from "../audit-log.server";
import {
  createChapter,
  createCourse,
  deleteChapter,
  deleteCourse,
  moveChapter,
  moveCourse,
  reorderChapters,
  updateChapter,
  updateCourse,
} from "../courses/authoring.server";
import type { Db } from "../db/client.server";

/** Done: where the panel goes next and what it says; or why nothing changed. */
export type AdminResult =
  | { kind: "done"; to: string; notice: AdminNotice }
  | { kind: "failed"; status: 404 | 409; reason: string };

const expand = (courseId: string) => `/admin?course=${courseId}`;

const courseNotFound = { kind: "failed", status: 404, reason: "Course not found" } as const;
const chapterNotFound = { kind: "failed", status: 404, reason: "Chapter not found" } as const;

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
  if (result.kind === "done") await recordAudit(db, actor, auditEntryOf(action));
  return result;
}

const auditKindOf = {
  "create-course": "course.create",
  "update-course": "course.update",
  "delete-course": "course.delete",
  "move-course": "course.move",
  "create-chapter": "chapter.create",
  "update-chapter": "chapter.update",
  "delete-chapter": "chapter.delete",
  "move-chapter": "chapter.move",
  "reorder-chapters": "chapter.reorder",
} as const satisfies Record<AdminAction["intent"], AuditEntry["kind"]>;

/** The entry: a title where the action has one, else the id of what it changed. */
function auditEntryOf(action: AdminAction): AuditEntry {
  const id =
    "chapterId" in action ? action.chapterId : "courseId" in action ? action.courseId : null;
  return {
    kind: auditKindOf[action.intent],
    target: "title" in action ? action.title : id,
    detail:
      "direction" in action
        ? action.direction
        : "chapterIds" in action
          ? action.chapterIds.join(",")
          : "title" in action
            ? id
            : null,
  };
}

async function apply(db: Db, action: AdminAction): Promise<AdminResult> {
  switch (action.intent) {
    case "create-course": {
      const created = await createCourse(db, action);
      return { kind: "done", to: expand(created.id), notice: "course-created" };
    }
    case "update-course":
      return (await updateCourse(db, action.courseId, action))
        ? { kind: "done", to: expand(action.courseId), notice: "course-updated" }
        : courseNotFound;
    case "delete-course": {
      if (!(await deleteCourse(db, action.courseId))) return courseNotFound;
      // Deleting the expanded course collapses it; another expanded course stays open.
      const keep = action.expanded && action.expanded !== action.courseId ? action.expanded : null;
      return { kind: "done", to: keep ? expand(keep) : "/admin", notice: "course-deleted" };
    }
    case "move-course":
      // At an end the button is disabled; a stale page's click changes nothing and says so.
      return (await moveCourse(db, action.courseId, action.direction))
        ? { kind: "done", to: "/admin", notice: "course-moved" }
        : { kind: "failed", status: 409, reason: "The course cannot move further" };
    case "create-chapter": {
      const created = await createChapter(db, {
        courseId: action.courseId,
        title: action.title,
        contentHtml: action.content,
        published: action.published,
      });
      return created
        ? { kind: "done", to: expand(action.courseId), notice: "chapter-created" }
        : courseNotFound;
    }
    case "update-chapter":
      return (await updateChapter(db, action.chapterId, {
        title: action.title,
        contentHtml: action.content,
        published: action.published,
      }))
        ? { kind: "done", to: expand(action.courseId), notice: "chapter-updated" }
        : chapterNotFound;
    case "delete-chapter":
      return (await deleteChapter(db, action.chapterId))
        ? { kind: "done", to: expand(action.courseId), notice: "chapter-deleted" }
        : chapterNotFound;
    case "move-chapter":
      return (await moveChapter(db, action.chapterId, action.direction))
        ? { kind: "done", to: expand(action.courseId), notice: "chapter-moved" }
        : { kind: "failed", status: 409, reason: "The chapter cannot move further" };
    case "reorder-chapters":
      return (await reorderChapters(db, action.courseId, action.chapterIds))
        ? { kind: "done", to: expand(action.courseId), notice: "chapter-moved" }
        : {
            kind: "failed",
            status: 409,
            reason: "The chapters changed meanwhile. Reload the page and try again.",
          };
  }
}
