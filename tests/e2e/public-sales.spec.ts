import { expect, type Response, test } from "@playwright/test";
import { salesFunnel } from "../../app/config/site";
import {
  createAccount,
  hydrated,
  islandsHydrated,
  openWithPausedClock,
  testPagesOpenCleanly,
} from "./helpers";

const pages = [
  { path: "/ailabs-offer", heading: /Build and Launch Your Own AI SaaS App in 7 Days/ },
  { path: "/ailabs-offer2", heading: /Turn One Written Prompt Into an AI App/ },
  { path: "/upgrades", heading: "Upgrade Your AI SaaS Business" },
  { path: "/white-label-upsell", heading: "12-in-1 White Label AI SaaS Empire" },
  { path: "/custom-saas-upsell", heading: "Custom SaaS & 1-on-1 Coaching" },
  { path: "/custom-saas-thank-you", heading: "Thank You! Your Order Is Confirmed" },
] as const;

testPagesOpenCleanly(pages, async (page) => {
  await expect(page.getByRole("link", { name: "Privacy Policy" }).first()).toBeVisible();
});

test("FAQ questions open and close independently", async ({ page }) => {
  await page.goto("/white-label-upsell");
  const first = page.getByRole("button", { name: "What does white label mean here?" });
  const second = page.getByRole("button", { name: "Is this a one-time payment?" });
  await hydrated(first);
  await expect(page.getByRole("main").getByRole("button", { expanded: false })).toHaveCount(5);

  await first.click();
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect(first).toContainText("−");
  await expect(page.getByText(/remove our branding/)).toBeVisible();
  await expect(second).toHaveAttribute("aria-expanded", "false");
  await expect(second).toContainText("+");

  await second.click();
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect(second).toHaveAttribute("aria-expanded", "true");

  await first.click();
  await expect(first).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByText(/remove our branding/)).toBeHidden();
  await expect(second).toHaveAttribute("aria-expanded", "true");
});

test("the sales countdown starts at 2 days 23:59:59 and ticks each second", async ({ page }) => {
  await openWithPausedClock(page, "/ailabs-offer");
  const timer = page.getByRole("timer", { name: "Launch price ends in" });
  const unit = (name: string) => timer.locator(`[data-unit="${name}"]`);
  await hydrated(timer);
  await expect(unit("Days")).toHaveText("2");
  await expect(unit("Hours")).toHaveText("23");
  await expect(unit("Minutes")).toHaveText("59");
  await expect(unit("Seconds")).toHaveText("59");
  await page.clock.runFor(1000);
  await expect(unit("Seconds")).toHaveText("58");
  await page.clock.runFor(59_000);
  await expect(unit("Minutes")).toHaveText("58");
  await expect(unit("Seconds")).toHaveText("59");
});

