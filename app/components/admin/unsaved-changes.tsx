import { type ReactNode, useCallback, useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { confirmLeaveUnsaved } from "~/lib/course-authoring";
import { Dialog, dialogButtonClass } from "./dialog";

/**
 * Asks before leaving a form with unsaved changes: a link or Back inside the
 * app opens an in-page dialog; closing or reloading the tab gets the
 * browser's own question. Call `allowLeaving()` when the form is submitted,
 * so that its own save is not held up (and `allowLeaving(false)` when that save failed).
 */
export function useUnsavedChangesGuard(dirty: boolean): {
  dialog: ReactNode;
  allowLeaving: (allowed?: boolean) => void;
} {
  const leaving = useRef(false);
  const allowLeaving = useCallback((allowed = true) => {
    leaving.current = allowed;
  }, []);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !leaving.current &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      // Older browsers need returnValue set to ask.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  const dialog =
    blocker.state === "blocked" ? (
      <Dialog title="Leave this form?" description={confirmLeaveUnsaved} onCancel={blocker.reset}>
        <div className="flex flex-wrap justify-end gap-3">
          <button
            type="button"
            data-autofocus
            className={dialogButtonClass.cancel}
            onClick={blocker.reset}
          >
            Stay on the form
          </button>
          <button type="button" className={dialogButtonClass.danger} onClick={blocker.proceed}>
            Leave without saving
          </button>
        </div>
      </Dialog>
    ) : null;

  return { dialog, allowLeaving };
}
