import { eq } from "drizzle-orm";
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
import { chapter, course } from "../db/schema";
import { type Announcement, announceChapter } from "./broadcasts.server";

/** Done: where the panel goes next and what it says; or why nothing changed. */
export type AdminResult =
  | {
      kind: "done";
      to: string;
      notice: AdminNotice;
      /** The chapter created, if any. */
      chapterId?: string;
      /** What else happened, said after the notice (an announcement). */
      also?: string;
    }
  | { kind: "failed"; status: 404 | 409; reason: string };

const expand = (courseId: string) => `/admin/courses?course=${courseId}`;

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
  // Read first: a deleted course or chapter is named by the title it had.
  const named = "title" in action ? null : await titleOf(db, action);
  const result = await apply(db, action);
  if (result.kind !== "done") return result;
  await recordAudit(db, actor, auditEntryOf(action, named));
  if ("announce" in action && action.announce) {
    const chapterId = "chapterId" in action ? action.chapterId : result.chapterId;
    if (chapterId)
      return { ...result, also: announcementNotice(await announceChapter(db, actor, chapterId)) };
  }
  return result;
}

/** The title of the chapter, else the course, an action changes (null: none found). */
async function titleOf(db: Db, action: AdminAction): Promise<string | null> {
  const [row] =
    "chapterId" in action
      ? await db
          .select({ title: chapter.title })
          .from(chapter)
          .where(eq(chapter.id, action.chapterId))
      : "courseId" in action
        ? await db
            .select({ title: course.title })
            .from(course)
            .where(eq(course.id, action.courseId))
        : [];
  return row?.title ?? null;
}

/** What the panel says of a chapter's announcement after its save. */
function announcementNotice(announcement: Announcement): string {
  switch (announcement.kind) {
    case "queued":
      return announcement.recipients === 1
        ? "It is being e-mailed to the 1 member who can open its course."
        : `It is being e-mailed to the ${announcement.recipients} members who can open its course.`;
    case "already":
      return "It was announced before, so no e-mail was sent.";
    case "draft":
      return "Its course is a draft, so no e-mail was sent: members cannot open it yet.";
  }
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

/**
 * The entry: the title of what it changed (the action's, or `named`, read
 * before it), its id in the detail; the id alone when no title was found.
 */
function auditEntryOf(action: AdminAction, named: string | null): AuditEntry {
  const id =
    "chapterId" in action ? action.chapterId : "courseId" in action ? action.courseId : null;
  const title = "title" in action ? action.title : named;
  return {
    kind: auditKindOf[action.intent],
    target: title ?? id,
    detail:
      "direction" in action
        ? action.direction
        : "chapterIds" in action
          ? action.chapterIds.join(",")
          : title !== null
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
      return { kind: "done", to: keep ? expand(keep) : "/admin/courses", notice: "course-deleted" };
    }
    case "move-course":
      // At an end the button is disabled; a stale page's click changes nothing and says so.
      return (await moveCourse(db, action.courseId, action.direction))
        ? { kind: "done", to: "/admin/courses", notice: "course-moved" }
        : { kind: "failed", status: 409, reason: "The course cannot move further" };
    case "create-chapter": {
      const created = await createChapter(db, {
        courseId: action.courseId,
        title: action.title,
        contentHtml: action.content,
        published: action.published,
      });
      return created
        ? {
            kind: "done",
            to: expand(action.courseId),
            notice: "chapter-created",
            chapterId: created.id,
          }
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
