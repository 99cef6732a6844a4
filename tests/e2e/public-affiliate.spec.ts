import { expect, type Page, test } from "@playwright/test";
import { affiliateLaunch } from "../../app/config/site";
import { swipesFor } from "../../app/content/swipes";
import { launchLabel, offerDefaults } from "../../app/lib/offer";
import { hydrated, pausedClock, testPagesOpenCleanly, timerUnit } from "./helpers";

const { short: shortSwipes, long: longSwipes } = swipesFor(offerDefaults);

/** The affiliate pages and the promotional resources (docs/product.md, Affiliate pages). */

const pages = [
  { path: "/jv-affiliate", heading: /Promote AI Labs and Earn Up to \$527\.97 Per Sale/ },
  { path: "/jv-doc", heading: "AI Labs Joint-Venture Document" },
  { path: "/demo-swipes", heading: "Promotional Resources" },
] as const;

testPagesOpenCleanly(pages);

test.describe("the launch countdown", () => {
  const launch = new Date(affiliateLaunch.launchAt).getTime();

  /** /jv-affiliate on a clock paused `secondsBefore` the launch, once its timer runs. */
  async function openAffiliatePage(page: Page, secondsBefore: number) {
    await pausedClock(page, new Date(launch - secondsBefore * 1000));
    await page.goto("/jv-affiliate");
    const timer = page.getByRole("timer", { name: "Time until launch" });
    await hydrated(timer);
    return (name: Parameters<typeof timerUnit>[1]) => timerUnit(timer, name);
  }

  test("counts down to the launch each second", async ({ page }) => {
    const unit = await openAffiliatePage(page, 86_400 + 2 * 3_600 + 3 * 60 + 4);
    await expect(unit("Days")).toHaveText("1");
    await expect(unit("Hours")).toHaveText("02");
    await expect(unit("Minutes")).toHaveText("03");
    await expect(unit("Seconds")).toHaveText("04");
    await expect(page.getByText(`Launching ${launchLabel(offerDefaults)}`)).toBeVisible();
    await page.clock.runFor(5_000);
    await expect(unit("Minutes")).toHaveText("02");
    await expect(unit("Seconds")).toHaveText("59");
  });

  test("stops at zero at the launch instant and says the launch has happened", async ({ page }) => {
    const unit = await openAffiliatePage(page, 2);
    await expect(unit("Seconds")).toHaveText("02");
    await page.clock.runFor(10_000);
    await expect(unit("Days")).toHaveText("0");
    await expect(unit("Hours")).toHaveText("00");
    await expect(unit("Minutes")).toHaveText("00");
    await expect(unit("Seconds")).toHaveText("00");
    await expect(page.getByText(/The launch has happened/)).toBeVisible();
  });

  test("the JV doc shows the launch as live once it has passed", async ({ page }) => {
    await page.clock.install({ time: new Date(launch + 86_400_000) });
    await page.goto("/jv-doc");
    await expect(page.getByRole("timer", { name: "Time until launch" })).toHaveText(
      `Launched ${launchLabel(offerDefaults)} — the offer is live`,
    );
  });
});

test("the commission table totals come from the funnel", async ({ page }) => {
  await page.goto("/jv-affiliate");
  await expect(page.getByTestId("funnel-total")).toHaveText("$1,055.95");
  await expect(page.getByTestId("max-commission")).toHaveText("$527.97");
});

