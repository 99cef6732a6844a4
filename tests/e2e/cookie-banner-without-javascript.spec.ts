import { expect, type Page } from "@playwright/test";
import { createAccountWith, test } from "./helpers";

// Without JavaScript the banner's buttons post a plain form (POST /cookie-consent) and
// the banner's inline script cannot hide it: the server answers a visitor who has chosen
// with pages that hide it (app/server/http/consented-page.server.ts), prerendered ones
// from their second copy in memory, rendered ones and kept member pages alike.

test.use({ javaScriptEnabled: false });

const banner = (page: Page) => page.getByRole("region", { name: "We use cookies" });

for (const [button, stored] of [
  ["Essential Only", "essential"],
  ["Decline", "none"],
  ["Accept All", "all"],
] as const) {
  test(`after ${button}, no page shows the banner again`, async ({ page, context }) => {
    await page.goto("/ailabs-offer");
    await expect(banner(page)).toBeVisible();
    await banner(page).getByRole("button", { name: button, exact: true }).click();
    // Back on the page it was chosen on, from the form's answer.
    await expect(page).toHaveURL(/\/ailabs-offer$/);
    const cookie = (await context.cookies()).find((c) => c.name === "cookie_consent");
    expect(cookie?.value).toBe(stored);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(banner(page)).toBeHidden();
    // Prerendered pages (islands and full client), and pages rendered per request.
    for (const path of ["/", "/white-label-upsell", "/login", "/login?reset=1", "/cancel"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first(), path).toBeVisible();
      await expect(banner(page), path).toBeHidden();
    }
  });
}

test("a member who chooses sees the banner no more on pages kept in the page cache", async ({
  page,
  context,
}) => {
  // Signed in through the same cookie jar (the forms need no script, the helper is quicker).
  await createAccountWith(context.request, { paid: true });
  await page.goto("/dashboard");
  await page.goto("/dashboard");
  await expect(banner(page)).toBeVisible();
  await banner(page).getByRole("button", { name: "Essential Only", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect(banner(page)).toBeHidden();
  await page.goto("/dashboard");
  await expect(banner(page)).toBeHidden();
});

test("a visitor who has not chosen sees it on every page", async ({ page }) => {
  for (const path of ["/", "/ailabs-offer", "/login", "/login?reset=1"]) {
    await page.goto(path);
    await expect(banner(page), path).toBeVisible();
  }
});
