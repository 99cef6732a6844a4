/**
 * What the HTTP shell does by URL, declared once beside app/routes.ts and keyed
 * by the same route patterns (with their leading slash). A route without an
 * entry gets the defaults: rendered per request, not kept by the page cache,
 * a 1 MB body limit, the Origin check, and every method React Router answers.
 *
 * Read by react-router.config.ts (what is prerendered), the HTTP shell
 * (app/server/http/: static files, page cache, Origin check, body limits),
 * the funnel's counting (app/server/analytics/page-views.server.ts) and the
 * course page (isPrefetch). route-policies.test.ts checks every pattern is a route.
 */

/** The body limit of every request unless its route says otherwise. */
export const maxBodyBytes = 1024 * 1024;
/** Uploads (5 MB: an image, a vision document) plus the multipart envelope. */
export const maxUploadBodyBytes = 5 * 1024 * 1024 + 64 * 1024;
/** A product's file (25 MB, uploads/store.server.ts) plus the multipart envelope. */
export const maxProductFileBodyBytes = 25 * 1024 * 1024 + 64 * 1024;

export type RoutePolicy = {
  /**
   * Rendered once at build and served from memory to requests without a
   * session cookie. "public": a page of the sales site, listed in the
   * sitemap. "sign-in": served from memory only for its plain URL (with a
   * query string it is rendered: /login?reset=1), not in the sitemap.
   * "file": a resource route prerendered to a file (sitemap.xml, robots.txt).
   */
  prerender?: "public" | "sign-in" | "file";
  /**
   * Kept per session by the member page cache (decision 009), for the plain
   * URL and for a query of only these parameters (others render per request).
   */
  pageCache?: { query: readonly string[] };
  /** The largest request body in bytes (413 beyond); maxBodyBytes when unset. */
  bodyLimit?: number;
  /**
   * false: non-GET requests are taken without an Origin header or from another
   * site (webhooks: the payment providers' servers sign their requests instead).
   */
  originCheck?: false;
  /**
   * false: never waits for a turn nor is turned away busy past the server's
   * capacity (decision 030): the payment providers' notifications, the
   * one-click unsubscribe, and the owner's console (decision 040), its
   * `.data` requests included.
   */
  queue?: false;
  /**
   * The only methods the route takes: GET and HEAD are answered 405 with
   * Allow (resource routes that only take POST: their loader is postOnly).
   */
  methods?: readonly ["POST"];
  /**
   * The page adds the marketplace's disclaimer script (use-body-script.ts):
   * its Content-Security-Policy allows that script's host, which no other
   * page's does (app/server/http/csp.server.ts).
   */
  marketplaceScript?: true;
  /**
   * A step of the funnel (docs/product.md, Funnel), counted for visitors who
   * accepted analytical cookies. "page": a GET of the page answered 200 or
   * 304 is a view. "client page": also its `.data`, which the app's client
   * loads after sign-up or the checkout. "plans": a client page whose form
   * starting a checkout (a POST to it or its `.data`) is the /checkout step.
   */
  funnel?: "page" | "client page" | "plans";
};

const postOnly = { methods: ["POST"] } as const satisfies RoutePolicy;
const webhook = { ...postOnly, originCheck: false, queue: false } as const satisfies RoutePolicy;
const ownersConsole = { queue: false } as const satisfies RoutePolicy;

export const routePolicies = {
  "/": { prerender: "public", funnel: "page" },
  "/ailabs-offer": { prerender: "public", funnel: "page" },
  "/ailabs-offer2": { prerender: "public", funnel: "page" },
  "/white-label-upsell": { prerender: "public", marketplaceScript: true, funnel: "page" },
  "/custom-saas-upsell": { prerender: "public", marketplaceScript: true, funnel: "page" },
  "/custom-saas-thank-you": { prerender: "public" },
  "/privacy-policy": { prerender: "public" },
  "/terms-of-service": { prerender: "public" },
  "/upgrades": { prerender: "public" },
  "/jv-affiliate": { prerender: "public" },
  "/jv-doc": { prerender: "public" },
  "/demo-swipes": { prerender: "public" },

  "/login": { prerender: "sign-in" },
  "/signup": { prerender: "sign-in" },
  "/forgot-password": { prerender: "sign-in" },

  "/payment-options": { funnel: "plans" },
  "/success": { funnel: "client page" },

  "/dashboard": { pageCache: { query: [] } },
  "/course/:courseId": { pageCache: { query: ["chapter"] } },

  "/sitemap.xml": { prerender: "file" },
  "/robots.txt": { prerender: "file" },
  "/cookie-consent": postOnly,
  "/coaching": { bodyLimit: maxUploadBodyBytes },
  "/api/uploads": { ...postOnly, bodyLimit: maxUploadBodyBytes },
  // The owner's console (decision 040): a few requests of one owner, never turned away busy.
  "/admin": ownersConsole,
  "/admin/courses": ownersConsole,
  "/admin/members": ownersConsole,
  "/admin/members/:userId": ownersConsole,
  "/admin/sales": ownersConsole,
  "/admin/learning": ownersConsole,
  "/admin/funnel": ownersConsole,
  "/admin/products": { ...ownersConsole, bodyLimit: maxProductFileBodyBytes },
  "/admin/applications": ownersConsole,
  "/admin/email": ownersConsole,
  "/admin/settings": ownersConsole,
  "/admin/audit": ownersConsole,
  "/api/webhooks/stripe": webhook,
  "/api/webhooks/warriorplus": webhook,
  // RFC 8058: mail providers' servers POST the one-click unsubscribe, signed by its token.
  "/email/unsubscribe": webhook,
} as const satisfies Record<string, RoutePolicy>;

