/** Public pages that are the same for every visitor: prerendered at build and served from memory. */
export const publicPaths = [
  "/",
  "/ailabs-offer",
  "/ailabs-offer2",
  "/white-label-upsell",
  "/custom-saas-upsell",
  "/custom-saas-thank-you",
  "/privacy-policy",
  "/terms-of-service",
  "/upgrades",
  "/jv-affiliate",
  "/jv-doc",
  "/demo-swipes",
] as const;

/**
 * The sign-in, sign-up and password-reset request pages: prerendered and served from
 * memory like the public pages, but not in the sitemap. A visitor gets the copy only for
 * the plain URL: with a query string (`/login?reset=1` shows a message) the page is
 * rendered per request. Signed-in users are always rendered per request (and redirected).
 */
export const signInPaths = ["/login", "/signup", "/forgot-password"] as const;

/** Every page prerendered at build (react-router.config.ts). */
export const prerenderedPaths = [...publicPaths, ...signInPaths] as const;
