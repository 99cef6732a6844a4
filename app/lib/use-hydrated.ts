import { useEffect, useState } from "react";

/**
 * False during the server render and hydration, true right after: for what
 * depends on the browser (the URL's query on a prerendered page, a confirm()
 * before a form posts) without a hydration mismatch.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
