import type { Config } from "@react-router/dev/config";
import { prerenderPaths } from "./app/route-policies";

export default {
  ssr: true,
  // Public pages and the sign-in pages are rendered once at build time; the HTTP shell
  // serves them from memory, precompressed (see server.ts and docs/decisions/002).
  // The sitemap and robots.txt too: resource routes prerender to files served the same way.
  // Which ones is declared in app/route-policies.ts (`prerender`).
  prerender: [...prerenderPaths],
  future: {
    // Loaders get the request itself, not a copy, so the root loader and the route's loader
    // share one session lookup (guards.server.ts caches it per Request).
    v8_passThroughRequests: true,
  },
} satisfies Config;
