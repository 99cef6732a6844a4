/**
 * Every page is painted from its HTML and stylesheet; React Router's scripts
 * only make it interactive. Its `<link rel="modulepreload">` tags (one per
 * module of the page, 120-130 KB gzip on a page that runs the client) would
 * be fetched at high priority, beside the stylesheet, and delay the first
 * paint on a slow connection. Asked for at low priority, they load just
 * after what the paint needs. React Router's <Scripts> passes no attribute
 * to them but the nonce, so the rendered HTML gets it here (every page:
 * entry.server.tsx renders the prerendered ones at build too).
 */
const preload = '<link rel="modulepreload"';
const lowPriorityPreload = '<link rel="modulepreload" fetchpriority="low"';

export function preloadScriptsAfterPaint(html: Buffer): Buffer {
  if (html.indexOf(preload) === -1) return html;
  return Buffer.from(html.toString("utf8").replaceAll(preload, lowPriorityPreload));
}
