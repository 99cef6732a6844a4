import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { hydrated, newAccount, noSidewaysScroll, screenshotsIn } from "./helpers";

// The funnel sells in the product (the default with the test checkout on): a
// sales page's buy button leads a visitor through sign-up to the plan page at
// that page's price, the checkout charges it (less the coupon) with the order
// bump, upsell 1 is bought in one click with the saved test card and upsell 2
// declined, and the member who owns the plan is told so when they press a buy
// button again; at a desktop and a phone width.

const shot = screenshotsIn("/tmp/shots-funnel-checkout");

/** "$17" or "$4.95" in cents, and back. */
const cents = (usd: string) => Math.round(Number(usd.replace("$", "")) * 100);
const usd = (c: number) => `$${c % 100 === 0 ? c / 100 : (c / 100).toFixed(2)}`;

for (const width of [1280, 390]) {
  test(`from /ailabs-offer2 to a paid plan at its price at ${width} px`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page
      .context()
      .addCookies([{ name: "cookie_consent", value: "essential", url: baseURL as string }]);

    await page.goto("/ailabs-offer2");
    const price = (
      await page
        .getByRole("link", { name: /^Get Instant Access for / })
        .first()
        .textContent()
    )?.match(/\$\d+(?:\.\d\d)?/)?.[0];
    expect(price).toBeTruthy();
    await page
      .getByRole("link", { name: /^Get Instant Access for / })
      .first()
      .click();

    // A visitor signs up first, then comes to the plan page at the sales page's price.
    await expect(page).toHaveURL(/\/signup\?offer=offer2$/);
    const account = newAccount();
    await page.getByLabel("Full Name", { exact: true }).fill(account.name);
    await page.getByLabel("Email address").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/payment-options\?offer=offer2$/);
    const plan = page.getByRole("region", { name: "Lifetime Access" });
    await expect(plan.getByText(price as string, { exact: true }).first()).toBeVisible();
    await expectNoAxeViolations(page);
    await noSidewaysScroll(page);
    await shot(page, "plan-offer2", width);

    // The checkout charges that price, less the advertised coupon.
    const field = page.getByLabel("Coupon code (optional)");
    const total =
      (
        await page.locator(`[id="${await field.getAttribute("aria-describedby")}"]`).textContent()
      )?.match(/you pay (\$\d+(?:\.\d\d)?)/)?.[1] ?? "";
    expect(total).not.toBe("");
    // The total follows the coupon as it is typed and the order bump as it is ticked.
    await hydrated(page.getByRole("button", { name: "Get Lifetime Access Now" }));
    const shown = page.getByTestId("checkout-total");
    await expect(shown).toHaveText(price as string);
    await field.fill("LAUNCH");
    await expect(shown).toHaveText(total);
    const bump = page.getByRole("checkbox", { name: /^Add the VIP Upgrade for \$\d+(\.\d\d)?$/ });
    const bumpName = (await page.locator("#bump-title").textContent()) ?? "";
    const bumpCents = cents(bumpName.match(/\$\d+(?:\.\d\d)?/)?.[0] ?? "");
    expect(bumpCents).toBeGreaterThan(0);
    await bump.check();
    const withBump = usd(cents(total) + bumpCents);
    await expect(shown).toHaveText(withBump);
    await shot(page, "plan-bump", width);
    await page.getByRole("button", { name: "Get Lifetime Access Now" }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("definition").filter({ hasText: /^VIP Upgrade, / })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: `${withBump} USD` })).toBeVisible();
    await noSidewaysScroll(page);
    await shot(page, "test-checkout-bump", width);
    // Pressed twice: one payment.
    await page.getByRole("button", { name: `Pay ${withBump}` }).dblclick();
    await expect(page).toHaveURL(/\/success$/);
    await shot(page, "success", width);

    // Upsell 1, accepted in one click with the card just used (pressed twice): one charge.
    await page.getByRole("link", { name: "Continue now" }).click();
    await expect(page).toHaveURL(/\/white-label-upsell$/);
    const yes = page.getByRole("button", { name: /^Yes, Upgrade My Order for \$\d+/ }).first();
    const upsellPrice = (await yes.textContent())?.match(/\$\d+(?:\.\d\d)?/)?.[0] ?? "";
    expect(cents(upsellPrice)).toBeGreaterThan(0);
    await expectNoAxeViolations(page);
    await noSidewaysScroll(page);
    await shot(page, "white-label-upsell", width);
    await hydrated(yes);
    await yes.dblclick();
    await expect(page).toHaveURL(/\/custom-saas-upsell$/);
    // Back on its page, the member who holds it is not offered it again.
    await page.goto("/white-label-upsell");
    await expect(
      page.getByText("You already own this: it is in your account.").first(),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: /^Yes, Upgrade My Order/ })).toHaveCount(0);
    await page.goto("/custom-saas-upsell");
    await shot(page, "custom-saas-upsell", width);

    // Upsell 2, declined: on to the dashboard.
    await page
      .getByRole("link", { name: "No Thanks, I'll build everything on my own" })
      .first()
      .click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // Each product is its own purchase, at what it cost, once.
    await page.goto("/account");
    const purchases = page.getByRole("region", { name: "My purchases" });
    await expect(purchases.getByRole("heading", { name: "Lifetime Access" })).toHaveCount(1);
    await expect(purchases.getByRole("heading", { name: "VIP Upgrade" })).toHaveCount(1);
    await expect(purchases.getByRole("heading", { name: /White Label/ })).toHaveCount(1);
    await expect(purchases.getByRole("heading", { name: /Custom SaaS/ })).toHaveCount(0);
    await expect(purchases).toContainText(total);
    await expect(purchases).toContainText(usd(bumpCents));
    await expect(purchases).toContainText(upsellPrice);
    // What the member can open: the white label package's downloads, not the build's page.
    const download = await page.request.get("/white-label/download/marketing-pack.zip", {
      maxRedirects: 0,
    });
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/zip");

    // An owner pressing a buy button again is told they own it; nothing is offered.
    await page.goto("/ailabs-offer");
    await page
      .getByRole("link", { name: /^Get Instant Access for / })
      .first()
      .click();
    await expect(page).toHaveURL(/\/payment-options$/);
    await expect(page.getByText("You already own this: Lifetime Access is yours.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Get Lifetime Access Now" })).toHaveCount(0);
    await shot(page, "plan-owned", width);
  });
}
