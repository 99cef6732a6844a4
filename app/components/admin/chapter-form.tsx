import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { chapterTitleRequired } from "~/lib/forms";
import { FormActions } from "./form-actions";
import type { EditorHandle } from "./rich-text-editor";

// Quill is loaded only when an admin opens this form: never in public or member bundles.
const RichTextEditor = lazy(() => import("./rich-text-editor"));

type SaveResult = { ok: true; message: string } | { ok: false; error: string };

export function ChapterForm({
  courseId,
  chapter,
}: {
  courseId: string;
  chapter: { id: string; title: string; contentHtml: string } | null;
}) {
  const fetcher = useFetcher<SaveResult>();
  const navigate = useNavigate();
  const editor = useRef<EditorHandle>(null);
  const [title, setTitle] = useState(chapter?.title ?? "");
  const [error, setError] = useState<string | null>(null);
  const [mounted, setMounted] = useState(false);
  const labelId = useId();
  const titleId = useId();
  const busy = fetcher.state !== "idle";

  const titleInput = useRef<HTMLInputElement>(null);

  // The form opens below the chapter list: bring it into view and put the cursor in the title.
  useEffect(() => {
    setMounted(true);
    titleInput.current?.focus();
  }, []);

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    if (result.ok) navigate(`/admin?course=${courseId}`, { state: { notice: result.message } });
    else setError(result.error);
  }, [fetcher.data, fetcher.state, courseId, navigate]);

  function save(event: React.FormEvent) {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) {
      setError(chapterTitleRequired);
      return;
    }
    setError(null);
    fetcher.submit(
      {
        intent: chapter ? "update-chapter" : "create-chapter",
        courseId,
        ...(chapter ? { chapterId: chapter.id } : {}),
        title: trimmed,
        content: editor.current?.getHtml() ?? chapter?.contentHtml ?? "",
      },
      { method: "post", action: "/admin" },
    );
  }

  return (
    <form
      onSubmit={save}
      className="space-y-4 rounded-lg border border-indigo-200 bg-indigo-50/40 p-4"
    >
      <h3 className="font-semibold">{chapter ? "Edit chapter" : "New chapter"}</h3>
      {error ? (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
        >
          {error}
        </p>
      ) : null}
      <div>
        <label htmlFor={titleId} className="block text-sm font-medium text-slate-700">
          Chapter title
        </label>
        <input
          ref={titleInput}
          id={titleId}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          maxLength={200}
          required
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
        />
      </div>
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
        cancelTo={`/admin?course=${courseId}`}
      />
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
