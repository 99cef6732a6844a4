import { site } from "~/config/site";
import { robotsTxt } from "~/lib/crawlers";

/** /robots.txt: prerendered at build (react-router.config.ts) and served from memory. */
export function loader() {
  return new Response(robotsTxt(site.canonicalOrigin), {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
