/**
 * Clears what this site keeps in the browser. The logout response also sends
 * Clear-Site-Data, which clears cookies and storage even without JavaScript;
 * this covers browsers that ignore that header.
 */
export function clearBrowserStorage() {
  // React Router's scroll restoration saves positions to sessionStorage on pagehide, which
  // fires after this handler: clear again then (this listener is added after React Router's).
  window.addEventListener("pagehide", clearStorage, { once: true });
  clearStorage();
  for (const cookie of document.cookie.split(";")) {
    const name = cookie.split("=")[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and Safari.
    if (name) document.cookie = `${name}=; Max-Age=0; path=/`;
  }
}

function clearStorage() {
  try {
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch {
    // Storage can be disabled; nothing to clear then.
  }
}
