import Quill from "quill";
import Video from "quill/formats/video";
import "quill/dist/quill.snow.css";
import "./rich-text-editor.css";
import { type Ref, useEffect, useImperativeHandle, useRef } from "react";

export type EditorHandle = { getHtml: () => string };

/**
 * Quill 2's getSemanticHTML writes a video as a plain link; keep the frame
 * instead (the server rewrites it to the standard embed when it is saved).
 */
class VideoFrame extends Video {
  html() {
    return this.domNode.outerHTML;
  }
}
Quill.register(VideoFrame, true);

/**
 * Quill 2's getSemanticHTML writes every space as &nbsp;, so saved text would
 * never wrap: make the first space of each run an ordinary one.
 */
function breakableSpaces(html: string): string {
  return html.replace(/(?:&nbsp;)+/g, (run) => ` ${run.slice("&nbsp;".length)}`);
}

const imageTypes = "image/png, image/gif, image/jpeg, image/bmp, image/x-icon";
const maxImageBytes = 5 * 1024 * 1024;

/**
 * Quill 2 with the toolbar and history limits of docs/product.md, Admin panel.
 * Loaded only by the admin panel, on demand (see chapter-form.tsx). Images are
 * uploaded to /api/uploads and referenced by URL, never inlined.
 */
export default function RichTextEditor({
  initialHtml,
  labelId,
  onError,
  ref,
}: {
  initialHtml: string;
  labelId: string;
  onError: (message: string) => void;
  ref: Ref<EditorHandle>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const quill = useRef<Quill | null>(null);
  const reportError = useRef(onError);
  reportError.current = onError;

  useImperativeHandle(ref, () => ({
    getHtml: () => {
      const q = quill.current;
      if (!q) return initialHtml;
      const empty = q.getLength() <= 1 && !q.root.querySelector("img, iframe");
      return empty ? "" : breakableSpaces(q.getSemanticHTML());
    },
  }));

  useEffect(() => {
    const container = host.current;
    if (!container) return;
    const editorDiv = document.createElement("div");
    container.appendChild(editorDiv);
    const q = new Quill(editorDiv, {
      theme: "snow",
      placeholder: "Write the chapter…",
      modules: {
        toolbar: {
          container: [
            [{ header: [1, 2, 3, false] }],
            ["bold", "italic", "underline"],
            [{ list: "ordered" }, { list: "bullet" }],
            ["link", "image", "video"],
            ["clean"],
          ],
          handlers: {
            image: () => {
              const input = document.createElement("input");
              input.type = "file";
              input.accept = imageTypes;
              input.onchange = () => {
                const file = input.files?.[0];
                if (file) void uploadImage(q, file, (m) => reportError.current(m));
              };
              input.click();
            },
          },
        },
        history: { delay: 1000, maxStack: 100, userOnly: true },
      },
    });
    q.setContents(q.clipboard.convert({ html: initialHtml }), "silent");
    q.history.clear();
    q.root.setAttribute("role", "textbox");
    q.root.setAttribute("aria-multiline", "true");
    q.root.setAttribute("aria-labelledby", labelId);
    labelToolbar(container);
    quill.current = q;
    return () => {
      quill.current = null;
      container.innerHTML = "";
    };
  }, [initialHtml, labelId]);

  return <div ref={host} className="rich-text-editor bg-white" />;
}

async function uploadImage(q: Quill, file: File, onError: (message: string) => void) {
  if (file.size > maxImageBytes) {
    onError("Images can be at most 5 MB.");
    return;
  }
  const body = new FormData();
  body.append("file", file);
  try {
    const res = await fetch("/api/uploads", { method: "POST", body });
    const result = (await res.json()) as { url?: string; error?: string };
    if (!res.ok || !result.url) throw new Error(result.error ?? `Upload failed (${res.status})`);
    const range = q.getSelection(true);
    q.insertEmbed(range.index, "image", result.url, "user");
    q.setSelection(range.index + 1, 0, "silent");
  } catch (error) {
    onError(error instanceof Error ? error.message : "Upload failed");
  }
}

/** Quill's toolbar buttons carry no accessible names of their own. */
function labelToolbar(container: HTMLElement) {
  const names: Record<string, string> = {
    "ql-bold": "Bold",
    "ql-italic": "Italic",
    "ql-underline": "Underline",
    "ql-link": "Insert link",
    "ql-image": "Insert image",
    "ql-video": "Insert video",
    "ql-clean": "Clear formatting",
  };
  for (const button of container.querySelectorAll<HTMLButtonElement>(".ql-toolbar button")) {
    const cls = [...button.classList].find((c) => c.startsWith("ql-"));
    if (!cls) continue;
    const name =
      cls === "ql-list"
        ? button.value === "ordered"
          ? "Numbered list"
          : "Bulleted list"
        : names[cls];
    if (name) button.setAttribute("aria-label", name);
  }
  const header = container.querySelector(".ql-header .ql-picker-label");
  header?.setAttribute("aria-label", "Heading level");
}
