import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import { createAccountWith, test } from "./helpers";

test.describe("the owner's console: the launch dashboard", () => {
  test("opens on /admin, shows today's money and updates itself when a sale comes in", async ({
    adminPage: page,
    playwright,
    baseURL,
  }) => {
    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Admin" });
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const revenue = page.getByRole("definition").filter({ hasText: /^\$/ }).first();
    const sales = page.getByText(/^\d+ sales?$/).first();
    const before = Number((await sales.textContent())?.split(" ")[0]);
    // The page stays as it is (no reload) while its figures change.
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    const buyer = await playwright.request.newContext({ baseURL });
    await createAccountWith(buyer, { paid: true, origin: baseURL ?? "" });
    await buyer.dispose();
    await expect
      .poll(async () => Number((await sales.textContent())?.split(" ")[0]), { timeout: 25_000 })
      .toBeGreaterThan(before);
    await expect(revenue).not.toHaveText("$0");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(
      true,
    );

    // Another period: the form, then the links to the sales and funnel pages for its days.
    await page.getByLabel("Period", { exact: true }).selectOption("week");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/period=week/);
    await expect(page.getByText(/^Last 7 days:/)).toBeVisible();
    await page.getByRole("link", { name: "Sales report for these days" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Sales" })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/sales\?from=\d{4}-\d{2}-\d{2}&to=/);
  });

  test("is axe clean and fits a phone", async ({ adminPage: page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/admin?period=month");
      await expect(page.getByText("Members with access")).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `dashboard at ${width}`).toBeLessThanOrEqual(0);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      expect(results.violations, `dashboard at ${width}`).toEqual([]);
    }
  });
});
