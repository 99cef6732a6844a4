import { expect, test } from "@playwright/test";
import { totpCode } from "../../app/test/totp";
import { createAccount, hydrated, sameOrigin, submitLogin, test as withAdmin } from "./helpers";

const shots = process.env.SHOTS_DIR;

test("a member turns on two-factor at /account, then signs in with a code", async ({ page }) => {
  const account = await createAccount(page, { paid: true });
  await page.goto("/dashboard");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Account" })
    .click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await hydrated(page.getByRole("button", { name: "Set up two-factor authentication" }));

  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/account-setup.png`, fullPage: true });
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32,}$/);

  // A wrong code is refused and the same key stays on screen.
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(
    page.getByText("That code is not right. Check your app and try again."),
  ).toBeVisible();
  await expect(page.getByTestId("totp-secret")).toHaveText(secret);

  await page.getByLabel("Authentication code").fill(totpCode(secret));
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(page.getByText("Save your recovery codes")).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem"),
  ).toHaveCount(10);
  await expect(page.getByRole("link", { name: "Download codes" })).toHaveAttribute(
    "download",
    "ai-labs-recovery-codes.txt",
  );
  if (shots) await page.screenshot({ path: `${shots}/account-codes.png`, fullPage: true });
  await page.getByRole("link", { name: "I have saved them" }).click();
  await expect(page.getByText("Status: On")).toBeVisible();

  await page.context().clearCookies();
  await submitLogin(page, account.email, account.password);
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  // Not signed in yet.
  expect((await page.request.get("/dashboard", { maxRedirects: 0 })).headers().location).toBe(
    "/login",
  );
  if (shots) await page.screenshot({ path: `${shots}/login-code.png`, fullPage: true });
  await page.getByLabel("Authentication code").fill(totpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Training Area" })).toBeVisible();
});

test("the code step offers a recovery code instead, by keyboard", async ({ page }) => {
  const account = await createAccount(page, { paid: true });
  const start = await page.request.post("/account", {
    form: { intent: "enable", password: account.password },
    headers: sameOrigin(),
  });
  const secret = (await start.text()).match(/data-secret="([A-Z2-7]+)"/)?.[1];
  expect(secret).toBeTruthy();
  const html = await (
    await page.request.post("/account", {
      form: {
        intent: "confirm",
        code: totpCode(secret ?? ""),
        uri: `otpauth://totp/x?secret=${secret}`,
      },
      headers: sameOrigin(),
    })
  ).text();
  const code = html.match(/<li>([A-Za-z0-9]{5}-[A-Za-z0-9]{5})<\/li>/)?.[1] ?? "";
  expect(code).not.toBe("");

  await page.context().clearCookies();
  await submitLogin(page, account.email, account.password);
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await page.getByRole("link", { name: "Use a recovery code" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Recovery code")).toBeVisible();
  await page.getByLabel("Recovery code").fill(code);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test("the code step fits the screen", async ({ page }) => {
    const account = await createAccount(page, { paid: true });
    await page.goto("/account");
    if (shots) await page.screenshot({ path: `${shots}/account-phone.png`, fullPage: true });
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await expect(page.getByTestId("totp-secret")).toBeVisible();
    if (shots) await page.screenshot({ path: `${shots}/account-setup-phone.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
    expect(overflow).toBe(false);
  });
});

withAdmin(
  "an admin is prompted to turn on two-factor until they do",
  async ({ adminPage: page }) => {
    await page.goto("/dashboard");
    const prompt = page.getByRole("complementary", { name: "Security" });
    await expect(prompt).toContainText("Admin accounts should use two-factor authentication.");
    if (shots) await page.screenshot({ path: `${shots}/admin-prompt.png` });
    await prompt.getByRole("link", { name: "Turn on two-factor authentication" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("complementary", { name: "Security" })).toHaveCount(0);
  },
);
