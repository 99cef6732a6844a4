import { expect, test } from "@playwright/test";
import { demoCourseTitle, newAccount, openTestCheckout, signUp } from "./helpers";

test("sign-up, test checkout and payment lead to the first upsell after 5 seconds", async ({
  page,
}) => {
  const account = newAccount();
  await page.goto("/signup");
  await expect(page.getByRole("heading", { name: "Create Your Account" })).toBeVisible();
  await expect(page.getByText("Sign up to get lifetime access")).toBeVisible();
  await page.getByLabel("Full Name", { exact: true }).fill(account.name);
  await page.getByLabel("Email address", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();

  await expect(page).toHaveURL(/\/payment-options$/);
  await expect(page.getByRole("heading", { name: "Choose Your Access Plan" })).toBeVisible();
  await expect(
    page.getByText("Secure payment via a card provider. Instant access after purchase."),
  ).toBeVisible();

  await openTestCheckout(page);
  await expect(page.getByRole("note")).toContainText(/test mode/i);
  await expect(page.getByText("Lifetime Access", { exact: true })).toBeVisible();
  await expect(page.getByText("$25 USD")).toBeVisible();
  await expect(page.getByText(account.email)).toBeVisible();

  await page.getByRole("button", { name: "Pay $25" }).click();
  await expect(page).toHaveURL(/\/success$/);
  const arrived = Date.now();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue now" })).toHaveAttribute(
    "href",
    "/white-label-upsell",
  );

  await expect(page).toHaveURL(/\/white-label-upsell$/, { timeout: 9_000 });
  expect(Date.now() - arrived).toBeGreaterThanOrEqual(4_000);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Training Area" })).toBeVisible();
  const card = page.getByRole("link", { name: demoCourseTitle });
  await expect(card).toBeVisible();
  await expect(card.getByRole("heading", { name: demoCourseTitle })).toBeVisible();
  await expect(card).toHaveAttribute("href", /^\/course\/[^/]+$/);

  // Paid now: the plan page says so instead of offering the checkout again.
  await page.goto("/payment-options");
  await expect(page.getByText("You already own this: Lifetime Access is yours.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Get Lifetime Access Now" })).toHaveCount(0);
});

test("cancelling the test checkout shows /cancel and leaves the user unpaid", async ({ page }) => {
  await signUp(page);
  await openTestCheckout(page);
  await page.getByRole("button", { name: "Cancel" }).click();

  await expect(page).toHaveURL(/\/cancel$/);
  await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
  await page.getByRole("link", { name: "Go to dashboard now" }).click();
  // Not paid: the dashboard sends the user back to the plan page.
  await expect(page).toHaveURL(/\/payment-options$/);
  await expect(page.getByRole("button", { name: "Get Lifetime Access Now" })).toBeVisible();

  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/payment-options$/);
});
