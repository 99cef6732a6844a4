import Quill from "quill";
import Video from "quill/formats/video";
import "quill/dist/quill.snow.css";
import "./rich-text-editor.css";
import { type Ref, useEffect, useId, useImperativeHandle, useRef, useState } from "react";
import { checkLinkAddress, linkAddressError } from "~/lib/link-address";
import { Dialog, dialogButtonClass } from "./dialog";
import { LabelledInput } from "./labelled-input";
import { imageTypes, uploadImage } from "./upload-image";

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

/** Where a link goes in: the selection when the link button was pressed. */
type LinkTarget = { index: number; length: number };

/**
 * Quill 2 with the toolbar and history limits of docs/product.md, Admin panel.
 * Loaded only by the admin panel, on demand (see chapter-form.tsx). Images are
 * uploaded to /api/uploads and referenced by URL, never inlined. The link
 * button asks for an address in an in-page dialog; the toolbar stays in view
 * while a long chapter scrolls (rich-text-editor.css).
 */
export default function RichTextEditor({
  initialHtml,
  labelId,
  onError,
  onChange,
  ref,
  placeholder = "Write the chapter…",
}: {
  initialHtml: string;
  /** What the empty editor says. */
  placeholder?: string;
  labelId: string;
  onError: (message: string) => void;
  /** The admin changed the content. */
  onChange?: () => void;
  ref: Ref<EditorHandle>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const quill = useRef<Quill | null>(null);
  const reportError = useRef(onError);
  reportError.current = onError;
  const reportChange = useRef(onChange);
  reportChange.current = onChange;
  const [linkTarget, setLinkTarget] = useState<LinkTarget | null>(null);

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
      placeholder,
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
            link: () => {
              const range = q.getSelection(true);
              setLinkTarget({ index: range.index, length: range.length });
            },
            image: () => {
              const input = document.createElement("input");
              input.type = "file";
              input.accept = imageTypes;
              input.onchange = () => {
                const file = input.files?.[0];
                if (file) void insertImage(q, file, (m) => reportError.current(m));
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
    q.on("text-change", (_delta, _old, source) => {
      if (source === "user") reportChange.current?.();
    });
    labelToolbar(container);
    quill.current = q;
    return () => {
      quill.current = null;
      container.innerHTML = "";
    };
  }, [initialHtml, labelId, placeholder]);

  function insertLink(address: string) {
    const q = quill.current;
    const target = linkTarget;
    setLinkTarget(null);
    if (!q || !target) return;
    if (target.length > 0) {
      q.formatText(target.index, target.length, "link", address, "user");
      q.setSelection(target.index + target.length, 0, "user");
    } else {
      // Nothing selected: the address itself becomes the link's text.
      q.insertText(target.index, address, "link", address, "user");
      q.setSelection(target.index + address.length, 0, "user");
    }
  }

  function cancelLink() {
    const target = linkTarget;
    setLinkTarget(null);
    if (target) quill.current?.setSelection(target.index, target.length, "silent");
  }

  return (
    <>
      <div ref={host} className="rich-text-editor bg-white" />
      {linkTarget ? <LinkDialog onInsert={insertLink} onCancel={cancelLink} /> : null}
    </>
  );
}

/** Asks for a link's address: an empty field, checked before the link is made. */
function LinkDialog({
  onInsert,
  onCancel,
}: {
  onInsert: (address: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  function submit(event: React.SyntheticEvent) {
    // This form sits inside the chapter form: it must not submit that one.
    event.preventDefault();
    event.stopPropagation();
    const address = checkLinkAddress(value);
    if (address) onInsert(address);
    else setError(linkAddressError);
  }
  return (
    <Dialog title="Insert link" onCancel={onCancel}>
      <div className="space-y-4">
        <LabelledInput
          label="Link address"
          type="text"
          inputMode="url"
          autoComplete="off"
          data-autofocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") submit(e);
          }}
          placeholder="https://"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        >
          {error ? (
            <p id={errorId} role="alert" className="mt-1 text-sm text-red-800">
              {error}
            </p>
          ) : null}
        </LabelledInput>
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className={dialogButtonClass.cancel} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className={dialogButtonClass.primary} onClick={submit}>
            Insert link
          </button>
        </div>
      </div>
    </Dialog>
  );
}

async function insertImage(q: Quill, file: File, onError: (message: string) => void) {
  try {
    const url = await uploadImage(file);
    const range = q.getSelection(true);
    q.insertEmbed(range.index, "image", url, "user");
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