type Pattern = keyof typeof routePolicies;
type PathsWith<K extends RoutePolicy["prerender"]> = {
  [P in Pattern]: (typeof routePolicies)[P] extends { prerender: K } ? P : never;
}[Pattern];

const patternsWith = <K extends RoutePolicy["prerender"]>(kind: K) =>
  (Object.keys(routePolicies) as Pattern[]).filter(
    (p) => (routePolicies[p] as RoutePolicy).prerender === kind,
  ) as PathsWith<K>[];

/** Public pages, the same for every visitor: prerendered, in the sitemap. */
export const publicPagePaths = patternsWith("public");
/** The sign-in, sign-up and password-reset request pages: prerendered, plain URL only. */
export const signInPagePaths = patternsWith("sign-in");
/** Everything react-router.config.ts prerenders: pages and files. */
export const prerenderPaths = [
  ...publicPagePaths,
  ...signInPagePaths,
  ...patternsWith("file"),
] as const;

type FunnelPage = {
  [P in Pattern]: (typeof routePolicies)[P] extends { funnel: string } ? P : never;
}[Pattern];
/** A funnel step, by the path its views are counted under: its pages and the checkout. */
export type FunnelPagePath = FunnelPage | "/checkout";

/** The funnel's steps in order: its pages as declared, the checkout after the plans page. */
export const funnelPagePaths: readonly FunnelPagePath[] = (
  Object.keys(routePolicies) as Pattern[]
).flatMap((p): FunnelPagePath[] => {
  const funnel = (routePolicies[p] as RoutePolicy).funnel;
  if (!funnel) return [];
  return funnel === "plans" ? [p as FunnelPage, "/checkout"] : [p as FunnelPage];
});

/** The step a GET counts as a view of, by URL path (no query). */
const viewedPages = new Map<string, FunnelPagePath>();
/** The URL paths a POST to starts a checkout (the /checkout step). */
const checkoutStarts = new Set<string>();
for (const [pattern, policy] of Object.entries(routePolicies) as [FunnelPage, RoutePolicy][]) {
  if (!policy.funnel) continue;
  viewedPages.set(pattern, pattern);
  if (policy.funnel !== "page") viewedPages.set(`${pattern}.data`, pattern);
  if (policy.funnel === "plans") checkoutStarts.add(pattern).add(`${pattern}.data`);
}

/** The funnel step a request of this method and URL path would count for, if any. */
export function funnelStepOf(method: string | undefined, path: string): FunnelPagePath | undefined {
  if (method === "GET") return viewedPages.get(path);
  return method === "POST" && checkoutStarts.has(path) ? "/checkout" : undefined;
}

type HeaderSource = Headers | Readonly<Record<string, string | string[] | undefined>>;
const purposeHeaders = ["sec-purpose", "purpose", "x-moz"] as const;
const prefetchPurpose = /prefetch|prerender/i;

/**
 * Whether a request is a browser's prefetch or prerender (Sec-Purpose,
 * Purpose, or Firefox's X-Moz), not a visit: it is not counted in the funnel,
 * does not move a member's resume point, and is not kept by the page cache.
 */
export function isPrefetch(headers: HeaderSource): boolean {
  for (const name of purposeHeaders) {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    if (value != null && prefetchPurpose.test(String(value))) return true;
  }
  return false;
}

const none: RoutePolicy = {};
/** Patterns without a dynamic segment, looked up as they are. */
const exact = new Map<string, RoutePolicy>();
/** Patterns with `:param` segments, each matching one segment (React Router's rule). */
const dynamic: { pattern: RegExp; policy: RoutePolicy }[] = [];
for (const [pattern, policy] of Object.entries(routePolicies) as [string, RoutePolicy][]) {
  if (!pattern.includes(":")) {
    exact.set(pattern, policy);
    continue;
  }
  const source = pattern
    .split("/")
    .map((segment) =>
      segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  dynamic.push({ pattern: new RegExp(`^${source}$`), policy });
}

/** The policy of the route a URL path (no query) goes to; {} for a route without one. */
export function policyFor(path: string): RoutePolicy {
  const found = exact.get(path);
  if (found) return found;
  for (const { pattern, policy } of dynamic) if (pattern.test(path)) return policy;
  return none;
}

/**
 * The query parameters the page cache takes for a path, or undefined when it
 * does not keep that page. Only page URLs: a path with a dot (React Router's
 * `.data` requests, file names) is not a page.
 */
export function pageCacheQueryFor(path: string): readonly string[] | undefined {
  if (path.includes(".")) return undefined;
  return policyFor(path).pageCache?.query;
}
