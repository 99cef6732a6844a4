import { site } from "~/config/site";
import { sitemapXml } from "~/lib/crawlers";

/** /sitemap.xml: prerendered at build (react-router.config.ts) and served from memory. */
export function loader() {
  return new Response(sitemapXml(site.canonicalOrigin), {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
}
