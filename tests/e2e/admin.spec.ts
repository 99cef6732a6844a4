import { expect, test } from "@playwright/test";
import { cli, signUp, submitLogin } from "./helpers";

test("an admin sees the Admin Panel link and page, and signs in to /dashboard", async ({
  page,
}) => {
  const account = await signUp(page);
  expect(await cli("admin", "grant", account.email)).toContain(
    `Granted admin to ${account.email}.`,
  );

  // An admin needs no payment: the dashboard opens.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Training Area" })).toBeVisible();
  const adminLink = page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Admin Panel" });
  await expect(adminLink).toHaveAttribute("href", "/admin");
  await adminLink.click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
  await expect(page).toHaveTitle(/Admin Panel/);

  await page.context().clearCookies();
  await submitLogin(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/login");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
});
