import type { ServerBuild } from "react-router";

type Pattern = { pattern: string; regex: RegExp; score: number };

/** Label of a path no route takes (a 404): one value, however many such URLs come. */
export const unknownRoute = "(none)";

/** The full path pattern of every route of the build: its own path joined to its parents'. */
export function routePatterns(routes: ServerBuild["routes"]): string[] {
  const fullPath = (id: string | undefined): string => {
    const route = id ? routes[id] : undefined;
    if (!route) return "";
    const parent = fullPath(route.parentId);
    if (!route.path) return parent;
    return `${parent.replace(/\/$/, "")}/${route.path.replace(/^\//, "")}`;
  };
  const patterns = new Set<string>();
  for (const [id, route] of Object.entries(routes)) {
    if (!route || (!route.path && !route.index)) continue;
    patterns.add(fullPath(id) || "/");
  }
  return [...patterns];
}

function compile(pattern: string): Pattern {
  const segments = pattern.split("/").filter(Boolean);
  let score = 0;
  const parts = segments.map((segment) => {
    if (segment === "*") {
      score -= 100;
      return "(?:/.*)?";
    }
    if (segment.startsWith(":")) {
      score += 1;
      return segment.endsWith("?") ? "(?:/[^/]+)?" : "/[^/]+";
    }
    score += 10;
    return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
  });
  return { pattern, regex: new RegExp(`^${parts.join("") || "/"}/?$`), score };
}

/**
 * Turns a request path into the route pattern that answers it, for metrics
 * labels: `/course/4f1c...` → `/course/:courseId`, `/dashboard.data` →
 * `/dashboard.data`, anything no route takes → `(none)`. The most specific
 * pattern wins (static segments before parameters, a splat last). Results are
 * memoized in a bounded map, so the hot paths pay one lookup.
 */
export function createRouteLabeler(
  routes: ServerBuild["routes"],
  /** Paths the HTTP shell answers itself (/metrics), outside React Router's routes. */
  shellPaths: readonly string[] = [],
): (path: string) => string {
  const compiled = [...shellPaths, ...routePatterns(routes)]
    .map(compile)
    .sort((a, b) => b.score - a.score);
  const memo = new Map<string, string>();
  const match = (path: string) => compiled.find((p) => p.regex.test(path))?.pattern;
  return (path) => {
    let label = memo.get(path);
    if (label !== undefined) return label;
    // React Router's data requests: /x.data for /x, /_root.data for /.
    if (path.endsWith(".data")) {
      const page = path === "/_root.data" ? "/" : path.slice(0, -".data".length);
      const pattern = match(page);
      label = pattern ? `${pattern === "/" ? "" : pattern}.data` : unknownRoute;
      if (label === ".data") label = "/_root.data";
    } else {
      label = match(path) ?? unknownRoute;
    }
    if (memo.size >= 5000) memo.clear();
    memo.set(path, label);
    return label;
  };
}
