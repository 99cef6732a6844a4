import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { newAccount, type ServerProcess, serverHealthy, startServer } from "./helpers";

// "Confirm it's you" before a sensitive admin action. This file runs its own
// server with ADMIN_PROOF_MINUTES=0, so that every such action asks (on the
// shared server a fresh sign-in counts as proof for 15 minutes).

test.describe.configure({ mode: "serial", timeout: 120_000 });

const shots = process.env.SHOTS_DIR;
let server: ServerProcess | undefined;
let dir = "";
let dataDir = "";
let origin = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(path.join(os.tmpdir(), "ailabs-confirm-"));
  dataDir = path.join(dir, "data");
  server = await startServer(dataDir, { LOG_LEVEL: "warn", ADMIN_PROOF_MINUTES: "0" });
  origin = server.origin;
  await serverHealthy(server, 90_000);
});

test.afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function signUp(page: Page) {
  const account = newAccount();
  await page.goto(`${origin}/signup`);
  await page.getByLabel("Full Name", { exact: true }).fill(account.name);
  await page.getByLabel("Email address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/payment-options$/);
  return account;
}

async function signUpAdmin(browser: Browser, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const account = await signUp(page);
  await promisify(execFile)(
    "npm",
    ["run", "--silent", "cli", "--", "admin", "grant", account.email],
    { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" } },
  );
  return { page, account };
}

test("granting access asks for the password again, then makes the change", async ({ browser }) => {
  const { page, account: admin } = await signUpAdmin(browser);
  const memberContext = await browser.newContext();
  const member = await signUp(await memberContext.newPage());
  await memberContext.close();

  await page.goto(`${origin}/admin/members?q=${encodeURIComponent(member.email)}`);
  await page.getByRole("link", { name: member.name }).click();
  await page.getByRole("link", { name: "Grant access" }).click();
  await page.getByRole("button", { name: "Yes, grant access" }).click();

  // Asked on the same page, under the console's navigation.
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it's you" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
  await expect(page.getByLabel("Password")).toBeFocused();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  if (shots) {
    await page.screenshot({ path: `${shots}/confirm-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/confirm-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  await page.getByLabel("Password").fill("not my password");
  await page.getByRole("button", { name: "Confirm and save" }).click();
  await expect(page.getByRole("alert")).toHaveText("Incorrect password");
  if (shots) await page.screenshot({ path: `${shots}/confirm-refused-1280.png` });
  await expect(page.getByRole("table", { name: "Purchases" })).toHaveCount(0);

  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Confirm and save" }).click();
  await expect(page.getByText(`Granted Lifetime Access to ${member.email}.`)).toBeVisible();
  await expect(page.getByRole("table", { name: "Purchases" })).toContainText("manual");

  // Cancel leaves everything as it was.
  await page.getByRole("link", { name: "Revoke access" }).click();
  await page.getByRole("button", { name: "Yes, revoke access" }).click();
  await expect(page.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { level: 1, name: member.name })).toBeVisible();
  await expect(page.getByRole("table", { name: "Purchases" })).toContainText("completed");

  // The log has the confirmations, and never the password.
  await page.goto(`${origin}/admin/audit?actor=${encodeURIComponent(admin.email)}`);
  const log = page.getByRole("table", { name: "Audit log entries" });
  await expect(log).toContainText("security.confirm-failed");
  await expect(log).toContainText("security.confirm");
  await expect(log).toContainText("member.grant");
  await expect(log).not.toContainText("not my password");
  if (shots) {
    await page.screenshot({ path: `${shots}/audit-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/audit-390.png`, fullPage: true });
  }
  await page.context().close();
});

test("without JavaScript, the offer settings typed are kept through the confirmation", async ({
  browser,
}) => {
  const { page, account: admin } = await signUpAdmin(browser, { javaScriptEnabled: false });
  await page.goto(`${origin}/admin/settings`);
  await page.getByLabel("Coupon code").fill("CONFIRMED");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it's you" })).toBeVisible();
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Confirm and save" }).click();
  await expect(page.getByRole("status").first()).toContainText("Saved (1 field changed)");
  await expect(page.getByLabel("Coupon code")).toHaveValue("CONFIRMED");
  if (shots) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/admin/settings`);
    await page.getByLabel("Coupon code").fill("AGAIN");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.screenshot({ path: `${shots}/confirm-settings-390.png`, fullPage: true });
  }
  await page.context().close();
});