test.describe("copying", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("the JV doc copies the affiliate link and says Copied! for 2 seconds", async ({ page }) => {
    // Paused, so only runFor moves time: real time under load would end the 2 s early.
    await pausedClock(page, new Date("2025-06-01T12:00:01Z"));
    await page.goto("/jv-doc");
    const button = page.getByRole("button", { name: "Copy Affiliate Link" });
    await hydrated(button);
    await button.click();
    await expect(page.getByRole("button", { name: "Copied!" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      affiliateLaunch.affiliateLinkTemplate,
    );
    await page.clock.runFor(1_900);
    await expect(page.getByRole("button", { name: "Copied!" })).toBeVisible();
    await page.clock.runFor(200);
    await expect(button).toHaveText("Copy Affiliate Link");
  });

  test("a swipe is copied with the recipient's name and the affiliate link filled in", async ({
    page,
  }) => {
    await page.goto("/demo-swipes?tab=long-emails");
    const panel = page.getByRole("tabpanel", { name: "Long E-mails (7)" });
    await expect(panel).toBeVisible();
    await page.getByLabel("Your affiliate link").fill("https://example.com/aff?id=42&src=mail");
    await page.getByLabel("Recipient's name").fill("Sam");
    const swipe = longSwipes[2];
    if (!swipe) throw new Error("no third long swipe");
    const article = panel.getByRole("article", { name: new RegExp(`E-mail 3: ${swipe.subject}`) });
    await expect(article).toContainText("Hi Sam,");
    await expect(article).toContainText("https://example.com/aff?id=42&src=mail");
    await article.getByRole("button", { name: "Copy" }).click();
    await expect(article.getByRole("button", { name: "Copied!" })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.startsWith(`Subject: ${swipe.subject}\n\nHi Sam,`)).toBe(true);
    expect(copied).toContain("https://example.com/aff?id=42&src=mail");
    expect(copied).not.toContain("[NAME]");
    expect(copied).not.toContain("[AFFILIATE_LINK]");
    // Only the button pressed says Copied!.
    await expect(panel.getByRole("button", { name: "Copied!" })).toHaveCount(1);
  });

  test("a banner's HTML code links to the affiliate link", async ({ page }) => {
    await page.goto("/demo-swipes?tab=banners");
    const panel = page.getByRole("tabpanel", { name: "Banners" });
    await expect(panel).toBeVisible();
    await page.getByLabel("Your affiliate link").fill('https://example.com/a?x="1"');
    await panel.getByRole("button", { name: "Copy HTML" }).nth(1).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(
      '<a href="https://example.com/a?x=&quot;1&quot;"><img src="https://ailabs.app/banners/ailabs-300x250.png" width="300" height="250" alt="AI Labs: build and launch an AI SaaS app without coding"></a>',
    );
    // Anything but a web address keeps the placeholder: no script URL in the code.
    await page.getByLabel("Your affiliate link").fill("javascript:alert(1)");
    await panel.getByRole("button", { name: "Copy HTML" }).first().click();
    const unsafe = await page.evaluate(() => navigator.clipboard.readText());
    expect(unsafe.startsWith('<a href="[AFFILIATE_LINK]">')).toBe(true);
  });
});

test.describe("/demo-swipes tabs", () => {
  test("opens on the demo: a video with a poster and a fallback text, and tips", async ({
    page,
  }) => {
    await page.goto("/demo-swipes");
    const demo = page.getByRole("tab", { name: "Demo Video" });
    await hydrated(demo);
    await expect(demo).toHaveAttribute("aria-selected", "true");
    const panel = page.getByRole("tabpanel", { name: "Demo Video" });
    const video = panel.locator("video");
    await expect(video).toHaveAttribute("poster", "/videos/ailabs-demo-poster.png");
    await expect(video).toContainText("Your browser does not support the video tag.");
    await expect(panel.getByRole("heading", { name: "How to use it" })).toBeVisible();
    // The poster and the video are real files.
    const src = await video.locator("source").getAttribute("src");
    const file = await page.request.get(src ?? "");
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("video/webm");
    const duration = await video.evaluate(
      (el: HTMLVideoElement) =>
        new Promise<number>((resolve, reject) => {
          el.addEventListener("loadedmetadata", () => resolve(el.duration), { once: true });
          el.addEventListener("error", () => reject(new Error("video failed")), { once: true });
          el.preload = "metadata";
          el.load();
        }),
    );
    expect(duration).toBeGreaterThan(1);
    const poster = await page.request.get("/videos/ailabs-demo-poster.png");
    expect(poster.headers()["content-type"]).toBe("image/png");
  });

  for (const [query, name, count] of [
    ["short-emails", `Short E-mails (${shortSwipes.length})`, 4],
    ["emails", `Short E-mails (${shortSwipes.length})`, 4],
    ["long-emails", `Long E-mails (${longSwipes.length})`, 7],
  ] as const) {
    test(`?tab=${query} opens on ${name}`, async ({ page }) => {
      await page.goto(`/demo-swipes?tab=${query}`);
      const tab = page.getByRole("tab", { name, exact: true });
      await expect(tab).toHaveAttribute("aria-selected", "true");
      const panel = page.getByRole("tabpanel", { name, exact: true });
      await expect(panel.getByRole("article")).toHaveCount(count);
      await expect(panel.getByRole("button", { name: "Copy", exact: true })).toHaveCount(count);
      await expect(page.getByRole("tabpanel", { name: "Demo Video" })).toBeHidden();
    });
  }

  test("tabs switch by click and by arrow keys, and the URL follows", async ({ page }) => {
    await page.goto("/demo-swipes");
    const demo = page.getByRole("tab", { name: "Demo Video" });
    await hydrated(demo);
    await page.getByRole("tab", { name: "Banners" }).click();
    await expect(page).toHaveURL(/\?tab=banners$/);
    await expect(page.getByRole("tabpanel", { name: "Banners" })).toBeVisible();

    await page.getByRole("tab", { name: "Banners" }).press("ArrowRight");
    await expect(demo).toBeFocused();
    await expect(demo).toHaveAttribute("aria-selected", "true");
    await expect(page).toHaveURL(/\?tab=demo$/);
    await demo.press("ArrowRight");
    const short = page.getByRole("tab", { name: /^Short E-mails/ });
    await expect(short).toBeFocused();
    await expect(short).toHaveAttribute("aria-selected", "true");
    await short.press("End");
    await expect(page.getByRole("tab", { name: "Banners" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    // Only the selected tab is in the tab order; Tab moves into its panel.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("tabpanel", { name: "Banners" })).toBeFocused();
  });

  test("switching tabs keeps the other parameters of the address", async ({ page }) => {
    await page.goto("/demo-swipes?utm_source=newsletter&tab=demo");
    const banners = page.getByRole("tab", { name: "Banners" });
    await hydrated(banners);
    await banners.click();
    await expect(page).toHaveURL(/\?utm_source=newsletter&tab=banners$/);
  });

  test("the four banners download as PNG files of their sizes, with a custom-graphics link", async ({
    page,
  }) => {
    await page.goto("/demo-swipes?tab=banners");
    const panel = page.getByRole("tabpanel", { name: "Banners" });
    for (const size of ["728x90", "300x250", "468x60", "160x600"]) {
      const link = panel.getByRole("link", { name: `Download ${size} PNG` });
      await expect(link).toHaveAttribute("download", `ailabs-${size}.png`);
      const response = await page.request.get((await link.getAttribute("href")) ?? "");
      expect(response.headers()["content-type"]).toBe("image/png");
      const png = await response.body();
      // PNG signature, then the IHDR chunk's width and height.
      expect(png.subarray(1, 4).toString()).toBe("PNG");
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(size);
    }
    const downloading = page.waitForEvent("download");
    await panel.getByRole("link", { name: "Download 468x60 PNG" }).click();
    expect((await downloading).suggestedFilename()).toBe("ailabs-468x60.png");

    const mail = panel.getByRole("link", { name: "Ask us for custom graphics" });
    await expect(mail).toHaveAttribute("href", /^mailto:support@ailabs\.app\?subject=Custom/);
  });

  test("on a phone the selected tab is scrolled into sight", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/demo-swipes?tab=banners");
    const tab = page.getByRole("tab", { name: "Banners" });
    await expect(tab).toHaveAttribute("aria-selected", "true");
    // The tab strip scrolls sideways; the selected tab lies wholly inside it.
    await expect
      .poll(() =>
        tab.evaluate((el) => {
          const strip = el.parentElement?.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return !!strip && box.left >= strip.left && box.right <= strip.right + 0.5;
        }),
      )
      .toBe(true);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
  });
});
