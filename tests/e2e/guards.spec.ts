import { expect, test } from "@playwright/test";
import { createAccount } from "./helpers";

/** Pages only members open (a course page too, even one that does not exist). */
const memberPages = ["/dashboard", "/bonuses", "/app-builder", "/app-idea-generator", "/course/x"];

test.describe("route guards", () => {
  test("a visitor is sent to /login from member pages", async ({ page }) => {
    for (const path of memberPages) {
      await page.goto(path);
      await expect(page, `visitor on ${path}`).toHaveURL(/\/login$/);
      await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
    }
  });

  test("a visitor on /admin goes to /dashboard, then to /login", async ({ page, request }) => {
    const first = await request.get("/admin", { maxRedirects: 0 });
    expect(first.status()).toBe(302);
    expect(first.headers().location).toBe("/dashboard");
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("an unpaid user is sent from /dashboard to /payment-options", async ({ page }) => {
    await createAccount(page, { paid: false });
    for (const path of ["/dashboard", "/bonuses", "/course/x"]) {
      await page.goto(path);
      await expect(page, `unpaid user on ${path}`).toHaveURL(/\/payment-options$/);
    }
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/payment-options$/);
  });

  test("a paid member is kept out of /admin and sees no Admin Panel link", async ({ page }) => {
    await createAccount(page, { paid: true });
    await page.goto("/dashboard");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Dashboard" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Admin Panel" })).toHaveCount(0);

    await page.goto("/admin");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Training Area" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Admin Panel" })).toHaveCount(0);

    // An unknown course id goes back to the dashboard, which says so.
    await page.goto("/course/does-not-exist");
    await expect(page).toHaveURL(/\/dashboard\?notice=course-not-found$/);
  });

  test("unknown paths go home and /bolt-prompt goes to /app-builder", async ({ page, request }) => {
    await page.goto("/no-such-page/at-all");
    await expect(page).toHaveURL(/\/$/);
    expect(new URL(page.url()).pathname).toBe("/");

    const bolt = await request.get("/bolt-prompt", { maxRedirects: 0 });
    expect(bolt.status()).toBe(301);
    expect(bolt.headers().location).toBe("/app-builder");

    await createAccount(page, { paid: true });
    await page.goto("/bolt-prompt");
    await expect(page).toHaveURL(/\/app-builder$/);
    await expect(page.getByRole("heading", { name: "App Builder" })).toBeVisible();
  });
});
