// A broadcast as one member receives it: the owner's message (chapter HTML,
// sanitized when it was saved) with the seller's name and postal address and
// the member's own unsubscribe link, as HTML and as plain text from the same
// parts. Every link is absolute to PUBLIC_ORIGIN; there is no tracking pixel.

import { site } from "../../config/site";
import { escapeHtml, type MessageContent } from "./messages.server";
import { oneClickUrl, preferencesUrl } from "./preferences.server";

export type Sender = { sellerName: string; sellerAddress: string; supportEmail: string };

export type BroadcastInput = {
  subject: string;
  bodyHtml: string;
  /** The recipient's unsubscribe token (preferences.server.ts). */
  token: string;
  origin: string;
  sender: Sender;
};

/** Relative links and images of the body, absolute to the site; video frames as links. */
export function absoluteBody(bodyHtml: string, origin: string): string {
  return bodyHtml
    .replace(/<iframe[^>]*\ssrc="([^"]+)"[^>]*>\s*<\/iframe>/g, (_, src: string) => {
      return `<p><a href="${src}">Watch the video</a></p>`;
    })
    .replace(/\s(href|src)="\/(?!\/)/g, (_, attribute: string) => ` ${attribute}="${origin}/`);
}

const entities: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&nbsp;": " ",
};

/** The plain-text part of sanitized HTML: paragraphs, lines and list items kept, links as "label (address)". */
export function textOfHtml(html: string): string {
  return html
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, (_, href: string, label: string) => {
      const text = label.replace(/<[^>]+>/g, "").trim();
      return text && text !== href ? `${text} (${href})` : href;
    })
    .replace(/<img\s[^>]*alt="([^"]*)"[^>]*>/g, (_, alt: string) => (alt ? `[${alt}]` : ""))
    .replace(/<li[^>]*>/g, "\n- ")
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/<\/(p|h[1-6]|blockquote|pre|ol|ul)>/g, "\n\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => entities[entity] ?? entity)
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The message and its unsubscribe headers (RFC 2369 and RFC 8058's one click). */
export function broadcastMessage(input: BroadcastInput): {
  message: MessageContent;
  headers: Record<string, string>;
} {
  const { origin, sender } = input;
  const preferences = preferencesUrl(origin, input.token);
  const body = absoluteBody(input.bodyHtml, origin);
  const address = sender.sellerAddress.trim();
  const why = `You get this e-mail because you have an account at ${site.brand}.`;
  const text = [
    textOfHtml(body),
    "--",
    why,
    `Unsubscribe or change your e-mail preferences: ${preferences}`,
    [sender.sellerName, address].filter(Boolean).join("\n"),
  ].join("\n\n");
  const small = 'style="margin:0 0 8px;font-size:13px;color:#64748b"';
  const html = [
    '<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:16px;line-height:1.5;color:#1e293b">',
    body,
    '<hr style="border:0;border-top:1px solid #e2e8f0;margin:24px 0">',
    `<p ${small}>${escapeHtml(why)} <a href="${escapeHtml(preferences)}" style="color:#4f46e5;text-decoration:underline">Unsubscribe or change your e-mail preferences</a>.</p>`,
    `<p ${small}>${escapeHtml(sender.sellerName)}${address ? `<br>${escapeHtml(address).replaceAll("\n", "<br>")}` : ""}</p>`,
    "</body></html>",
  ].join("\n");
  return {
    message: { subject: input.subject, text, html },
    headers: {
      "List-Unsubscribe": `<${oneClickUrl(origin, input.token)}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/** The address of a From like `"Name" <a@b.c>` (or a bare address). */
export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}
