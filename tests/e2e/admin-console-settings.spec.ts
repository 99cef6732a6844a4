import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import {
  newAccount,
  type ServerProcess,
  serverHealthy,
  startServer as startServerProcess,
} from "./helpers";

// The offer settings change what every visitor sees ($25 on the landing page):
// other spec files assert those figures on the shared server, so this file
// runs its own production server on its own embedded database.

test.describe.configure({ mode: "serial", timeout: 120_000 });

const shots = process.env.SHOTS_DIR;
let server: ServerProcess | undefined;
let dir = "";
let origin = "";
let dataDir = "";

/** Starts the production server on this file's DATA_DIR (a new port each time) and waits until it is healthy. */
async function startServer() {
  server = await startServerProcess(dataDir, { LOG_LEVEL: "warn" });
  origin = server.origin;
  await serverHealthy(server, 90_000);
}

async function stopServer() {
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(path.join(os.tmpdir(), "ailabs-settings-"));
  dataDir = path.join(dir, "data");
  await startServer();
});

test.afterAll(async () => {
  await stopServer();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The page as a visitor without a session gets it: the copy kept in memory. */
async function visitorPage(path: string): Promise<{ text: string; etag: string | null }> {
  const response = await fetch(`${origin}${path}`);
  expect(response.status).toBe(200);
  return { text: await response.text(), etag: response.headers.get("etag") };
}

async function signUpMember(page: Page) {
  const account = newAccount();
  await page.goto(`${origin}/signup`);
  await page.getByLabel("Full Name", { exact: true }).fill(account.name);
  await page.getByLabel("Email address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/payment-options$/);
  return account;
}

async function signUpAdmin(page: Page) {
  const account = await signUpMember(page);
  await promisify(execFile)(
    "npm",
    ["run", "--silent", "cli", "--", "admin", "grant", account.email],
    {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
    },
  );
  return account;
}

test("the owner changes the offer settings; the public pages and the checkout follow", async ({
  page,
  browser,
}) => {
  // Before: the defaults, served from memory (a prerendered page has an ETag).
  const before = await visitorPage("/");
  expect(before.text).toContain("$25");
  expect(before.etag).toBeTruthy();

  await signUpAdmin(page);
  await page.goto(`${origin}/admin/settings`);
  await expect(page.getByRole("heading", { level: 1, name: "Offer settings" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Prices" })).toBeVisible();
  await expect(page.getByLabel("Second sales page price (US$)")).toHaveValue("17");
  // The products' own prices are on Products, not here.
  await expect(page.getByLabel("Plan price (US$)")).toHaveCount(0);

  // Bad input: the messages sit beside the fields, and what was typed stays.
  await page.getByLabel("Second sales page price (US$)").fill("twenty");
  await page.getByLabel("Main offer buy link").fill("http://warriorplus.com/buy/x");
  await page.getByLabel("Coupon code").fill("SPRING");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("alert")).toContainText("2 fields need attention");
  const second = page.getByLabel("Second sales page price (US$)");
  await expect(second).toBeFocused();
  await expect(second).toHaveAccessibleDescription(
    /Enter the second sales page's price in dollars, for example 17 or 4.95/,
  );
  await expect(page.getByLabel("Main offer buy link")).toHaveAccessibleDescription(
    /must be an https:\/\/ address/,
  );
  await expect(second).toHaveValue("twenty");
  await expect(page.getByLabel("Coupon code")).toHaveValue("SPRING");

  // Fixed, and sent from the keyboard.
  await page.getByLabel("Main offer buy link").fill("https://warriorplus.com/o2/buy/ailabs/spring");
  // The funnel sells on the marketplace: the sales pages' buttons lead to its link.
  await expect(page.getByLabel("Buy buttons lead to")).toHaveValue("product");
  await page.getByLabel("Buy buttons lead to").selectOption({ label: "The marketplace links" });
  await second.fill("12");
  await page.getByLabel("Launch date and time").fill("2031-03-01T10:00");
  await page.getByLabel("Seller's name").fill("AI Labs Education LLC");
  await page.getByLabel("Seller's postal address").fill("1 Main Street\nAustin, TX 78701\nUSA");
  await page.getByLabel("Clients at a time").fill("12");
  await page.getByLabel("Launch time zone").fill("Europe/London");
  await page.getByLabel("Launch time zone").press("Enter");
  await expect(page.getByRole("status").first()).toContainText("Saved (9 fields changed)");
  await expect(second).toHaveValue("12");

  // The plan's price is Lifetime Access's, on Products.
  await page.goto(`${origin}/admin/products`);
  const plan = page.getByRole("region", { name: "Lifetime Access" });
  await expect(plan.getByLabel("Price (US$)", { exact: true })).toHaveValue("25");
  await plan.getByLabel("Price (US$)", { exact: true }).fill("19.95");
  await plan.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").first()).toContainText(
    "Saved: Lifetime Access sells at $19.95",
  );
  await expect(plan.getByLabel("Price (US$)", { exact: true })).toHaveValue("19.95");

  // Visitors get the new figures, still from memory.
  const home = await visitorPage("/");
  expect(home.text).toContain("$19.95");
  expect(home.etag).toBeTruthy();
  expect(home.etag).not.toBe(before.etag);
  const offer = await visitorPage("/ailabs-offer");
  expect(offer.text).toContain("$19.95");
  expect(offer.text).toContain("SPRING");
  expect(offer.text).toContain("https://warriorplus.com/o2/buy/ailabs/spring");
  expect((await visitorPage("/ailabs-offer2")).text).toContain("$12");
  // The coaching page counts its spots against the new cap (no build is sold here).
  const coaching = (await visitorPage("/custom-saas-upsell")).text;
  expect(coaching).toContain("12 spots remaining");
  expect(coaching).toContain("Why only 12 clients?");
  const affiliate = (await visitorPage("/jv-affiliate")).text;
  expect(affiliate).toContain("March 1, 2031 at 10:00 AM GMT");
  // The affiliates' funnel sells the front end at the second sales page's price.
  expect(affiliate).toContain("At $12, lifetime access");

  // The log says who changed what, from what to what.
  await page.goto(`${origin}/admin/audit?kind=settings.update`);
  await expect(page.getByRole("table")).toContainText(/planPriceCents: \d+ → 1995/);

  // The checkout charges a new member the new price.
  const context = await browser.newContext();
  const member = await context.newPage();
  await signUpMember(member);
  await expect(member.getByText("$19.95").first()).toBeVisible();
  await member.getByRole("button", { name: "Get Lifetime Access Now" }).click();
  await expect(member).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  await expect(member.getByText("$19.95 USD")).toBeVisible();
  await member.getByRole("button", { name: "Pay $19.95" }).click();
  await expect(member).toHaveURL(/\/success$/);

  // Its receipt names the seller as the settings say, one line each.
  await member.goto(`${origin}/account`);
  await member.getByRole("link", { name: /^Receipt for order AIL-/ }).click();
  const seller = member.getByRole("article", { name: "Receipt" }).locator("address");
  await expect(seller).toContainText("AI Labs Education LLC");
  await expect(seller.getByText("Austin, TX 78701", { exact: true })).toBeVisible();
  await expect(member.getByRole("article", { name: "Receipt" })).toContainText("$19.95");
  await context.close();
});

test("a restarted server renders its pages with the stored settings before it answers", async () => {
  await stopServer();
  await startServer();
  const home = await visitorPage("/");
  expect(home.text).toContain("$19.95");
  expect(home.etag).toBeTruthy();
  expect((await visitorPage("/ailabs-offer")).text).toContain("SPRING");
});

test("the settings page is axe clean and fits a phone", async ({ page }) => {
  await signUpAdmin(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${origin}/admin/settings`);
    await expect(page.getByRole("heading", { level: 1, name: "Offer settings" })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `overflow at ${width}`).toBeLessThanOrEqual(0);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    expect(results.violations, `at ${width}`).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/settings-${width}.png`, fullPage: true });
  }
  // An error state too.
  await page.getByLabel("Support e-mail").fill("support@");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByLabel("Support e-mail")).toHaveAccessibleDescription(
    /Please enter a valid e-mail address/,
  );
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(results.violations).toEqual([]);
  if (shots) await page.screenshot({ path: `${shots}/settings-error-390.png`, fullPage: true });
});
