import { publicPagePaths, signInPagePaths } from "../route-policies";

/**
 * Public pages that are the same for every visitor: prerendered at build and
 * served from memory, listed in the sitemap. Declared in app/route-policies.ts
 * (`prerender: "public"`).
 */
export const publicPaths = publicPagePaths;

/**
 * The sign-in, sign-up and password-reset request pages: prerendered and served from
 * memory like the public pages, but not in the sitemap. A visitor gets the copy only for
 * the plain URL: with a query string (`/login?reset=1` shows a message) the page is
 * rendered per request. Signed-in users are always rendered per request (and redirected).
 * Declared in app/route-policies.ts (`prerender: "sign-in"`).
 */
export const signInPaths = signInPagePaths;
