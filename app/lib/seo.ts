import type { PublicOffer } from "~/components/marketing/use-offer";
import { site } from "~/config/site";
import { type PublicPagePath, pageTexts } from "~/content/page-meta";
import { offerDefaults } from "~/lib/offer";

/**
 * The meta tags every public page carries: title, description, canonical URL
 * and Open Graph. `path` is the page's route ("/" for home). Origin: the
 * site's canonical origin from config (prerendered pages cannot read the
 * request).
 */
export function pageMeta({
  title,
  description,
  path,
  image = "/og-image.png",
}: {
  title: string;
  description: string;
  path: string;
  image?: string;
}) {
  const url = `${site.canonicalOrigin}${path}`;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: site.brand },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: `${site.canonicalOrigin}${image}` },
    { name: "twitter:card", content: "summary_large_image" },
  ];
}

/**
 * The meta tags of a public page, from its title and description in
 * app/content/page-meta.ts. `offer`: the offer settings its loader returned,
 * for a description that quotes one (the defaults when there is no data).
 */
export function pageMetaFor(path: PublicPagePath, offer: PublicOffer = offerDefaults) {
  const { title, description } = pageTexts[path];
  return pageMeta({
    title,
    description: typeof description === "function" ? description(offer) : description,
    path,
  });
}
