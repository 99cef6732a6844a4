import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";

/**
 * A modal dialog in the page (the browser's <dialog>): focus moves into it,
 * Tab stays inside, Escape cancels, and focus goes back to what had it when
 * it closes (or to `fallbackFocus` when that is gone, e.g. a deleted row).
 */
export function Dialog({
  title,
  description,
  children,
  onCancel,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  /** Escape, or the dialog closed by anything but its own buttons. */
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const cancel = useRef(onCancel);
  cancel.current = onCancel;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    // Focus goes to the element marked data-autofocus (the safe answer, or the field).
    dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    const onEscape = (event: Event) => {
      event.preventDefault();
      cancel.current();
    };
    dialog.addEventListener("cancel", onEscape);
    return () => {
      dialog.removeEventListener("cancel", onEscape);
      if (dialog.open) dialog.close();
      // The element that opened the dialog gets focus back when it is still on the page.
      if (opener?.isConnected) opener.focus();
      else document.querySelector<HTMLElement>("main h1")?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="space-y-4 p-5">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {description ? (
          <p id={descriptionId} className="text-slate-700">
            {description}
          </p>
        ) : null}
        {children}
      </div>
    </dialog>
  );
}

const buttonBase = "min-h-11 rounded-md px-4 py-2 font-semibold";
export const dialogButtonClass = {
  cancel: `${buttonBase} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`,
  danger: `${buttonBase} bg-red-700 text-white hover:bg-red-800`,
  primary: `${buttonBase} bg-indigo-600 text-white hover:bg-indigo-700`,
};

type Question = { title: string; message: string; confirmLabel: string; danger: boolean };

/**
 * Asks a yes-or-no question in an in-page dialog: `ask(...)` resolves true
 * when confirmed, false on Cancel or Escape. Render `dialog` once in the page.
 * Focus starts on Cancel, so Enter right away does not destroy anything.
 */
export function useConfirm(): [dialog: ReactNode, ask: (question: Question) => Promise<boolean>] {
  const [pending, setPending] = useState<(Question & { resolve: (ok: boolean) => void }) | null>(
    null,
  );
  const ask = useCallback(
    (question: Question) => new Promise<boolean>((resolve) => setPending({ ...question, resolve })),
    [],
  );
  const answer = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  const dialog = pending ? (
    <Dialog title={pending.title} description={pending.message} onCancel={() => answer(false)}>
      <div className="flex flex-wrap justify-end gap-3">
        <button
          type="button"
          data-autofocus
          className={dialogButtonClass.cancel}
          onClick={() => answer(false)}
        >
          Cancel
        </button>
        <button
          type="button"
          className={pending.danger ? dialogButtonClass.danger : dialogButtonClass.primary}
          onClick={() => answer(true)}
        >
          {pending.confirmLabel}
        </button>
      </div>
    </Dialog>
  ) : null;
  return [dialog, ask];
}
