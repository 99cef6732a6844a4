import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { disallowedPaths } from "../../app/lib/crawlers";
import {
  collectErrors,
  createAccount,
  islandsHydrated,
  openWithPausedClock,
  pageHydrated,
} from "./helpers";

const supportEmail = "support@ailabs.app";
const origin = "https://ailabs.app";

/** Stores a cookie choice before the page loads, so the banner stays out of the way. */
async function consentGiven(context: BrowserContext, baseURL: string | undefined) {
  await context.addCookies([{ name: "cookie_consent", value: "all", url: baseURL as string }]);
}

const banner = (page: Page) => page.getByRole("region", { name: "We use cookies" });

test.describe("landing page", () => {
  test.beforeEach(async ({ context, baseURL }) => consentGiven(context, baseURL));

  test("loads with 200, its heading, sections and exactly the documented links, no console errors", async ({
    page,
  }) => {
    const errors = collectErrors(page);
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(
      page.getByRole("heading", {
        level: 1,
        name: "Build and launch your own AI SaaS app without writing code",
      }),
    ).toBeVisible();

    for (const name of ["AI-First Development", "Launch Strategy", "Monetization"]) {
      await expect(page.getByRole("heading", { level: 3, name })).toBeVisible();
    }
    const learn = page.getByRole("region", { name: "What you will learn" }).getByRole("list");
    await expect(learn.first().getByRole("listitem")).toHaveCount(9);
    const offer = page.getByRole("region", { name: "Lifetime Access" });
    await expect(offer.getByText("$25", { exact: true })).toBeVisible();
    await expect(offer.locator("s")).toHaveText("Regular price $197");
    await expect(page.getByRole("heading", { name: "Earnings disclaimer" })).toBeVisible();

    const links = async (scope: ReturnType<Page["getByRole"]>) =>
      scope
        .getByRole("link")
        .evaluateAll((as) =>
          as.map((a) => [a.textContent?.trim(), a.getAttribute("href")] as [string, string]),
        );
    expect(await links(page.getByRole("main"))).toEqual([
      ["Start Learning", "/login"],
      // A buy button: sign-up, then the checkout (the funnel sells in the product here).
      ["Get Lifetime Access", "/buy/plan"],
      ["Get Started Today", "/login"],
    ]);
    expect(await links(page.getByRole("contentinfo"))).toEqual([
      [supportEmail, `mailto:${supportEmail}`],
      ["Privacy Policy", "/privacy-policy"],
      ["Terms of Service", "/terms-of-service"],
    ]);

    // Search and sharing.
    await expect(page).toHaveTitle(/AI Labs/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${origin}/`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{50,}/);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
      "content",
      `${origin}/og-image.png`,
    );
    const og = await page.request.get("/og-image.png");
    expect(og.status()).toBe(200);
    expect(og.headers()["content-type"]).toBe("image/png");

    await islandsHydrated(page);
    expect(errors).toEqual([]);
  });

  test("the build terminal types, builds five steps, shows Deploy Now, and loops after 4 s", async ({
    page,
  }) => {
    await openWithPausedClock(page, "/");
    await islandsHydrated(page);
    const terminal = page.locator("figure [aria-hidden='true']");
    await expect(terminal.getByText("Describe Your App")).toBeVisible();
    await expect(terminal.getByText("Building App")).toBeVisible();

    await page.clock.runFor(2000);
    await expect(terminal.getByText("Building Your SaaS Application")).toBeVisible();
    await expect(terminal.getByText("Processing step 1 of 5...")).toBeVisible();
    await page.clock.runFor(3900);
    await expect(terminal.getByText("Processing step 2 of 5...")).toBeVisible();

    // Typing, five steps (5 x 3200 + 4 x 700 ms), 1 s, the final line, 1 s: Deploy Now.
    const deployAt = 2000 + 5 * 3200 + 4 * 700 + 1000 + 1000;
    await page.clock.runFor(deployAt - 5900 - 1);
    await expect(
      terminal.getByText("Your AI SaaS app is built and ready to deploy!"),
    ).toBeVisible();
    await expect(terminal.getByText("Deploy Now")).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(terminal.getByText("Deploy Now")).toBeVisible();
    await expect(terminal.getByText("Building App")).toHaveCount(0);
    await expect(
      terminal.getByText("Your AI SaaS app is built and ready to deploy!"),
    ).toBeVisible();

    await page.clock.runFor(3999);
    await expect(terminal.getByText("Deploy Now")).toBeVisible();
    await page.clock.runFor(1);
    await expect(terminal.getByText("Deploy Now")).toHaveCount(0);
    await expect(terminal.getByText("Describe Your App")).toBeVisible();
  });

  test("the terminal is hidden from screen readers, with a short text alternative", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.locator("figure > [aria-hidden='true']")).toHaveCount(1);
    await expect(page.locator("figcaption")).toHaveText(/^Demo: .{20,200}$/);
    await expect(page.locator("figure [aria-live], figure [role='status']")).toHaveCount(0);
  });

  test("with reduced motion the terminal shows the finished build and stays there", async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await openWithPausedClock(page, "/");
    const terminal = page.locator("figure [aria-hidden='true']");
    await expect(terminal.getByText("Deploy Now")).toBeVisible();
    await expect(terminal.getByText("Building Your SaaS Application")).toBeVisible();
    await page.clock.runFor(60_000);
    await expect(terminal.getByText("Deploy Now")).toBeVisible();
    await expect(terminal.getByText("Describe Your App")).toHaveCount(0);
  });

  test("fits a phone without sideways scrolling, during and after the build", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openWithPausedClock(page, "/");
    await islandsHydrated(page);
    for (const ms of [0, 2000, 10_000, 12_000]) {
      await page.clock.runFor(ms);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
    }
  });
});

test.describe("legal pages", () => {
  test.beforeEach(async ({ context, baseURL }) => consentGiven(context, baseURL));

  for (const [path, title, promise] of [
    ["/privacy-policy", "Privacy Policy", /within one month/],
    ["/terms-of-service", "Terms of Service", /within 30 days of your purchase/],
  ] as const) {
    test(`${path} loads with 200, its heading, the date and a way home`, async ({ page }) => {
      const errors = collectErrors(page);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(page.getByText("Last updated May 21, 2025")).toBeVisible();
      await expect(page.getByRole("main")).toContainText(promise);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        "href",
        `${origin}${path}`,
      );
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /.+/);
      const back = page.getByRole("main").getByRole("link", { name: "Back to home", exact: true });
      await expect(back).toHaveAttribute("href", "/");
      await pageHydrated(page, back);
      await back.click();
      await expect(page).toHaveURL(/\/$/);
      expect(errors).toEqual([]);
    });
  }
});

test.describe("cookie banner", () => {
  test("is in the prerendered HTML as a plain form, and nothing optional is set before a choice", async ({
    page,
    context,
  }) => {
    const html = await (await page.request.get("/")).text();
    expect(html).toContain("We use cookies");
    expect(html).toMatch(/<form[^>]* action="\/cookie-consent" method="post"/);
    await page.goto("/");
    await expect(banner(page)).toBeVisible();
    expect(await context.cookies()).toEqual([]);
  });

  for (const [button, stored] of [
    ["Accept All", "all"],
    ["Essential Only", "essential"],
    ["Decline", "none"],
    ["Close and allow essential cookies only", "essential"],
  ] as const) {
    test(`${button} stores '${stored}' for 2 years and hides the banner for good`, async ({
      page,
      context,
    }) => {
      await page.goto("/");
      await banner(page).getByRole("button", { name: button, exact: true }).click();
      await expect(banner(page)).toHaveCount(0);
      const cookie = (await context.cookies()).find((c) => c.name === "cookie_consent");
      expect(cookie?.value).toBe(stored);
      expect(cookie?.sameSite).toBe("Lax");
      expect(cookie?.path).toBe("/");
      // Asked for 2 years; Chromium keeps a cookie at most 400 days, and the banner renews it
      // on each visit until the 2 years from the stored date are up.
      const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / (24 * 3600 * 1000);
      expect(days).toBeGreaterThan(399);
      expect(days).toBeLessThanOrEqual(731);
      const chosenAt = (await context.cookies()).find((c) => c.name === "cookie_consent_at");
      expect(Math.abs(Number(chosenAt?.value) - Date.now())).toBeLessThan(60_000);

      await page.reload();
      await islandsHydrated(page);
      await expect(banner(page)).toHaveCount(0);
      await page.goto("/privacy-policy");
      await pageHydrated(
        page,
        page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }),
      );
      await expect(banner(page)).toHaveCount(0);
    });
  }

  test("Decline deletes analytics cookies; Accept All keeps them", async ({
    page,
    context,
    baseURL,
  }) => {
    const url = baseURL as string;
    const analytics = ["_ga", "_ga_ABC123", "_gid", "_gat"];
    const preset = [...analytics, "other"].map((name) => ({ name, value: "1", url }));
    await context.addCookies(preset);
    await page.goto("/");
    await banner(page).getByRole("button", { name: "Decline" }).click();
    await expect(banner(page)).toHaveCount(0);
    const names = (await context.cookies()).map((c) => c.name).sort();
    expect(names).toEqual(["cookie_consent", "cookie_consent_at", "other"]);

    await context.clearCookies();
    await context.addCookies(preset);
    await page.reload();
    await banner(page).getByRole("button", { name: "Accept All" }).click();
    await expect(banner(page)).toHaveCount(0);
    expect((await context.cookies()).map((c) => c.name)).toEqual(
      expect.arrayContaining([...analytics, "cookie_consent"]),
    );
  });

  test("an invalid stored value counts as no choice", async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "cookie_consent", value: "yes", url: baseURL as string }]);
    await page.goto("/");
    await expect(banner(page)).toBeVisible();
  });

  test("the details toggle is a disclosure describing the four cookie types", async ({ page }) => {
    await page.goto("/login");
    const details = banner(page).locator("details");
    const toggle = details.locator("summary", { hasText: "Cookie details" });
    const types = [
      "Essential cookies",
      "Analytical cookies",
      "Functional cookies",
      "Marketing cookies",
    ];
    for (const t of types) await expect(banner(page).getByText(t, { exact: true })).toBeHidden();

    await toggle.click();
    await expect(details).toHaveAttribute("open", "");
    for (const t of types) await expect(details.getByText(t, { exact: true })).toBeVisible();

    await toggle.press("Enter");
    await expect(details).not.toHaveAttribute("open", "");
    for (const t of types) await expect(details.getByText(t, { exact: true })).toBeHidden();
  });

  test("on a phone it takes its own space at the top, without sideways scrolling", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await expect(banner(page)).toBeVisible();
    const box = await banner(page).boundingBox();
    expect(box?.y).toBe(0);
    expect(box?.height).toBeLessThan(844 / 3);
    // The site header starts below it: the banner covers nothing.
    const header = await page.getByRole("navigation", { name: "Main" }).boundingBox();
    expect(header?.y).toBeGreaterThanOrEqual((box?.y ?? 0) + (box?.height ?? 0) - 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});

test.describe("search engines", () => {
  test("sitemap.xml lists the public pages on the canonical origin", async ({ request }) => {
    const res = await request.get("/sitemap.xml");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("xml");
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain(`${origin}/`);
    for (const path of ["/privacy-policy", "/terms-of-service", "/ailabs-offer", "/jv-affiliate"]) {
      expect(locs).toContain(`${origin}${path}`);
    }
    expect(locs.some((l) => /dashboard|admin|login/.test(l ?? ""))).toBe(false);
  });

  test("robots.txt allows public pages and keeps the members' area and admin out", async ({
    request,
  }) => {
    const res = await request.get("/robots.txt");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("text/plain");
    const txt = await res.text();
    expect(txt).toContain("Allow: /\n");
    for (const path of disallowedPaths) expect(txt).toContain(`Disallow: ${path}\n`);
    expect(txt).toContain(`Sitemap: ${origin}/sitemap.xml`);
  });
});

test.describe("accessibility (axe-core)", () => {
  for (const path of ["/", "/privacy-policy", "/terms-of-service"]) {
    test(`${path} has no violations, with the cookie banner and its details open`, async ({
      page,
    }) => {
      await page.goto(path);
      await banner(page).locator("summary", { hasText: "Cookie details" }).click();
      await expect(banner(page).getByText("Marketing cookies", { exact: true })).toBeVisible();
      const withBanner = await new AxeBuilder({ page }).analyze();
      expect(withBanner.violations).toEqual([]);

      await banner(page).getByRole("button", { name: "Accept All" }).click();
      await expect(banner(page)).toHaveCount(0);
      const without = await new AxeBuilder({ page }).analyze();
      expect(without.violations).toEqual([]);
    });
  }
});

test("a visitor's landing page loads at most 100 KB of JavaScript (gzip) and not the router client", async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on("response", (r) => {
    if (r.request().resourceType() === "script") scripts.push(new URL(r.url()).pathname);
  });
  await page.goto("/");
  await islandsHydrated(page);
  await expect(page.getByRole("region", { name: "We use cookies" })).toBeVisible();
  let gzipBytes = 0;
  for (const path of scripts) {
    const response = await page.request.get(path, { headers: { "accept-encoding": "gzip" } });
    gzipBytes += Number(response.headers()["content-length"]);
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(gzipBytes).toBeLessThanOrEqual(100 * 1024);
  expect(scripts.some((p) => p.includes("entry.client"))).toBe(false);
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
});

test("a signed-in user's landing page runs the full client", async ({ page }) => {
  await createAccount(page, { paid: false });
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(true);
});
