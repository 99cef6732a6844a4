import { lazy, type ReactNode, type Ref, Suspense, useEffect, useId, useState } from "react";
import type { EditorHandle } from "./rich-text-editor";

// Quill is loaded only when an admin opens a form with this field: never in public or member bundles.
const RichTextEditor = lazy(() => import("./rich-text-editor"));

/**
 * The chapter editor under its label (a chapter's content, a broadcast's
 * message): loaded in the browser once the form is on the page, with a
 * loading state until then. `hint` stands under it.
 */
export function RichTextField({
  label,
  initialHtml,
  onError,
  onChange,
  ref,
  hint,
  placeholder,
}: {
  label: string;
  placeholder?: string;
  initialHtml: string;
  onError: (message: string) => void;
  onChange?: () => void;
  ref: Ref<EditorHandle>;
  hint?: ReactNode;
}) {
  const labelId = useId();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <div>
      <span id={labelId} className="block text-sm font-medium text-slate-700">
        {label}
      </span>
      <div className="mt-1">
        {mounted ? (
          <Suspense fallback={<EditorLoading />}>
            <RichTextEditor
              ref={ref}
              initialHtml={initialHtml}
              labelId={labelId}
              onError={onError}
              onChange={onChange}
              placeholder={placeholder}
            />
          </Suspense>
        ) : (
          <EditorLoading />
        )}
      </div>
      {hint}
    </div>
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
