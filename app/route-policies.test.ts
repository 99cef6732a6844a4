import { describe, expect, it } from "vitest";
import reactRouterConfig from "../react-router.config";
import {
  funnelPagePaths,
  funnelStepOf,
  isPrefetch,
  maxUploadBodyBytes,
  pageCacheQueryFor,
  policyFor,
  prerenderPaths,
  publicPagePaths,
  routePolicies,
  signInPagePaths,
} from "./route-policies";
import routeConfig from "./routes";
import { postOnly } from "./server/http/post-only.server";
import { loadAppRoutes } from "./test/app-handler";

type ConfigEntry = { path?: string; index?: boolean; children?: ConfigEntry[] };
const routePatterns = (routeConfig as ConfigEntry[])
  .flatMap((r) => r.children ?? [r])
  .map((r) => (r.index ? "/" : `/${r.path ?? ""}`));

describe("route policies", () => {
  it("are declared for routes of app/routes.ts only", () => {
    for (const pattern of Object.keys(routePolicies)) {
      expect(routePatterns, pattern).toContain(pattern);
    }
  });

  it("prerender routes, and the config prerenders exactly them", () => {
    for (const path of prerenderPaths) expect(routePatterns, path).toContain(path);
    expect(prerenderPaths.every((p) => !p.includes(":"))).toBe(true);
    expect(reactRouterConfig.prerender).toEqual([
      ...publicPagePaths,
      ...signInPagePaths,
      "/sitemap.xml",
      "/robots.txt",
    ]);
  });

  it("give the public pages and the sign-in pages", () => {
    expect(publicPagePaths).toEqual([
      "/",
      "/ailabs-offer",
      "/ailabs-offer2",
      "/white-label-upsell",
      "/custom-saas-upsell",
      "/custom-saas-thank-you",
      "/privacy-policy",
      "/terms-of-service",
      "/upgrades",
      "/jv-affiliate",
      "/jv-doc",
      "/demo-swipes",
    ]);
    expect(signInPagePaths).toEqual(["/login", "/signup", "/forgot-password"]);
  });

  it("keep the dashboard and course pages in the page cache, courses with ?chapter=", () => {
    expect(pageCacheQueryFor("/dashboard")).toEqual([]);
    expect(pageCacheQueryFor("/course/abc-123")).toEqual(["chapter"]);
    for (const path of [
      "/",
      "/dashboard/",
      "/dashboard.data",
      "/course/abc.data",
      "/course/abc/def",
      "/course/",
      "/course",
      "/courses/abc",
      "/account",
      "/login",
      "/admin",
    ]) {
      expect(pageCacheQueryFor(path), path).toBeUndefined();
    }
  });

  it("waive the Origin check for the webhooks and the one-click unsubscribe only", () => {
    expect(policyFor("/api/webhooks/stripe").originCheck).toBe(false);
    expect(policyFor("/api/webhooks/warriorplus").originCheck).toBe(false);
    for (const path of ["/api/uploads", "/login", "/course/1", "/api/webhooks", "/api/webhook"]) {
      expect(policyFor(path).originCheck, path).toBeUndefined();
    }
    const waived = Object.entries(routePolicies).filter(
      ([, policy]) => "originCheck" in policy && policy.originCheck === false,
    );
    expect(waived.map(([pattern]) => pattern)).toEqual([
      "/api/webhooks/stripe",
      "/api/webhooks/warriorplus",
      "/email/unsubscribe",
    ]);
  });

  it("raise the body limit for uploads only", () => {
    expect(policyFor("/api/uploads").bodyLimit).toBe(maxUploadBodyBytes);
    for (const path of ["/", "/admin", "/api/webhooks/stripe", "/uploads/x.webp"]) {
      expect(policyFor(path).bodyLimit, path).toBeUndefined();
    }
  });

  it("declare POST-only exactly the routes whose loader is postOnly", async () => {
    const routes = await loadAppRoutes();
    const withPostOnlyLoader = routes
      .filter((r) => r.module.loader === (postOnly as unknown))
      .map((r) => r.pattern);
    const declared = Object.entries(routePolicies)
      .filter(([, policy]) => "methods" in policy)
      .map(([pattern]) => pattern);
    expect(withPostOnlyLoader.sort()).toEqual(declared.sort());
    expect(declared).toEqual([
      "/api/uploads",
      "/api/webhooks/stripe",
      "/api/webhooks/warriorplus",
      "/cookie-consent",
      "/email/unsubscribe",
    ]);
    for (const route of routes.filter((r) => declared.includes(r.pattern))) {
      expect(route.module.action, route.pattern).toBeDefined();
    }
  });

  it("give the funnel's steps in order, and which requests count for each", () => {
    expect(funnelPagePaths).toEqual([
      "/",
      "/ailabs-offer",
      "/ailabs-offer2",
      "/white-label-upsell",
      "/custom-saas-upsell",
      "/payment-options",
      "/checkout",
      "/success",
    ]);
    expect(funnelStepOf("GET", "/ailabs-offer")).toBe("/ailabs-offer");
    expect(funnelStepOf("GET", "/ailabs-offer.data")).toBeUndefined();
    expect(funnelStepOf("GET", "/success.data")).toBe("/success");
    expect(funnelStepOf("POST", "/payment-options.data")).toBe("/checkout");
    expect(funnelStepOf("POST", "/success")).toBeUndefined();
    expect(funnelStepOf("HEAD", "/")).toBeUndefined();
    expect(funnelStepOf("GET", "/privacy-policy")).toBeUndefined();
  });

  it("tell a prefetch or prerender from a visit, from node's headers or a Request's", () => {
    for (const headers of [
      { "sec-purpose": "prefetch" },
      { "sec-purpose": "prefetch;prerender" },
      { purpose: "Prefetch" },
      { "x-moz": "prefetch" },
    ] as Record<string, string>[]) {
      expect(isPrefetch(headers), JSON.stringify(headers)).toBe(true);
      expect(isPrefetch(new Headers(headers)), JSON.stringify(headers)).toBe(true);
    }
    expect(isPrefetch({})).toBe(false);
    expect(isPrefetch(new Headers({ "user-agent": "prefetch-less browser" }))).toBe(false);
  });
});
