import sanitizeHtml from "sanitize-html";

/** The standard embed frame (docs/product.md, Course viewer). */
/**
 * The hosts a chapter may embed video from: the sanitizer keeps iframes of
 * these only, and the Content-Security-Policy's frame-src allows these only.
 */
export const videoHosts = [
  "www.youtube.com",
  "www.youtube-nocookie.com",
  "player.vimeo.com",
] as const;
/**
 * Where a chapter's images may come from (img-src): uploads, data: images, any
 * https or http host. The specification lets a chapter's images be http
 * addresses; on an https page the browser upgrades them to https itself.
 */
export const chapterImageSources = ["'self'", "data:", "https:", "http:"] as const;

export const embedWidth = 560;
export const embedHeight = 315;

/**
 * The video address as an embed URL of YouTube (no-cookie host kept) or
 * Vimeo, or null for anything else. Accepts the watch, short and embed forms
 * that an admin pastes into the editor's video button.
 */
export function toEmbedUrl(src: string): string | null {
  let url: URL;
  try {
    url = new URL(src.trim(), "https://invalid.invalid");
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.toLowerCase();
  const id = /^[A-Za-z0-9_-]{6,20}$/;
  if (host === "youtu.be") {
    const v = url.pathname.slice(1);
    return id.test(v) ? `https://www.youtube.com/embed/${v}` : null;
  }
  if (
    ["www.youtube.com", "youtube.com", "m.youtube.com", "www.youtube-nocookie.com"].includes(host)
  ) {
    const embedHost = host === "www.youtube-nocookie.com" ? host : "www.youtube.com";
    const embed = url.pathname.match(/^\/(?:embed|shorts|live)\/([^/?#]+)$/)?.[1];
    const v = embed ?? (url.pathname === "/watch" ? url.searchParams.get("v") : null);
    return v && id.test(v) ? `https://${embedHost}/embed/${v}` : null;
  }
  if (host === "vimeo.com" || host === "www.vimeo.com" || host === "player.vimeo.com") {
    const v = url.pathname.match(/^\/(?:video\/)?(\d{5,12})\/?$/)?.[1];
    return v ? `https://player.vimeo.com/video/${v}` : null;
  }
  return null;
}

/** The tags a chapter keeps: what Quill produces. */
export const chapterTags = [
  "p",
  "br",
  "h1",
  "h2",
  "h3",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "a",
  "ul",
  "ol",
  "li",
  "img",
  "iframe",
  "blockquote",
  "pre",
  "code",
];

/** The attributes a chapter's links, images and frames keep (Quill's classes aside). */
export const chapterAttributes: Record<"a" | "img" | "iframe", string[]> = {
  a: ["href", "target", "rel"],
  img: ["src", "alt", "width", "height"],
  iframe: ["src", "width", "height", "allow", "allowfullscreen", "frameborder", "title", "loading"],
};

const options: sanitizeHtml.IOptions = {
  allowedTags: chapterTags,
  allowedAttributes: {
    ...chapterAttributes,
    li: ["class"],
    p: ["class"],
    h1: ["class"],
    h2: ["class"],
    h3: ["class"],
  },
  // Quill's indentation and alignment classes only.
  allowedClasses: {
    li: [/^ql-indent-[1-8]$/],
    p: [/^ql-indent-[1-8]$/, /^ql-align-(center|right|justify)$/],
    h1: [/^ql-align-(center|right|justify)$/],
    h2: [/^ql-align-(center|right|justify)$/],
    h3: [/^ql-align-(center|right|justify)$/],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https", "data"], iframe: ["https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  allowedIframeHostnames: [...videoHosts],
  disallowedTagsMode: "discard",
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "template",
    "title",
    "xmp",
    "noembed",
    "noframes",
    "iframe",
  ],
  transformTags: {
    a: (tagName, attribs) => {
      const out: Record<string, string> = { rel: "noopener noreferrer" };
      if (attribs.href) out.href = attribs.href;
      if (attribs.target === "_blank") out.target = "_blank";
      return { tagName, attribs: out };
    },
    iframe: (tagName, attribs): sanitizeHtml.Tag => {
      const src = attribs.src ? toEmbedUrl(attribs.src) : null;
      // An unknown frame loses its src and is dropped by exclusiveFilter below.
      if (!src) return { tagName, attribs: {} as Record<string, string> };
      return {
        tagName,
        attribs: {
          src,
          width: String(embedWidth),
          height: String(embedHeight),
          frameborder: "0",
          allow:
            "accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture",
          allowfullscreen: "",
          title: "Embedded video",
          loading: "lazy",
        },
      };
    },
    img: (tagName, attribs) => {
      const src = attribs.src ?? "";
      const dataImage = /^data:image\/(png|gif|jpeg|bmp|x-icon|webp);base64,[a-z0-9+/=\s]+$/i;
      const ok =
        /^https?:\/\//i.test(src) ||
        /^\/uploads\/[0-9a-f-]{36}\.(png|gif|jpg|bmp|ico)$/.test(src) ||
        dataImage.test(src);
      const out: Record<string, string> = {};
      if (ok) out.src = src;
      if (attribs.alt) out.alt = attribs.alt;
      for (const dim of ["width", "height"] as const) {
        const value = attribs[dim];
        if (value && /^\d{1,4}$/.test(value)) out[dim] = value;
      }
      return { tagName, attribs: out };
    },
  },
  exclusiveFilter: (frame) =>
    (frame.tag === "iframe" && !frame.attribs.src) || (frame.tag === "img" && !frame.attribs.src),
};

/**
 * Cleans chapter HTML before it is stored: Quill's tags only; links http(s),
 * mailto and tel with rel="noopener noreferrer"; images at http(s) addresses
 * (as the specification allows), our uploads and data:image; frames only YouTube and Vimeo embeds, rewritten to the
 * standard 560x315 frame. Every script, handler and style is removed.
 */
export function sanitizeChapterHtml(html: string): string {
  return sanitizeHtml(html, options).trim();
}
