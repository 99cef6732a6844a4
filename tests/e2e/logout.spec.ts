import { expect, test } from "@playwright/test";
import { createAccount, submitLogin } from "./helpers";

test.describe("logout", () => {
  test("Logout clears the session and the browser's storage and returns home", async ({
    page,
    context,
    baseURL,
  }) => {
    await createAccount(page, { paid: true });
    await page.goto("/dashboard");
    await page.evaluate(() => {
      localStorage.setItem("e2e-local", "1");
      sessionStorage.setItem("e2e-session", "1");
    });
    // A cookie of the site's own, besides the session cookie.
    await context.addCookies([{ name: "e2e-cookie", value: "1", url: baseURL as string }]);
    expect((await context.cookies()).map((c) => c.name)).toEqual(
      expect.arrayContaining(["e2e-cookie", expect.stringContaining("session_token")]),
    );

    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("button", { name: "Logout" })
      .click();

    await expect(page).toHaveURL(/\/$/);
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.getByRole("link", { name: "Login", exact: true })).toBeVisible();
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);
    expect(await context.cookies()).toEqual([]);

    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("logging out in one browser ends the session in another", async ({
    browser,
    page,
    baseURL,
  }) => {
    const account = await createAccount(page, { paid: true });
    await page.goto("/dashboard");

    const other = await browser.newContext({ baseURL });
    try {
      const otherPage = await other.newPage();
      await submitLogin(otherPage, account.email, account.password);
      await expect(otherPage).toHaveURL(/\/dashboard$/);

      await page.getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL(/\/$/);

      // The other browser still holds its cookie, but the session behind it is gone.
      expect((await other.cookies()).some((c) => c.name.includes("session_token"))).toBe(true);
      await otherPage.goto("/dashboard");
      await expect(otherPage).toHaveURL(/\/login$/);
    } finally {
      await other.close();
    }
  });
});