test("the build demo starts at 500 ms and shows the deploy button 2 s after the last step", async ({
  page,
}) => {
  await openWithPausedClock(page, "/ailabs-offer");
  const firstStep = page
    .getByRole("listitem")
    .filter({ hasText: "Initializing project structure" });
  await islandsHydrated(page);
  await expect(firstStep).toHaveAttribute("data-status", "waiting");
  await expect(page.getByRole("button", { name: "Building Your SaaS Application" })).toBeVisible();
  await page.clock.runFor(500);
  await expect(firstStep).toHaveAttribute("data-status", "in-progress");
  await page.clock.runFor(3500);
  const lastStep = page.getByRole("listitem").filter({ hasText: "Finalizing and optimizing code" });
  await expect(lastStep).toHaveAttribute("data-status", "complete");
  await expect(page.getByRole("link", { name: "Deploy Your SaaS Application" })).toHaveCount(0);
  await page.clock.runFor(2000);
  await expect(page.getByRole("link", { name: "Deploy Your SaaS Application" })).toBeVisible();
  await expect(
    page.getByText("Your AI SaaS app is ready to launch and start generating revenue!"),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Building Your SaaS Application" })).toHaveCount(0);
  // The first sales page stays deployed.
  await page.clock.runFor(10_000);
  await expect(page.getByRole("link", { name: "Deploy Your SaaS Application" })).toBeVisible();
});

test("the second sales page resets its demo 4 s after deploying, with the next prompt", async ({
  page,
}) => {
  await openWithPausedClock(page, "/ailabs-offer2");
  await islandsHydrated(page);
  await expect(page.getByText(/AI e-mail assistant that drafts replies/)).toBeVisible();
  await page.clock.runFor(6000);
  await expect(page.getByRole("link", { name: "Deploy Your SaaS Application" })).toBeVisible();
  await page.clock.runFor(4000);
  await expect(page.getByRole("link", { name: "Deploy Your SaaS Application" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Building Your SaaS Application" })).toBeVisible();
  await expect(page.getByText(/image background remover/)).toBeVisible();
});

test.describe("with reduced motion", () => {
  test.use({ reducedMotion: "reduce" });
  test("the build demo shows its finished state at once", async ({ page }) => {
    await page.goto("/ailabs-offer");
    await expect(page.getByRole("link", { name: "Deploy Your SaaS Application" })).toBeVisible({
      timeout: 2000,
    });
  });
});

test("buy links go to the configured checkout; new-tab ones carry rel=noopener", async ({
  page,
}) => {
  const { checkoutUrls, noThanksUrls } = salesFunnel;
  // The funnel sells in the product (the default with the test checkout on): sign-up first.
  for (const [path, offer] of [
    ["/ailabs-offer", "plan"],
    ["/ailabs-offer2", "offer2"],
  ] as const) {
    await page.goto(path);
    const buy = page.getByRole("link", { name: /Get Instant Access|Yes, I Want Lifetime Access/ });
    expect(await buy.count()).toBeGreaterThanOrEqual(3);
    for (const link of await buy.all()) {
      await expect(link).toHaveAttribute("href", `/buy/${offer}`);
    }
  }

  // The upsells are bought in one click: each button posts its page's form (the
  // marketplace mode's links: upsell.server.test.ts).
  await page.goto("/white-label-upsell");
  const upgrade = page.getByRole("button", { name: /Yes, Upgrade My Order/ });
  expect(await upgrade.count()).toBeGreaterThanOrEqual(2);
  for (const button of await upgrade.all()) {
    await expect(button.locator("xpath=ancestor::form[1]")).toHaveAttribute("method", "post");
  }
  await expect(page.locator(`a[href="${checkoutUrls.whiteLabel}"]`)).toHaveCount(0);
  for (const link of await page.getByRole("link", { name: /^No Thanks/ }).all()) {
    await expect(link).toHaveAttribute("href", noThanksUrls.whiteLabel);
  }

  await page.goto("/custom-saas-upsell");
  // The spots taken are counted from the purchases (places-left.server.test.ts checks the
  // figures): on the PostgreSQL pass the unit tests' purchases share the database, and all 10
  // may be taken, when the page sells no more.
  const spots = page.getByRole("progressbar", { name: /^\d+ of 10 spots taken$/ });
  const taken = Number(((await spots.getAttribute("aria-label")) ?? "").split(" ")[0]);
  await expect(spots).toHaveAttribute("value", String(taken));
  const apply = page.getByRole("button", { name: /Apply Now/ });
  if (taken >= 10) {
    await expect(page.getByTestId("coaching-places-left")).toHaveText("All spots taken");
    await expect(page.getByText("All 10 places are taken.").first()).toBeVisible();
    await expect(apply).toHaveCount(0);
  } else {
    await expect(page.getByTestId("coaching-places-left")).toHaveText(
      taken === 9 ? "1 spot remaining" : `${10 - taken} spots remaining`,
    );
    expect(await apply.count()).toBeGreaterThanOrEqual(2);
    for (const button of await apply.all()) {
      await expect(button.locator("xpath=ancestor::form[1]")).toHaveAttribute("method", "post");
    }
  }
  await expect(page.getByRole("link", { name: /^No Thanks/ }).first()).toHaveAttribute(
    "href",
    noThanksUrls.coaching,
  );
  await expect(page.getByRole("table")).toContainText("2-4 weeks");
});

test.describe("checkout disclaimer script", () => {
  // On the checkout provider's origin, which the Content-Security-Policy allows (routed, never fetched).
  const scriptUrl = "https://warriorplus.com/o2/disclaimer.js";
  const tag = "script[data-checkout-disclaimer]";

  test("nothing is loaded when no URL is configured", async ({ page }) => {
    expect(salesFunnel.checkoutDisclaimerScriptUrl).toBeNull();
    await page.goto("/white-label-upsell");
    await islandsHydrated(page);
    await expect(page.locator(tag)).toHaveCount(0);
  });

  test("is added on the upsell pages and removed after navigating away", async ({ page }) => {
    // Prerendered pages bake the config in at build time; the hook's test seam supplies a URL.
    await page.addInitScript((url) => {
      window.__ailabsCheckoutDisclaimerScript = url;
    }, scriptUrl);
    let loads = 0;
    await page.route(scriptUrl, (route) => {
      loads++;
      return route.fulfill({
        contentType: "text/javascript",
        body: "window.__disclaimerRan = true;",
      });
    });

    await page.goto("/upgrades");
    await islandsHydrated(page);
    await expect(page.locator(tag)).toHaveCount(0);

    await page.getByRole("link", { name: "See the White Label Empire" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "12-in-1 White Label AI SaaS Empire" }),
    ).toBeVisible();
    await expect(page.locator(`body > ${tag}`)).toHaveAttribute("src", scriptUrl);
    await expect
      .poll(() => page.evaluate(() => (window as { __disclaimerRan?: boolean }).__disclaimerRan))
      .toBe(true);

    // No Thanks leads to the second upsell: still exactly one tag.
    await page
      .getByRole("link", { name: /^No Thanks/ })
      .first()
      .click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Custom SaaS & 1-on-1 Coaching" }),
    ).toBeVisible();
    await expect(page.locator(tag)).toHaveCount(1);

    await page
      .getByRole("navigation", { name: "Page footer" })
      .getByRole("link", { name: "Privacy Policy" })
      .click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    await expect(page.locator(tag)).toHaveCount(0);
    expect(loads).toBeGreaterThanOrEqual(1);
  });
});

test("the sales pages carry one footer: their own, with the disclaimer", async ({ page }) => {
  for (const path of [
    "/ailabs-offer",
    "/upgrades",
    "/white-label-upsell",
    "/custom-saas-thank-you",
  ]) {
    await page.goto(path);
    await expect(page.getByRole("contentinfo"), path).toHaveCount(1);
  }
});

test("visitors to the sales, affiliate and legal pages get their islands, not the router client", async ({
  page,
}) => {
  // Nine pages, each loaded until the network is idle and its scripts fetched
  // again to weigh them: about a minute on two shared cores under the suite.
  test.slow();
  for (const path of [
    "/ailabs-offer",
    "/ailabs-offer2",
    "/upgrades",
    "/white-label-upsell",
    "/custom-saas-upsell",
    "/custom-saas-thank-you",
    "/jv-affiliate",
    "/privacy-policy",
    "/terms-of-service",
  ]) {
    const scripts: string[] = [];
    const onResponse = (r: Response) => {
      if (r.request().resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    };
    page.on("response", onResponse);
    await page.goto(path);
    await islandsHydrated(page);
    await page.waitForLoadState("networkidle");
    page.off("response", onResponse);
    let gzipBytes = 0;
    for (const script of scripts) {
      const response = await page.request.get(script, { headers: { "accept-encoding": "gzip" } });
      gzipBytes += Number(response.headers()["content-length"]);
    }
    expect(
      scripts.some((p) => p.includes("entry.client")),
      path,
    ).toBe(false);
    expect(await page.evaluate(() => "__reactRouterContext" in window), path).toBe(false);
    // React DOM and the page's islands (decision 025; npm run lighthouse's budget).
    expect(gzipBytes, path).toBeLessThanOrEqual(85 * 1024);
  }
});

test("a signed-in user's sales pages run the full client", async ({ page }) => {
  await createAccount(page, { paid: true });
  await page.goto("/upgrades");
  await expect(page.getByText("You have the course. These two upgrades")).toBeVisible();
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(true);
});
