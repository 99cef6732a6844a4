import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { confirmDeleteChapter } from "~/lib/course-authoring";
import type { FormAnswer } from "~/lib/form-answer";
import { useHydrated } from "~/lib/use-hydrated";
import { ChapterForm, type EditedChapter } from "./chapter-form";
import { DraftBadge } from "./draft-badge";
import { Icon, iconClass } from "./icons";
import { RowActions } from "./row-actions";

export type ListedChapter = { id: string; title: string; published: boolean };

/** A chapter picked up to be moved: where it started, and the order before the move. */
type Drag = { id: string; before: string[]; by: "pointer" | "keyboard" };

/**
 * A course's chapters in order, each with drag-and-drop reordering (pointer,
 * or keyboard: Space picks up, arrows move, Space drops, Escape cancels), the
 * spec's up and down buttons, preview, edit and delete. The chapter being
 * edited shows its form in its place. A drop posts the whole new order, which
 * the server applies in one transaction.
 */
export function ChapterList({
  courseId,
  chapters,
  editing,
}: {
  courseId: string;
  chapters: ListedChapter[];
  editing: EditedChapter | null;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<FormAnswer>();
  const [failure, setFailure] = useState<string | null>(null);
  const serverOrder = chapters.map((c) => c.id).join(",");
  const [order, setOrder] = useState<string[]>(() => chapters.map((c) => c.id));
  const [drag, setDrag] = useState<Drag | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const handles = useRef(new Map<string, HTMLButtonElement>());
  const rows = useRef(new Map<string, HTMLLIElement>());
  const instructionsId = useId();

  // A new order from the server (a save, another admin) replaces the local one.
  useEffect(() => {
    setOrder(serverOrder ? serverOrder.split(",") : []);
  }, [serverOrder]);

  // A refused order (another admin changed the chapters meanwhile) puts the saved order back.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.formError) return;
    setOrder(serverOrder ? serverOrder.split(",") : []);
    setFailure(fetcher.data.formError);
  }, [fetcher.state, fetcher.data, serverOrder]);

  // Moving a row moves its DOM node, which can drop focus: keep it on the handle being moved.
  useLayoutEffect(() => {
    if (drag?.by !== "keyboard") return;
    const handle = handles.current.get(drag.id);
    if (handle && document.activeElement !== handle) handle.focus();
  });

  if (chapters.length === 0) {
    return (
      <p className="text-slate-600">No chapters yet. Add your first chapter to get started.</p>
    );
  }

  const byId = new Map(chapters.map((c) => [c.id, c]));
  const shown = order.filter((id) => byId.has(id));
  const titleOf = (id: string) => byId.get(id)?.title ?? "";
  const position = (ids: string[], id: string) => `${ids.indexOf(id) + 1} of ${ids.length}`;

  function moveTo(ids: string[], id: string, to: number): string[] {
    const rest = ids.filter((x) => x !== id);
    rest.splice(Math.max(0, Math.min(rest.length, to)), 0, id);
    return rest;
  }

  function drop(current: Drag, ids: string[]) {
    setDrag(null);
    if (ids.join(",") === current.before.join(",")) {
      setAnnouncement(`${titleOf(current.id)} dropped where it was.`);
      return;
    }
    setAnnouncement(`${titleOf(current.id)} dropped at position ${position(ids, current.id)}.`);
    setFailure(null);
    fetcher.submit(
      { intent: "reorder-chapters", courseId, chapterIds: ids.join(",") },
      { method: "post", action: "/admin/courses", preventScrollReset: true },
    );
  }

  function cancel(current: Drag) {
    setDrag(null);
    setOrder(current.before);
    setAnnouncement(
      `Move cancelled. ${titleOf(current.id)} is back at position ${position(current.before, current.id)}.`,
    );
  }

  function onHandleKeyDown(event: React.KeyboardEvent, id: string) {
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      if (drag?.id === id) drop(drag, shown);
      else {
        setDrag({ id, before: shown, by: "keyboard" });
        setAnnouncement(
          `Picked up ${titleOf(id)}, position ${position(shown, id)}. Use the up and down arrow keys to move it, Space to drop it, Escape to cancel.`,
        );
      }
    } else if (drag?.id === id && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      const to = shown.indexOf(id) + (event.key === "ArrowUp" ? -1 : 1);
      if (to < 0 || to >= shown.length) return;
      const next = moveTo(shown, id, to);
      setOrder(next);
      setAnnouncement(`${titleOf(id)} moved to position ${position(next, id)}.`);
    } else if (drag?.id === id && event.key === "Escape") {
      event.preventDefault();
      cancel(drag);
    }
  }

  function onPointerDown(event: React.PointerEvent<HTMLButtonElement>, id: string) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ id, before: shown, by: "pointer" });
  }

  function onPointerMove(event: React.PointerEvent, id: string) {
    if (drag?.id !== id || drag.by !== "pointer") return;
    // The row goes to the place of the first other row whose middle is below the pointer.
    const others = shown.filter((x) => x !== id);
    let to = others.length;
    for (const [i, other] of others.entries()) {
      const box = rows.current.get(other)?.getBoundingClientRect();
      if (box && event.clientY < box.top + box.height / 2) {
        to = i;
        break;
      }
    }
    const next = moveTo(shown, id, to);
    if (next.join(",") !== shown.join(",")) setOrder(next);
  }

  function onPointerUp(id: string) {
    if (drag?.id !== id || drag.by !== "pointer") return;
    drop(drag, shown);
  }

  const last = shown.length - 1;
  return (
    <>
      <p id={instructionsId} className="sr-only">
        To move a chapter, press Space on its drag handle, move it with the up and down arrow keys,
        and press Space again to drop it. Escape cancels.
      </p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {failure ? (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
        >
          {failure}
        </p>
      ) : null}
      <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200">
        {shown.map((id, i) => {
          const chapter = byId.get(id);
          if (!chapter) return null;
          if (editing?.id === id) {
            return (
              <li key={id} className="p-2">
                <ChapterForm key={editing.id} courseId={courseId} chapter={editing} />
              </li>
            );
          }
          const dragging = drag?.id === id;
          return (
            <li
              key={id}
              ref={(el) => {
                if (el) rows.current.set(id, el);
                else rows.current.delete(id);
              }}
              className={`flex flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2 ${dragging ? "relative z-10 bg-indigo-50 shadow-md ring-2 ring-indigo-400" : "bg-white"}`}
            >
              {hydrated ? (
                <button
                  type="button"
                  ref={(el) => {
                    if (el) handles.current.set(id, el);
                    else handles.current.delete(id);
                  }}
                  aria-label={`Drag to reorder: ${chapter.title}`}
                  aria-describedby={instructionsId}
                  aria-pressed={dragging}
                  title="Drag to reorder"
                  onKeyDown={(e) => onHandleKeyDown(e, id)}
                  onPointerDown={(e) => onPointerDown(e, id)}
                  onPointerMove={(e) => onPointerMove(e, id)}
                  onPointerUp={() => onPointerUp(id)}
                  onPointerCancel={() => drag && cancel(drag)}
                  onBlur={(e) => {
                    // Tabbing away puts the chapter back; a blur from moving the row's node does not.
                    if (drag?.id === id && drag.by === "keyboard" && e.relatedTarget) cancel(drag);
                  }}
                  className={`${iconClass} cursor-grab touch-none active:cursor-grabbing`}
                >
                  <Icon name="drag" />
                </button>
              ) : null}
              <span className="w-6 text-sm text-slate-500">{i + 1}.</span>
              <span className="flex min-w-0 flex-1 basis-40 flex-wrap items-center gap-2 break-words">
                {chapter.title}
                {chapter.published ? null : <DraftBadge />}
              </span>
              <RowActions
                kind="chapter"
                title={chapter.title}
                fields={{ courseId, chapterId: id }}
                first={i === 0}
                last={i === last}
                previewTo={`/course/${courseId}?chapter=${id}`}
                editTo={`/admin/courses?course=${courseId}&chapter=${id}`}
                confirmMessage={confirmDeleteChapter}
              />
            </li>
          );
        })}
      </ol>
    </>
  );
}
