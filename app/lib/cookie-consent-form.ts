import { z } from "./zod";

// The cookie banner's form, as the server takes it (POST /cookie-consent). The
// banner itself does not import this (it keeps zod out of every page's script).

/** Consent is one of all, essential, none (docs/product.md, Cookie consent). */
export const consentFormSchema = z.object({
  consent: z.enum(["all", "essential", "none"], "Choose all, essential or none"),
  /** The page the choice was made on, to go back to. */
  returnTo: z.string().max(2048).optional(),
});

/**
 * `returnTo` as a path of this site ("/x?y"), else null: never another site
 * ("//evil.test", "/\\evil.test", "https://evil.test"). Judged after the URL
 * parser has normalized it: "/..//evil.test" and "/\\evil.test" resolve to the
 * path "//evil.test", which a browser reads as another host.
 */
export function localPath(returnTo: string | null | undefined, origin: string): string | null {
  if (!returnTo?.startsWith("/")) return null;
  let url: URL;
  try {
    url = new URL(returnTo, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin || url.pathname.startsWith("//")) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
