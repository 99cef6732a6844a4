import { publicPagePaths } from "~/route-policies";

/** Members' and admin areas, checkout and APIs: kept out of search engines (robots.txt). */
export const disallowedPaths = [
  "/dashboard",
  "/course/",
  "/admin",
  "/app-builder",
  "/app-idea-generator",
  "/bolt-prompt",
  "/bonuses",
  "/account",
  "/api/",
  "/checkout/",
] as const;

/** The sitemap of the public pages, with absolute URLs on `origin`. */
export function sitemapXml(origin: string, paths: readonly string[] = publicPagePaths): string {
  const urls = paths
    .map((p) => `  <url>\n    <loc>${escapeXml(`${origin}${p}`)}</loc>\n  </url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** robots.txt: public pages allowed, the members' area, admin, checkout and APIs not. */
export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...disallowedPaths.map((p) => `Disallow: ${p}`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
