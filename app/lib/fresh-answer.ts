import { useState } from "react";

/**
 * An action's answer that holds what its page shows, read after the write
 * (decision 051): the page shows it at once, and no route reads its data
 * again, so a click is one request instead of two (the action, then every
 * loader of the page). Only for an action that changes nothing another route
 * of the page shows: the root's signed-in user stays as it was.
 */
export type FreshAnswer<T extends object> = T & { fresh: true };

export function freshAnswer<T extends object>(data: T): FreshAnswer<T> {
  return { ...data, fresh: true };
}

/**
 * Whether a request is the page's own data request (React Router's `.data`
 * single fetch; the address keeps its suffix with v8_passThroughRequests):
 * only then is a fresh answer read. A document POST (no JavaScript) is
 * rendered with every loader after its action anyway.
 */
export function wantsFreshAnswer(request: Request): boolean {
  return new URL(request.url).pathname.endsWith(".data");
}

/** Whether an action's result is a fresh answer: its page reads nothing again. */
export function isFreshAnswer(result: unknown): boolean {
  return (
    typeof result === "object" && result !== null && "fresh" in result && result.fresh === true
  );
}

/**
 * What a page shows of its loader's data (`loaded`): the data of the last fresh
 * answer (`answered`) since the loader last read it, else the loader's. An
 * answer that is not fresh (refused, or turned away busy) leaves the last fresh
 * one shown; the loader's next read (a navigation) takes over again.
 */
export function useFresh<T>(loaded: T, answered: T | undefined): T {
  const [shown, setShown] = useState({ loaded, answered, data: answered ?? loaded });
  if (shown.loaded !== loaded) {
    const next = { loaded, answered, data: loaded };
    setShown(next);
    return next.data;
  }
  if (answered !== undefined && answered !== shown.answered) {
    const next = { loaded, answered, data: answered };
    setShown(next);
    return next.data;
  }
  return shown.data;
}
