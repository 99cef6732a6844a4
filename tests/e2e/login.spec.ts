import { expect, test } from "@playwright/test";
import { createAccount, signUpPaid, submitLogin } from "./helpers";

test.describe("login routing", () => {
  test("a paid user signing in lands on /dashboard; on /login they are sent back", async ({
    page,
  }) => {
    const account = await signUpPaid(page);
    await page.context().clearCookies();

    await submitLogin(page, account.email, account.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Training Area" })).toBeVisible();

    await page.goto("/login");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/signup");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("an unpaid user signing in lands on /payment-options; on /login they are sent back", async ({
    page,
  }) => {
    const account = await createAccount(page, { paid: false });
    await page.context().clearCookies();

    // E-mail addresses are matched case-insensitively.
    await submitLogin(page, account.email.toUpperCase(), account.password);
    await expect(page).toHaveURL(/\/payment-options$/);
    await expect(page.getByRole("heading", { name: "Choose Your Access Plan" })).toBeVisible();

    await page.goto("/login");
    await expect(page).toHaveURL(/\/payment-options$/);
  });

  test("a wrong password shows an error and stays on /login", async ({ page }) => {
    const account = await createAccount(page, { paid: false });
    await page.context().clearCookies();

    await submitLogin(page, account.email, `${account.password}-wrong`);
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel("Email address")).toHaveValue(account.email);
    expect(await page.context().cookies()).toEqual(
      expect.not.arrayContaining([
        expect.objectContaining({ name: expect.stringContaining("session_token") }),
      ]),
    );

    // An unknown e-mail gets the same message.
    await submitLogin(page, `nobody-${crypto.randomUUID()}@example.com`, account.password);
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
    await expect(page).toHaveURL(/\/login$/);
  });
});
