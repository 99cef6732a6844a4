import { mkdirSync, readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createAccount, hydrated, submitLogin } from "./helpers";

// A member serves themselves at /account: the name, the password, what they
// bought and a printable receipt of each, their data to download, and
// deleting the account; at a desktop and a phone width.

const shots = "/tmp/shots-account";

async function shot(page: Page, name: string, width: number) {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
}

/** The status region's notice. */
const notice = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();

async function noOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const width of [1280, 390]) {
  test.describe(`the account page at ${width} px`, () => {
    test.beforeEach(async ({ page, baseURL }) => {
      await page.setViewportSize({ width, height: 900 });
      await page
        .context()
        .addCookies([{ name: "cookie_consent", value: "essential", url: baseURL as string }]);
    });

    test("My purchases lists the plan with its order number, and its receipt prints", async ({
      page,
    }) => {
      const account = await createAccount(page, { paid: true });
      await page.goto("/account");
      const purchases = page.getByRole("region", { name: "My purchases" });
      await expect(purchases.getByRole("heading", { name: "Lifetime Access" })).toBeVisible();
      await expect(purchases).toContainText("$25");
      await expect(purchases).toContainText("Paid");
      const orderNumber = (await purchases.locator("dd.font-mono").first().textContent()) ?? "";
      expect(orderNumber).toMatch(/^AIL-[0-9A-HJKMNP-TV-Z]{5}$/);
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "account", width);

      await purchases.getByRole("link", { name: `Receipt for order ${orderNumber}` }).click();
      await expect(page).toHaveURL(`/account/receipts/${orderNumber}`);
      const receipt = page.getByRole("article", { name: "Receipt" });
      await expect(receipt.getByRole("heading", { level: 1, name: "Receipt" })).toBeVisible();
      await expect(receipt).toContainText(orderNumber);
      await expect(receipt).toContainText(account.email);
      await expect(receipt).toContainText("Lifetime Access");
      await expect(receipt).toContainText("Total paid");
      await expect(receipt).toContainText("Test checkout");
      await hydrated(page.getByRole("button", { name: "Print receipt" }));
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "receipt", width);
      // Printed, the receipt stands alone: no site header, footer or buttons.
      await page.emulateMedia({ media: "print" });
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      await expect(page.getByRole("button", { name: "Print receipt" })).toBeHidden();
      await expect(receipt).toBeVisible();
      await page.emulateMedia({ media: "screen" });

      // Another account's order number is not found.
      await page.goto("/account/receipts/AIL-00000");
      await expect(page.getByRole("heading", { name: "Receipt not found" })).toBeVisible();
    });

    test("the name and the password change, with clear messages for mistakes", async ({
      page,
      browser,
      baseURL,
    }) => {
      const account = await createAccount(page, { paid: true });
      // Another browser signed in to the same account.
      const other = await browser.newContext({ baseURL });
      const otherPage = await other.newPage();
      await submitLogin(otherPage, account.email, account.password);
      await expect(otherPage).toHaveURL(/\/dashboard$/);

      await page.goto("/account");
      const details = page.getByRole("region", { name: "Your details" });
      const name = details.getByLabel("Full name");
      await hydrated(details.getByRole("button", { name: "Save name" }));
      await expect(name).toHaveValue(account.name);
      await name.fill("   ");
      await details.getByRole("button", { name: "Save name" }).click();
      await expect(details.getByText("Please enter your full name")).toBeVisible();
      await name.fill("Renamed Member");
      await details.getByRole("button", { name: "Save name" }).click();
      await expect(notice(page)).toHaveText("Your name was saved.");
      await expect(name).toHaveValue("Renamed Member");

      const password = page.getByRole("region", { name: "Change password" });
      const current = password.getByLabel("Current password");
      const fresh = password.getByLabel("New password", { exact: true });
      const confirm = password.getByLabel("Confirm new password");
      const change = password.getByRole("button", { name: "Change password" });
      await current.fill("not the password");
      await fresh.fill("a brand new passphrase");
      await confirm.fill("a different passphrase");
      await change.click();
      await expect(password.getByText("The passwords do not match")).toBeVisible();
      await confirm.fill("a brand new passphrase");
      await change.click();
      await expect(password.getByText("Incorrect password")).toBeVisible();
      await expect(current).toHaveAttribute("aria-invalid", "true");
      await expectNoAxeViolations(page);
      await shot(page, "password-refused", width);

      await current.fill(account.password);
      await fresh.fill("a brand new passphrase");
      await confirm.fill("a brand new passphrase");
      await change.click();
      await expect(notice(page)).toHaveText(
        "Your password was changed. Every other device was signed out.",
      );
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "password-changed", width);

      // This browser is still signed in; the other one is not.
      await page.goto("/dashboard");
      await expect(page).toHaveURL(/\/dashboard$/);
      await otherPage.goto("/dashboard");
      await expect(otherPage).toHaveURL(/\/login$/);
      // The new password signs in there.
      await submitLogin(otherPage, account.email, "a brand new passphrase");
      await expect(otherPage).toHaveURL(/\/dashboard$/);
      await other.close();
    });

    test("a new e-mail address is asked for with the password and confirmed by its link", async ({
      page,
    }) => {
      const account = await createAccount(page, { paid: true });
      await page.goto("/account");
      const section = page.getByRole("region", { name: "E-mail address" });
      await expect(section).toContainText(account.email);
      const send = section.getByRole("button", { name: "Send confirmation link" });
      await hydrated(send);
      const newEmail = `moved-${crypto.randomUUID()}@example.com`;
      await section.getByLabel("New e-mail address").fill(newEmail);
      await section.getByLabel("Your password").fill("not the password");
      await send.click();
      await expect(section.getByText("Incorrect password")).toBeVisible();
      await expect(section.getByLabel("New e-mail address")).toHaveValue(newEmail);
      await expectNoAxeViolations(page);
      await section.getByLabel("Your password").fill(account.password);
      await send.click();
      await expect(notice(page)).toHaveText(
        `We sent a link to ${newEmail}: open it to confirm your new address. Until then you sign in with ${account.email}.`,
      );
      await noOverflow(page);
      await shot(page, "email-asked", width);

      // A link that is not (or no longer) good says so.
      await page.goto("/account/confirm-email?token=not-a-real-token");
      await expect(page.getByText("This link has expired or has already been used.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Go to your account" })).toBeVisible();
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "email-link-expired", width);
    });

    test("Download my data gives a JSON file of the account; deleting it needs the password, then ends it", async ({
      page,
    }) => {
      const account = await createAccount(page, { paid: true });
      await page.goto("/account");
      const orderNumber =
        (await page
          .getByRole("region", { name: "My purchases" })
          .locator("dd.font-mono")
          .first()
          .textContent()) ?? "";
      const yourData = page.getByRole("region", { name: "Your data" });
      const removal = page.getByRole("region", { name: "Delete account" });
      const password = removal.getByLabel("Your password");
      const understood = removal.getByLabel("I understand this cannot be undone");
      const remove = removal.getByRole("button", { name: "Delete my account" });
      await hydrated(remove);
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "your-data", width);

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        yourData.getByRole("link", { name: "Download my data" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("ai-labs-account-data.json");
      const file = JSON.parse(readFileSync(await download.path(), "utf8"));
      expect(file.account.email).toBe(account.email);
      expect(file.purchases.map((p: { orderNumber: string }) => p.orderNumber)).toEqual([
        orderNumber,
      ]);

      await password.fill("not the password");
      await understood.check();
      await remove.click();
      await expect(removal.getByText("Incorrect password")).toBeVisible();
      await expect(password).toHaveAttribute("aria-invalid", "true");
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "delete-refused", width);

      await password.fill(account.password);
      await understood.check();
      await remove.click();
      await expect(page).toHaveURL(/\/login\?deleted=1$/);
      await expect(page.getByText("Your account was deleted.")).toBeVisible();
      await expectNoAxeViolations(page);
      await shot(page, "account-deleted", width);

      // Signed out, and the old e-mail and password no longer sign in.
      await page.goto("/account");
      await expect(page).toHaveURL(/\/login$/);
      await submitLogin(page, account.email, account.password);
      await expect(page.getByRole("alert")).toContainText("Invalid email or password");
      await expect(page).toHaveURL(/\/login$/);
    });
  });
}
