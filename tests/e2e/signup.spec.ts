import { expect, type Locator, test } from "@playwright/test";
import { createAccount, newAccount, sameOrigin, submitLogin, submitSignup } from "./helpers";

/** The element's computed colour as [r, g, b], whatever colour syntax the stylesheet uses. */
async function rgb(
  locator: Locator,
  property: "backgroundColor" | "borderTopColor" | "color",
): Promise<[number, number, number]> {
  return locator.evaluate((el, prop) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d") as CanvasRenderingContext2D;
    ctx.fillStyle = getComputedStyle(el)[prop];
    ctx.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = ctx.getImageData(0, 0, 1, 1).data;
    return [r, g, b] as [number, number, number];
  }, property);
}

test.describe("sign-up errors", () => {
  test("an e-mail already in use shows a red alert box", async ({ page }) => {
    const account = await createAccount(page, { paid: false });
    await page.context().clearCookies();

    await submitSignup(page, { ...account, name: "Someone Else", password: "another-password" });
    const alert = page.getByRole("alert");
    await expect(alert).toContainText(/account .*already exists/i);
    await expect(page).toHaveURL(/\/signup$/);
    // Entered values are kept, apart from the password.
    await expect(page.getByLabel("Email address")).toHaveValue(account.email);
    await expect(page.getByLabel("Full Name")).toHaveValue("Someone Else");

    const [r, g, b] = await rgb(alert, "backgroundColor");
    expect(r, "reddish background").toBeGreaterThan(g);
    expect(r, "reddish background").toBeGreaterThan(b);
    const [tr, tg, tb] = await rgb(alert, "color");
    expect(tr, "red text").toBeGreaterThan(tg + 50);
    expect(tr, "red text").toBeGreaterThan(tb + 50);

    // The original password still works: the account was not changed.
    await submitLogin(page, account.email, account.password);
    await expect(page).toHaveURL(/\/payment-options$/);
  });

  test("a 9-character password is refused with a clear message", async ({ page }) => {
    const account = { ...newAccount(), password: "nine9nine" };
    await page.goto("/signup");
    const password = page.getByLabel("Password", { exact: true });
    await expect(password).toHaveAttribute("minlength", "10");
    // Get past the browser's own check to reach the server's.
    await password.evaluate((el) => el.removeAttribute("minlength"));
    await page.getByLabel("Full Name").fill(account.name);
    await page.getByLabel("Email address").fill(account.email);
    await password.fill(account.password);
    await page.getByRole("button", { name: "Create Account" }).click();

    await expect(
      page.getByText("Password must be at least 10 characters", { exact: true }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(password).toHaveAttribute("aria-invalid", "true");

    // No account was created.
    await submitLogin(page, account.email, account.password);
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  });

  test("the server answers 400 to a short password posted directly", async ({ request }) => {
    const account = newAccount();
    const response = await request.post("/signup", {
      form: { name: account.name, email: account.email, password: "nine9nine" },
      headers: sameOrigin(),
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("Password must be at least 10 characters");
  });

  test("a common password is refused by the server with a clear message", async ({ page }) => {
    const account = { ...newAccount(), password: "password1234" };
    await page.goto("/signup");
    await page.getByLabel("Full Name").fill(account.name);
    await page.getByLabel("Email address").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "This password is too common: it is on lists of leaked passwords. Choose another.",
    );
    await expect(page).toHaveURL(/\/signup$/);
  });
});
