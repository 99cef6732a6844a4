import { type Browser, expect } from "@playwright/test";
import { axeViolations } from "./axe";
import { hydrated, signUpPaid, test, uniqueTitle } from "./helpers";

/** A member's page in a browser context of its own; signs up and pays with the test checkout. */
async function payingMember(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = await signUpPaid(page);
  return { page, account, close: () => context.close() };
}

const today = () => new Date().toISOString().slice(0, 10);
const dollars = (text: string | null) => Number((text ?? "").replace(/[$,]/g, ""));

test("the sales page and its CSV show a purchase just made through the test checkout", async ({
  adminPage: page,
  browser,
}) => {
  const day = today();
  const range = `from=${day}&to=${day}`;
  await page.goto(`/admin/sales?${range}`);
  await expect(page.getByRole("heading", { level: 1, name: "Sales" })).toBeVisible();
  const before = page.getByTestId("sales-count");
  const countBefore = (await before.count()) > 0 ? Number(await before.textContent()) : 0;

  const member = await payingMember(browser);
  await member.close();

  // Chosen with the form, by keyboard: the range of today.
  await page.goto("/admin/sales");
  await expect(
    page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Sales" }),
  ).toHaveAttribute("aria-current", "page");
  const from = page.getByLabel("From", { exact: true });
  await hydrated(from);
  await from.fill(day);
  await page.getByLabel("To", { exact: true }).fill(day);
  await page.getByLabel("To", { exact: true }).press("Enter");
  await expect(page).toHaveURL(new RegExp(`from=${day}&to=${day}`));
  expect(Number(await page.getByTestId("sales-count").textContent())).toBeGreaterThan(countBefore);
  expect(dollars(await page.getByTestId("sales-gross").textContent())).toBeGreaterThanOrEqual(25);

  const chart = page.getByRole("img", { name: /^Net revenue per day/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator("rect")).toHaveCount(1);
  const perDay = page.getByRole("table", { name: "Revenue per day" });
  await expect(perDay.getByRole("row")).toHaveCount(2);
  const providers = page.getByRole("table", { name: "Sales by provider" });
  await expect(providers.getByRole("row", { name: /^test / })).toBeVisible();
  const products = page.getByRole("table", { name: "Sales by product" });
  await expect(products.getByRole("row", { name: /^lifetime-access / })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // Per week: one bar, the week of today.
  await page.getByLabel("Revenue per", { exact: true }).selectOption("week");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/unit=week/);
  await expect(page.getByRole("img", { name: /^Net revenue per week/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Revenue per week" }).getByRole("row")).toHaveCount(
    2,
  );

  // The CSV: the purchase, one line, with the columns the page promises.
  const download = page.getByRole("link", { name: "Download CSV" });
  await expect(download).toHaveAttribute("href", `/admin/sales.csv?${range}`);
  const csv = await page.request.get(`/admin/sales.csv?${range}`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toBe(
    "entry,date,order_number,purchase_id,sold,email,provider,provider_ref,product,offer,coupon,amount_cents,fee_cents,currency,status",
  );
  const bought = lines.map((l) => l.split(",")).find((cells) => cells[5] === member.account.email);
  expect(bought?.slice(8)).toEqual([
    "lifetime-access",
    "front end",
    "",
    "2500",
    "",
    "usd",
    "completed",
  ]);
  expect(bought?.[0]).toBe("sale");
  expect(bought?.[6]).toBe("test");
  expect(bought?.[2]).toMatch(/^AIL-/);
  expect(bought?.[1]?.slice(0, 10)).toBe(day);
});

test("the learning page shows a chapter a member opened and marked done", async ({
  adminPage: page,
  adminApi,
  browser,
}) => {
  const title = uniqueTitle("Learning course");
  const { courseId, chapterIds } = await adminApi.createCourseWithChapters(title, "", [
    { title: "First steps", content: "<p>One</p>" },
    { title: "Second steps", content: "<p>Two</p>" },
  ]);
  const member = await payingMember(browser);
  await member.page.goto(`/course/${courseId}?chapter=${chapterIds[0]}`);
  const mark = member.page.getByRole("button", { name: "Mark as complete" });
  await hydrated(mark);
  await mark.click();
  // Marked done, the course page moves on to the next chapter.
  await expect(member.page).toHaveURL(new RegExp(`chapter=${chapterIds[1]}$`));
  await member.close();

  await page.goto("/admin/learning");
  await expect(page.getByRole("heading", { level: 1, name: "Learning" })).toBeVisible();
  // The figures of the last minute may predate the member's visit: count again.
  const again = page.getByRole("button", { name: "Count again now" });
  await hydrated(again);
  await again.click();
  await expect(page).toHaveURL(/\/admin\/learning\?fresh=1$/);
  const courses = page.getByRole("table", { name: "Courses" });
  await expect(
    courses.getByRole("row", { name: new RegExp(`^${title} 2 1 0 0.0%$`) }),
  ).toBeVisible();
  const section = page.getByRole("region", { name: title, exact: true });
  const chapters = section.getByRole("table", { name: `Chapters of ${title}` });
  await expect(chapters.getByRole("row", { name: /^1 First steps 1 1 / })).toBeVisible();
  // Marking the first chapter done opened the second.
  await expect(chapters.getByRole("row", { name: /^2 Second steps 1 0 / })).toBeVisible();
  await expect(section).toContainText("1 started, 0 finished (0.0%).");
  expect(await axeViolations(page)).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("sales and learning fit the screen: tables scroll, the page does not", async ({
    adminPage: page,
    browser,
  }) => {
    // A sale today, so that the figures, the chart and the tables are on the page.
    await (await payingMember(browser)).close();
    for (const path of ["/admin/sales?unit=day", "/admin/learning"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByRole("table").first()).toBeVisible();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        path,
      ).toBeLessThanOrEqual(390);
      expect(await axeViolations(page), path).toEqual([]);
    }
  });
});

test("sales pages send anyone but an admin to /dashboard", async ({ browser }) => {
  const member = await payingMember(browser);
  for (const path of ["/admin/sales", "/admin/learning"]) {
    await member.page.goto(path);
    await expect(member.page).toHaveURL(/\/dashboard$/);
  }
  const csv = await member.page.request.get("/admin/sales.csv", { maxRedirects: 0 });
  expect(csv.status()).toBe(302);
  expect(csv.headers().location).toBe("/dashboard");
  await member.close();
});
