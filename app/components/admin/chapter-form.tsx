import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { FormAnswer } from "~/lib/form-answer";
import { chapterTitleRequired } from "~/lib/forms";
import { ErrorBox } from "../ui";
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
