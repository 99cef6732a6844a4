import { expect, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createAccount, hydrated, pausedClock, test, uniqueTitle } from "./helpers";

// Pages say what is true for the one reading them (issue 21, points 18, 19 and 22), each
// screen at desktop and phone width. Visitors without a session get the copies prerendered
// at build and served from memory; signed-in users get pages rendered for them.

const shots = process.env.SHOTS_DIR;
const widths = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** A screenshot to look at: the whole page, or only what is in view (long pages). */
async function shot(page: Page, name: string, fullPage = true) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage });
}

const countdown = (page: Page) => page.locator("p", { hasText: "Your order continues" });

for (const { name, width, height } of widths) {
  test.describe(`at ${name} width`, () => {
    test.use({ viewport: { width, height } });

    test.beforeEach(async ({ context, baseURL }) => {
      // The cookie banner is another test's subject: chosen already here.
      await context.addCookies([
        { name: "cookie_consent", value: "essential", url: baseURL as string },
      ]);
    });

    test("18: /success tells a visitor nothing about access, and offers to sign in", async ({
      page,
    }) => {
      await page.goto("/success");
      await expect(
        page.getByRole("heading", { level: 1, name: "Payment not confirmed here" }),
      ).toBeVisible();
      await expect(page.getByText("Lifetime Access is active")).toHaveCount(0);
      await expect(page.getByText("Payment successful")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Sign in", exact: true })).toHaveAttribute(
        "href",
        "/login",
      );
      await shot(page, `success-visitor-${name}`);
      await expectNoAxeViolations(page);
    });

    test("18: /success tells a member their access is active and counts down to the first upsell", async ({
      page,
    }) => {
      await createAccount(page, { paid: true });
      await pausedClock(page, new Date("2026-11-26T12:00:00Z"));
      await page.goto("/success");
      await expect(
        page.getByRole("heading", { level: 1, name: "Payment successful" }),
      ).toBeVisible();
      await expect(page.getByText("Your Lifetime Access is active")).toBeVisible();
      await hydrated(page.getByRole("link", { name: "Continue now" }));
      await expect(countdown(page)).toContainText("in 5 seconds.");
      for (const left of ["4 seconds", "3 seconds", "2 seconds"]) {
        await page.clock.runFor(1_000);
        await expect(countdown(page)).toContainText(`in ${left}.`);
      }
      await page.clock.runFor(1_000);
      await expect(countdown(page)).toContainText("in 1 second.");
      // (No axe run here: it waits on timers, which the paused clock holds.)
      await shot(page, `success-member-${name}`);
      await page.clock.runFor(1_000);
      await expect(page).toHaveURL(/\/white-label-upsell$/);
    });

    test("18: /upgrades tells only a member they have the course", async ({
      page,
      browser,
      baseURL,
    }) => {
      const neutral = "Two upgrades that get you to revenue faster";
      // A visitor: the prerendered copy.
      await page.goto("/upgrades");
      const intro = page.getByText(/upgrades? that get you to revenue faster/);
      await expect(intro).toContainText(neutral);
      await expect(page.getByText("You have the course")).toHaveCount(0);
      await shot(page, `upgrades-visitor-${name}`);
      await expectNoAxeViolations(page);
      // Signed in without paying: rendered for them, still neutral.
      await createAccount(page, { paid: false });
      await page.goto("/upgrades");
      await expect(intro).toContainText(neutral);
      await expect(page.getByText("You have the course")).toHaveCount(0);
      // A member.
      const memberContext = await browser.newContext({ viewport: { width, height } });
      await memberContext.addCookies([
        { name: "cookie_consent", value: "essential", url: baseURL as string },
      ]);
      const member = await memberContext.newPage();
      await createAccount(member, { paid: true });
      await member.goto("/upgrades");
      await expect(
        member.getByText("You have the course. These two upgrades get you to revenue faster"),
      ).toBeVisible();
      await shot(member, `upgrades-member-${name}`);
      await memberContext.close();
    });

    test("18: the white-label upsell opens with one message", async ({ page }) => {
      await page.goto("/white-label-upsell");
      const banner = page.getByText(/^Thank you for your order!/);
      await expect(banner).toHaveText(
        "Thank you for your order! Your login details arrive by e-mail in about 5 minutes (check your spam folder). Before you go, one special offer for new members:",
      );
      await expect(page.getByText(/order is complete|not finished/i)).toHaveCount(0);
      await shot(page, `white-label-banner-${name}`, false);
    });

    test("22: a chapter image at an http address is kept and loads", async ({
      adminApi,
      adminPage,
      baseURL,
    }) => {
      // Another host than the site's own, over http: neither 'self' nor https.
      const elsewhere = (baseURL as string).replace("localhost", "127.0.0.1");
      const src = `${elsewhere}/og-image.png`;
      const errors: string[] = [];
      adminPage.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      const { courseId, chapterIds } = await adminApi.createCourseWithChapters(
        uniqueTitle("Images course"),
        "A chapter with an image at an http address.",
        [
          {
            title: uniqueTitle("Pictured"),
            content: `<p>The logo:</p><p><img src="${src}" alt="The logo, from an http address"></p>`,
          },
        ],
      );
      await adminPage
        .context()
        .addCookies([{ name: "cookie_consent", value: "essential", url: baseURL as string }]);
      await adminPage.setViewportSize({ width, height });
      await adminPage.goto(`/course/${courseId}?chapter=${chapterIds[0]}`);
      const image = adminPage.getByRole("img", { name: "The logo, from an http address" });
      await expect(image).toHaveAttribute("src", src);
      await image.scrollIntoViewIfNeeded();
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await shot(adminPage, `chapter-http-image-${name}`);
    });
  });
}

test("19: the cookie banner's form never sends the visitor to another site", async ({
  request,
  baseURL,
}) => {
  for (const returnTo of ["/..//evil.example", "/a/..//evil.example/x", "/.//evil.example"]) {
    const answer = await request.post("/cookie-consent", {
      form: { consent: "essential", returnTo },
      headers: { Origin: baseURL as string },
      maxRedirects: 0,
    });
    expect(answer.status(), returnTo).toBe(303);
    expect(answer.headers().location, returnTo).toBe("/");
  }
});

test("19: /reset-password is never kept by a cache", async ({ request }) => {
  const answer = await request.get("/reset-password?token=made-up-token");
  expect(answer.status()).toBe(200);
  expect(answer.headers()["cache-control"]).toBe("no-store");
});
