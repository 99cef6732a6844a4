import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { hydrated, noSidewaysScroll, screenshotsIn, signUp } from "./helpers";

// The coupon the sales pages advertise is typed on the plan page: a code it
// does not know is refused beside the field, the advertised one is taken, and
// the test checkout charges the price less its saving; at a desktop and a
// phone width.

const shot = screenshotsIn("/tmp/shots-coupon");

for (const width of [1280, 390]) {
  test(`the launch coupon at the checkout at ${width} px`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    await page
      .context()
      .addCookies([{ name: "cookie_consent", value: "essential", url: baseURL as string }]);
    await signUp(page);

    const field = page.getByLabel("Coupon code (optional)");
    // The hint says what the advertised coupon takes off and what is paid then.
    await expect(field).toHaveAccessibleDescription(
      /^Coupon LAUNCH takes \$\d+(\.\d\d)? off: you pay \$\d+(\.\d\d)?\.$/,
    );
    const hint = (await field.getAttribute("aria-describedby")) ?? "";
    const total =
      (await page.locator(`[id="${hint}"]`).textContent())?.match(
        /you pay (\$\d+(?:\.\d\d)?)/,
      )?.[1] ?? "";
    expect(total).not.toBe("");

    // A code it does not know: said beside the field, what was typed stays, no checkout.
    const buy = page.getByRole("button", { name: "Get Lifetime Access Now" });
    await hydrated(buy);
    await field.fill("FREEBIE");
    await buy.click();
    await expect(field).toHaveAccessibleDescription(/That coupon code is not valid\./);
    await expect(field).toHaveValue("FREEBIE");
    await expect(page).toHaveURL(/\/payment-options$/);
    await expectNoAxeViolations(page);
    await noSidewaysScroll(page);
    await shot(page, "payment-options-refused", width);

    // The advertised one, typed in lower case, from the keyboard.
    await field.fill("launch");
    await field.press("Enter");
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    const details = page.getByRole("definition");
    await expect(page.getByText("Coupon", { exact: true })).toBeVisible();
    await expect(details.filter({ hasText: "LAUNCH" })).toBeVisible();
    await expect(details.filter({ hasText: `${total} USD` })).toBeVisible();
    await noSidewaysScroll(page);
    await shot(page, "test-checkout-coupon", width);
    await page.getByRole("button", { name: `Pay ${total}` }).click();
    await expect(page).toHaveURL(/\/success$/);

    // What was paid is what My purchases shows.
    await page.goto("/account");
    const purchases = page.getByRole("region", { name: "My purchases" });
    await expect(purchases.getByRole("heading", { name: "Lifetime Access" })).toBeVisible();
    await expect(purchases).toContainText(total);
  });
}
