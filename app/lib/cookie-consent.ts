/**
 * Cookie consent (docs/product.md, Cookie banner): the visitor's choice is one of
 * all, essential or none, kept for 2 years in a first-party cookie. Anything
 * else stored there counts as no choice. Pure functions; the banner applies them.
 */

export type Consent = "all" | "essential" | "none";

export const consentCookieName = "cookie_consent";
/** Consent lasts 2 years (docs/product.md, Cookie banner). */
export const consentMaxAgeSeconds = 2 * 365 * 24 * 60 * 60;

const consents: readonly Consent[] = ["all", "essential", "none"];

/** The stored choice, or null when the value is not exactly one of all, essential, none. */
export function parseConsent(value: string | null | undefined): Consent | null {
  return consents.find((c) => c === value) ?? null;
}

/** name -> raw value for each cookie in a `document.cookie` or Cookie header string. */
function cookiePairs(cookieString: string): [string, string][] {
  return cookieString
    .split(";")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf("=");
      return eq === -1 ? [part, ""] : [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    });
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** When the choice was made (ms since 1970), kept beside it so it can be renewed for 2 years. */
export const consentDateCookieName = "cookie_consent_at";

export type StoredConsent = { consent: Consent; chosenAt: number };

/**
 * The consent stored in a cookie string, or null when none, an invalid one,
 * or one chosen 2 years ago or more is stored. A missing or unreadable date
 * counts as chosen now.
 */
export function readConsent(cookieString: string, now = Date.now()): StoredConsent | null {
  const pairs = cookiePairs(cookieString);
  const raw = pairs.find(([name]) => name === consentCookieName)?.[1];
  const consent = parseConsent(raw === undefined ? raw : decode(raw));
  if (!consent) return null;
  const date = Number(pairs.find(([name]) => name === consentDateCookieName)?.[1]);
  const chosenAt = Number.isSafeInteger(date) && date > 0 && date <= now ? date : now;
  return now - chosenAt < consentMaxAgeSeconds * 1000 ? { consent, chosenAt } : null;
}

/**
 * The `document.cookie` assignments that store `consent`, chosen at
 * `chosenAt`, until 2 years after that. Browsers cap a cookie's life at 400
 * days (RFC 6265bis), so the banner writes these again on every visit: the
 * choice lasts the full 2 years for anyone who returns within 400 days.
 */
export function consentCookies(
  { consent, chosenAt }: StoredConsent,
  { secure, now = Date.now() }: { secure: boolean; now?: number },
): string[] {
  const maxAge = Math.max(0, consentMaxAgeSeconds - Math.floor((now - chosenAt) / 1000));
  const attributes = `; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
  return [
    `${consentCookieName}=${consent}${attributes}`,
    `${consentDateCookieName}=${chosenAt}${attributes}`,
  ];
}

/** Analytics cookies set by Google Analytics and similar tools: _ga, _ga_<id>, _gid, _gat... */
export function isAnalyticsCookie(name: string): boolean {
  return name.startsWith("_ga") || name.startsWith("_gid") || name.startsWith("_gat");
}

/**
 * The `document.cookie` assignments that delete every analytics cookie in
 * `cookieString`. A cookie is deleted only with the domain it was set with,
 * which the browser does not tell: expire it host-only and on the host and
 * each parent domain (where analytics tools usually put it).
 */
export function analyticsDeletions(cookieString: string, hostname: string): string[] {
  const names = [...new Set(cookiePairs(cookieString).map(([n]) => n))].filter(isAnalyticsCookie);
  const labels = hostname.split(".");
  const domains =
    labels.length > 1 && !/^[\d.]+$/.test(hostname)
      ? labels.slice(0, -1).map((_, i) => labels.slice(i).join("."))
      : [];
  const expire = "Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/";
  return names.flatMap((name) => [
    `${name}=; ${expire}`,
    ...domains.map((d) => `${name}=; ${expire}; Domain=.${d}`),
  ]);
}
