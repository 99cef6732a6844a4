import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { FormAnswer } from "~/lib/form-answer";
import { chapterTitleRequired } from "~/lib/forms";
import { ErrorBox } from "../ui";
import { formatWhen } from "./console";
import { FormActions } from "./form-actions";
import { LabelledInput } from "./labelled-input";
import { PublishedSwitch } from "./published-switch";
import type { EditorHandle } from "./rich-text-editor";
import { RichTextField } from "./rich-text-field";
import { useUnsavedChangesGuard } from "./unsaved-changes";

/** A failed save (a success redirects to the course, which says so). */
export type EditedChapter = {
  id: string;
  title: string;
  contentHtml: string;
  published: boolean;
  /** When it was announced to the course's members by e-mail; null: never. */
  announcedAt: Date | null;
};

/**
 * Writes a new chapter (chapter null) or edits one. An edit is shown in place
 * of its chapter in the list; a new one below the list.
 */
export function ChapterForm({
  courseId,
  chapter,
}: {
  courseId: string;
  chapter: EditedChapter | null;
}) {
  const fetcher = useFetcher<FormAnswer>();
  const editor = useRef<EditorHandle>(null);
  const [title, setTitle] = useState(chapter?.title ?? "");
  const [published, setPublished] = useState(chapter?.published ?? true);
  const [announce, setAnnounce] = useState(false);
  const [contentChanged, setContentChanged] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();
  const busy = fetcher.state !== "idle";
  const dirty =
    title !== (chapter?.title ?? "") ||
    published !== (chapter?.published ?? true) ||
    contentChanged;
  const guard = useUnsavedChangesGuard(dirty);
  const { allowLeaving } = guard;

  const titleInput = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);

  // Bring the form into view and put the cursor in the title.
  useEffect(() => {
    form.current?.scrollIntoView({ block: "nearest" });
    titleInput.current?.focus();
  }, []);

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    setError(result.formError);
    allowLeaving(false);
  }, [fetcher.data, fetcher.state, allowLeaving]);

  function save(event: React.FormEvent) {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) {
      setError(chapterTitleRequired);
      return;
    }
    setError(null);
    allowLeaving();
    fetcher.submit(
      {
        intent: chapter ? "update-chapter" : "create-chapter",
        courseId,
        ...(chapter ? { chapterId: chapter.id } : {}),
        title: trimmed,
        content: editor.current?.getHtml() ?? chapter?.contentHtml ?? "",
        published: published ? "on" : "off",
        ...(published && announce ? { announce: "on" } : {}),
      },
      { method: "post", action: "/admin/courses" },
    );
  }

  return (
    <form
      ref={form}
      onSubmit={save}
      aria-labelledby={headingId}
      className="scroll-mt-20 space-y-4 rounded-lg border border-indigo-200 bg-indigo-50/40 p-4"
    >
      <h3 id={headingId} className="font-semibold">
        {chapter ? "Edit chapter" : "New chapter"}
      </h3>
      {error ? <ErrorBox>{error}</ErrorBox> : null}
      <LabelledInput
        label="Chapter title"
        ref={titleInput}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        maxLength={200}
        required
      />
      <PublishedSwitch checked={published} onChange={setPublished} what="chapter" />
      <Announce
        announcedAt={chapter?.announcedAt ?? null}
        published={published}
        checked={announce}
        onChange={setAnnounce}
      />
      <RichTextField
        label="Content"
        ref={editor}
        initialHtml={chapter?.contentHtml ?? ""}
        onError={setError}
        onChange={() => setContentChanged(true)}
      />
      <FormActions
        busy={busy}
        canSave={title.trim() !== ""}
        saveLabel="Save chapter"
        cancelTo={`/admin/courses?course=${courseId}`}
      />
      {guard.dialog}
    </form>
  );
}

/**
 * The tick box that e-mails the course's members that the chapter is out,
 * once it is saved published; once it has been, the date it was.
 */
function Announce({
  announcedAt,
  published,
  checked,
  onChange,
}: {
  announcedAt: Date | null;
  published: boolean;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  if (announcedAt) {
    return (
      <p className="text-sm text-slate-600">
        Announced by e-mail on{" "}
        <time dateTime={new Date(announcedAt).toISOString()}>{formatWhen(announcedAt)}</time>.
      </p>
    );
  }
  if (!published) return null;
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400 text-indigo-600 focus-visible:ring-2 focus-visible:ring-indigo-500"
      />
      <label htmlFor={id} className="text-slate-800">
        E-mail the members who can open this course that this chapter is out
        <span className="block text-sm text-slate-600">
          Sent once, when you save, to members who have not unsubscribed.
        </span>
      </label>
    </div>
  );
}
