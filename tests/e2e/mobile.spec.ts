import { expect, test } from "@playwright/test";
import { createAccount } from "./helpers";

test.use({ viewport: { width: 390, height: 844 } });

test("the mobile menu opens, closes and navigates", async ({ page }) => {
  await createAccount(page, { paid: true });
  await page.goto("/dashboard");

  const toggle = page.getByRole("button", { name: /open menu|close menu/i });
  const menuLink = (name: string) =>
    page.locator("#mobile-menu").getByRole("link", { name, exact: true });

  // Desktop links are hidden at this width; only the toggle shows.
  await expect(page.getByRole("link", { name: "Bonuses", exact: true })).toHaveCount(0);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  // Retried because a click that lands before hydration does nothing.
  await expect(async () => {
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true", { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await expect(toggle).toHaveAccessibleName("Close menu");
  for (const name of ["Dashboard", "App Builder", "Idea Generator", "Bonuses", "Upgrades"]) {
    await expect(menuLink(name)).toBeVisible();
  }
  await expect(page.locator("#mobile-menu").getByRole("button", { name: "Logout" })).toBeVisible();
  await expect(menuLink("Admin Panel")).toHaveCount(0);

  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(menuLink("Bonuses")).toHaveCount(0);

  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await menuLink("Bonuses").click();
  await expect(page).toHaveURL(/\/bonuses$/);
  await expect(page.getByRole("heading", { name: "Premium Bonuses" })).toBeVisible();
  // Following a link closes the menu.
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  await toggle.click();
  await menuLink("App Builder").click();
  await expect(page).toHaveURL(/\/app-builder$/);
  await expect(page.getByRole("heading", { name: "App Builder" })).toBeVisible();

  // No horizontal scrolling on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
