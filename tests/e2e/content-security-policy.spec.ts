import { expect, type Page, type Response } from "@playwright/test";
import { publicPagePaths, signInPagePaths } from "~/route-policies";
import {
  collectErrors,
  createAccount,
  demoCourseTitle,
  hydrated,
  islandsHydrated,
  test,
} from "./helpers";

// Every page, signed out and signed in, runs its scripts under the
// Content-Security-Policy (app/server/http/csp.server.ts): no violation, no
// console error, and the page hydrates (its inline scripts ran).

declare global {
  interface Window {
    cspViolations: string[];
  }
}

async function watchPolicy(page: Page): Promise<string[]> {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.cspViolations.push(
        `${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  return collectErrors(page);
}

/** The two upsell pages, which add the marketplace's script (app/route-policies.ts). */
const marketplacePages = ["/white-label-upsell", "/custom-saas-upsell"];

function expectStrictPolicy(response: Response | null, path: string): string {
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy, path).toMatch(/^default-src 'self'; /);
  const scripts = /script-src ([^;]*)/.exec(policy)?.[1] ?? "";
  if (marketplacePages.includes(new URL(path, "http://x").pathname)) {
    expect(scripts, path).toMatch(/^'self' https:\/\/warriorplus\.com '/);
  } else {
    expect(scripts, path).toMatch(/^'self'( '(nonce|sha256)-[^']+')*$/);
  }
  expect(policy).not.toMatch(/script-src[^;]*unsafe/);
  expect(policy).not.toContain("unsafe-eval");
  expect(policy).toContain("style-src 'self';");
  expect(policy).toContain("frame-src https://www.youtube.com");
  expect(policy).toContain("img-src 'self' data: https: http:");
  return policy;
}

/** Opens `path`, waits until its scripts have run, and checks nothing was refused. */
async function visit(page: Page, errors: string[], path: string): Promise<string> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  const policy = expectStrictPolicy(response, path);
  const islands = await page.locator("[data-island]").count();
  const full = await page.evaluate(() => "__reactRouterContext" in window);
  if (full) await hydrated(page.locator("body"));
  else if (islands > 0) await islandsHydrated(page);
  expect(await page.evaluate(() => window.cspViolations), path).toEqual([]);
  expect(errors, path).toEqual([]);
  return policy;
}

test("every public page, prerendered or rendered, runs its scripts under the policy", async ({
  page,
}) => {
  const errors = await watchPolicy(page);
  // Prerendered (hashes), then rendered per request (a query string: nonces).
  for (const path of [
    ...publicPagePaths,
    ...signInPagePaths,
    "/login?reset=1",
    "/ailabs-offer?ref=x",
    "/cancel",
  ]) {
    await visit(page, errors, path);
  }
});

test("a member's pages run their scripts under the policy, also when answered from the page cache", async ({
  page,
}) => {
  test.slow();
  const errors = await watchPolicy(page);
  await createAccount(page, { paid: true });
  // Later answers come from the page cache: the same bytes, their inline scripts named by
  // hashes, and never a nonce that served another answer.
  const nonces: string[] = [];
  const policies = async (path: string) => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await visit(page, errors, path));
    for (const policy of answers) nonces.push(...(policy.match(/'nonce-[^']+'/g) ?? []));
    expect(answers[2], path).toMatch(/script-src 'self' 'sha256-/);
    expect(answers[2]).toBe(answers[1]);
  };
  await policies("/dashboard");
  const course = page.getByRole("link", { name: new RegExp(demoCourseTitle) }).first();
  const href = (await course.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/course\//);
  await policies(href);
  expect(new Set(nonces).size).toBe(nonces.length);
  // Chapter images may be at http:// addresses, on any host.
  const imageHost = new URL(page.url()).origin.replace("localhost", "127.0.0.1");
  const loaded = await page.evaluate(
    (src) =>
      new Promise<boolean>((resolve) => {
        const image = new Image();
        image.onload = () => resolve(true);
        image.onerror = () => resolve(false);
        image.src = src;
      }),
    `${imageHost}/favicon.ico`,
  );
  expect(loaded).toBe(true);
  expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
  for (const path of ["/app-idea-generator", "/app-builder", "/bonuses", "/account", "/success"]) {
    await visit(page, errors, path);
  }
  // Navigating in the app (client-side) after hydration refuses nothing either.
  await page.getByRole("link", { name: "Dashboard" }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
  expect(errors).toEqual([]);
});

test("the admin panel and its lazily loaded editor run under the policy", async ({ adminPage }) => {
  const errors = await watchPolicy(adminPage);
  await visit(adminPage, errors, "/admin");
  await visit(adminPage, errors, "/admin/courses");
  await visit(adminPage, errors, "/payment-options");
});
