// The address a chapter's link may point to: the schemes the sanitizer keeps
// (app/server/content/sanitize.server.ts; docs/product.md, Validation rules).

const allowedSchemes = new Set(["http:", "https:", "mailto:", "tel:"]);

export const linkAddressError =
  "Enter a full address starting with http://, https://, mailto: or tel:";

/** The address as it will be stored, or null when it is not an http, https, mailto or tel address. */
export function checkLinkAddress(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (!allowedSchemes.has(url.protocol)) return null;
  if ((url.protocol === "http:" || url.protocol === "https:") && !url.hostname) return null;
  if ((url.protocol === "mailto:" || url.protocol === "tel:") && url.pathname === "") return null;
  return trimmed;
}
