import { expect, test } from "@playwright/test";
import { createAccount } from "./helpers";

// The link itself travels by e-mail, which the browser cannot read: the whole
// reset (link, new password, sessions ended) is tested on the actions in
// app/routes/auth/password-reset.test.ts. Here: the pages a visitor sees.

test("Forgot password? on /login asks for the address and answers without telling whether it exists", async ({
  page,
}) => {
  const account = await createAccount(page, { paid: false });
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();

  const answers: string[] = [];
  for (const email of [account.email, `nobody-${crypto.randomUUID()}@example.com`]) {
    await page.goto("/forgot-password");
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    const status = page.getByRole("status");
    await expect(status).toContainText("valid for 1 hour");
    answers.push((await status.textContent()) ?? "");
  }
  expect(answers[0]).toBe(answers[1]);
});

test("a reset link that is unknown or used says so and offers a new one", async ({ page }) => {
  await page.goto("/reset-password?token=not-a-real-token");
  await expect(page.getByRole("alert")).toHaveText(
    "This link has expired or has already been used.",
  );
  await page.getByRole("link", { name: "Request a new link" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});
