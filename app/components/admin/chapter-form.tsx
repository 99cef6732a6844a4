import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { FormAnswer } from "~/lib/form-answer";
import { chapterTitleRequired } from "~/lib/forms";
import { FormActions } from "./form-actions";
import { LabelledInput } from "./labelled-input";
import { PublishedSwitch } from "./published-switch";
import type { EditorHandle } from "./rich-text-editor";
import { useUnsavedChangesGuard } from "./unsaved-changes";

// Quill is loaded only when an admin opens this form: never in public or member bundles.
const RichTextEditor = lazy(() => import("./rich-text-editor"));

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
  const [mounted, setMounted] = useState(false);
  const labelId = useId();
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
    setMounted(true);
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
      {error ? (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
        >
          {error}
        </p>
      ) : null}
      <LabelledInput
        label="Chapter title"
        ref={titleInput}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        maxLength={200}
        required
      />
      <PublishedSwitch checked={published} onChange={setPublished} what="chapter" />
      <div>
        <span id={labelId} className="block text-sm font-medium text-slate-700">
          Content
        </span>
        <div className="mt-1">
          {mounted ? (
            <Suspense fallback={<EditorLoading />}>
              <RichTextEditor
                ref={editor}
                initialHtml={chapter?.contentHtml ?? ""}
                labelId={labelId}
                onError={setError}
                onChange={() => setContentChanged(true)}
              />
            </Suspense>
          ) : (
            <EditorLoading />
          )}
        </div>
      </div>
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

function EditorLoading() {
  return (
    <div
      role="status"
      className="flex h-64 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-500"
    >
      Loading editor…
    </div>
  );
}
