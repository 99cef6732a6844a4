import { expect, type Page, type Response } from "@playwright/test";
import { publicPaths, signInPaths } from "~/config/public-paths";
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

function expectStrictPolicy(response: Response | null): void {
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src 'self' https:\/\/warriorplus\.com[; ]/);
  expect(policy).not.toContain("unsafe-inline");
  expect(policy).not.toContain("unsafe-eval");
  expect(policy).toContain("frame-src https://www.youtube.com");
  expect(policy).toContain("img-src 'self' data: https:");
}

/** Opens `path`, waits until its scripts have run, and checks nothing was refused. */
async function visit(page: Page, errors: string[], path: string): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  expectStrictPolicy(response);
  const islands = await page.locator("[data-island]").count();
  const full = await page.evaluate(() => "__reactRouterContext" in window);
  if (full) await hydrated(page.locator("body"));
  else if (islands > 0) await islandsHydrated(page);
  expect(await page.evaluate(() => window.cspViolations), path).toEqual([]);
  expect(errors, path).toEqual([]);
}

test("every public page, prerendered or rendered, runs its scripts under the policy", async ({
  page,
}) => {
  const errors = await watchPolicy(page);
  // Prerendered (hashes), then rendered per request (a query string: nonces).
  for (const path of [
    ...publicPaths,
    ...signInPaths,
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
  await visit(page, errors, "/dashboard");
  // The second answer comes from the page cache: the same bytes and the same policy.
  await visit(page, errors, "/dashboard");
  const course = page.getByRole("link", { name: new RegExp(demoCourseTitle) }).first();
  const href = (await course.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/course\//);
  await visit(page, errors, href);
  await visit(page, errors, href);
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
  await visit(adminPage, errors, "/payment-options");
});
