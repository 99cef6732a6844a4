import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page } from "@playwright/test";
import { islandsHydrated, test } from "./helpers";

// The counts are the server's for today: one test at a time, so a visit in one
// does not land in another's before/after comparison.
test.describe.configure({ mode: "serial" });

const shots = "/tmp/shots-console-funnel";
const banner = (page: Page) => page.getByRole("region", { name: "We use cookies" });

/** The views of a page over the default range (today included), read from /admin/funnel. */
async function viewsOf(adminPage: Page, label: string): Promise<number> {
  const row = adminPage
    .getByRole("table", { name: "Views per page" })
    .getByRole("row")
    .filter({ has: adminPage.getByRole("cell", { name: label, exact: true }) });
  return Number(((await row.getByRole("cell").nth(1).textContent()) ?? "").replace(/,/g, ""));
}

async function openFunnel(adminPage: Page): Promise<{ landing: number; sales: number }> {
  await adminPage.goto("/admin/funnel");
  await expect(adminPage.getByRole("heading", { level: 1, name: "Funnel" })).toBeVisible();
  return {
    landing: await viewsOf(adminPage, "Landing page (/)"),
    sales: await viewsOf(adminPage, "Sales page (/ailabs-offer)"),
  };
}

/** A visitor in a browser of their own, who answers the cookie banner on the landing page. */
async function visitorChoosing(browser: Browser, button: string, baseURL: string) {
  const context = await browser.newContext();
  // Left by an analytics tool earlier: choosing less than all must delete it.
  await context.addCookies([{ name: "_ga", value: "GA1.1.1", url: baseURL }]);
  const page = await context.newPage();
  await page.goto("/");
  await islandsHydrated(page);
  await banner(page).getByRole("button", { name: button, exact: true }).click();
  await expect(banner(page)).toHaveCount(0);
  return { context, page };
}

test("accepting analytical cookies counts the visitor's views of / and /ailabs-offer for today", async ({
  adminPage,
  browser,
  baseURL,
}) => {
  const before = await openFunnel(adminPage);
  const { context, page } = await visitorChoosing(browser, "Accept All", baseURL as string);
  // The first view came before the choice: not counted. These two are.
  await page.goto("/");
  await page.goto("/ailabs-offer");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Neither a HEAD nor a prefetch is a view.
  await page.request.head("/");
  await page.request.get("/", { headers: { "Sec-Purpose": "prefetch" } });
  await context.close();

  // The funnel page writes this process's pending counts before reading.
  const after = await openFunnel(adminPage);
  expect(after).toEqual({ landing: before.landing + 1, sales: before.sales + 1 });
});

for (const button of ["Decline", "Essential Only"]) {
  test(`${button} counts no view and leaves no analytics cookie`, async ({
    adminPage,
    browser,
    baseURL,
  }) => {
    const before = await openFunnel(adminPage);
    const { context, page } = await visitorChoosing(browser, button, baseURL as string);
    const names = (await context.cookies()).map((c) => c.name);
    expect(names.filter((n) => n.startsWith("_ga") || n.startsWith("ailabs_analytics"))).toEqual(
      [],
    );
    await page.goto("/");
    await page.goto("/ailabs-offer");
    await context.close();
    expect(await openFunnel(adminPage)).toEqual(before);
  });
}

test("the range form works from the keyboard and shows the figures for the chosen days", async ({
  adminPage,
}) => {
  await adminPage.goto("/admin/funnel");
  await adminPage.getByLabel("From").fill("2032-02-01");
  await adminPage.getByLabel("To").fill("2032-02-03");
  // The button answers Enter (Tab inside a date field moves between its day, month and year).
  await adminPage.getByRole("button", { name: "Show" }).focus();
  await adminPage.keyboard.press("Enter");
  await expect(adminPage).toHaveURL(/from=2032-02-01&to=2032-02-03/);
  await expect(adminPage.getByText("2032-02-01 to 2032-02-03 (3 days")).toBeVisible();
  const days = adminPage.getByRole("table", { name: /per day/ }).getByRole("row");
  await expect(days).toHaveCount(4);
  // A query that is not a date falls back to the last 30 days rather than failing.
  await adminPage.goto("/admin/funnel?from=soon&to=%3Cscript%3E");
  await expect(adminPage.getByText(/\(30 days; at most 366\)/)).toBeVisible();
  await expect(adminPage.getByText(/the sales page claims 23%/)).toBeVisible();
});

test("only admins open the funnel; a visitor goes elsewhere", async ({ page }) => {
  await page.goto("/admin/funnel");
  await expect(page).not.toHaveURL(/\/admin\/funnel/);
});

for (const width of [1280, 390]) {
  test(`at ${width} px wide nothing overflows the page and axe finds no violation`, async ({
    adminPage,
    baseURL,
  }) => {
    await adminPage.setViewportSize({ width, height: 900 });
    await adminPage
      .context()
      .addCookies([{ name: "cookie_consent", value: "essential", url: baseURL as string }]);
    await adminPage.goto("/admin/funnel");
    await expect(adminPage.getByRole("heading", { level: 1, name: "Funnel" })).toBeVisible();
    await expect(adminPage.getByRole("link", { name: "Funnel" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const overflow = await adminPage.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const results = await new AxeBuilder({ page: adminPage })
      .withTags(["wcag2a", "wcag2aa"])
      .analyze();
    expect(results.violations).toEqual([]);
    mkdirSync(shots, { recursive: true });
    await adminPage.screenshot({ path: `${shots}/funnel-${width}.png`, fullPage: true });
  });
}
