import { affiliateLaunch, site } from "~/config/site";
import { LINK_PLACEHOLDER } from "./swipes";

/** The banner sizes affiliates can download or embed (/demo-swipes, Banners tab). */
export const banners = [
  { width: 728, height: 90, name: "Leaderboard" },
  { width: 300, height: 250, name: "Medium rectangle" },
  { width: 468, height: 60, name: "Banner" },
  { width: 160, height: 600, name: "Wide skyscraper" },
] as const;

export type Banner = { width: number; height: number; name: string };

export const bannerPath = (b: { width: number; height: number }) =>
  `/banners/ailabs-${b.width}x${b.height}.png`;

/** A mail to the JV team asking for a banner in another size. */
export const customGraphicsMail = `mailto:${affiliateLaunch.jvEmail}?subject=${encodeURIComponent(
  "Custom AI Labs graphics request",
)}&body=${encodeURIComponent(
  "Hi AI Labs team,\n\nI am promoting the launch and would like a banner in this size and style:\n\nMy affiliate ID:\n",
)}`;

/** Tips shown beside the demo video. */
export const videoTips: readonly string[] = [
  "Embed or link the video near the top of your bonus page: visitors who watch it buy more often.",
  "Send it in your second e-mail, after the first one introduces AI Labs, with a line on what the viewer will see.",
  "Post it natively on social media with your affiliate link in the first comment, not in the post.",
  "Keep it short: the demo shows prompt, build and deploy in a few seconds, so it works as a teaser.",
];

/** The affiliate's link when it is a web address; otherwise the placeholder, never a script URL. */
export function bannerHref(link: string): string {
  try {
    const url = new URL(link.trim());
    if (url.protocol === "https:" || url.protocol === "http:") return link.trim();
  } catch {
    // not a URL yet: the affiliate is still typing
  }
  return LINK_PLACEHOLDER;
}

/** The HTML an affiliate pastes to show a banner linking to `link`. */
export function bannerCode(banner: Banner, link: string): string {
  const href = bannerHref(link);
  return `<a href="${escapeAttribute(href)}"><img src="${site.canonicalOrigin}${bannerPath(banner)}" width="${banner.width}" height="${banner.height}" alt="${site.brand}: build and launch an AI SaaS app without coding"></a>`;
}

function escapeAttribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}
