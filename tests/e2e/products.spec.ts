import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import {
  cli,
  createAccount,
  hydrated,
  noSidewaysScroll,
  screenshotsIn,
  test,
  uniqueTitle,
} from "./helpers";

// Each product the funnel sells opens its own courses: a member with Lifetime
// Access sees the add-ons' courses as locked cards that lead to their offers,
// and the owner sets what each product opens at /admin/products; at a desktop
// and a phone width.

const shots = "/tmp/shots-products";
const whiteLabelCourse = "12-in-1 White Label Package";
const vipCourse = "VIP Launch Kit";
/** The demo's white-label course (drizzle/0017_products.sql). */
const whiteLabelCourseId = "6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12";

const shot = screenshotsIn(shots);

/** The dashboard card whose heading is `title`. */
const cardOf = (page: Page, title: string) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) });

for (const width of [1280, 390]) {
  test.describe(`products at ${width} px`, () => {
    test.beforeEach(async ({ page, baseURL }) => {
      await page.setViewportSize({ width, height: 900 });
      await page
        .context()
        .addCookies([{ name: "cookie_consent", value: "essential", url: baseURL as string }]);
    });

    test("a plan member sees the add-ons' courses locked; Unlock leads to the offer, and so does the course's address", async ({
      page,
    }) => {
      await createAccount(page, { paid: true });
      await page.goto("/dashboard");
      const locked = cardOf(page, whiteLabelCourse);
      await expect(locked).toContainText("Locked");
      await expect(locked).toContainText("Included in the 12-in-1 White Label Package.");
      // Not a way into the course: no link to it, no progress.
      await expect(locked.getByRole("link", { name: whiteLabelCourse })).toHaveCount(0);
      await expect(locked.getByRole("progressbar")).toHaveCount(0);
      await expect(cardOf(page, vipCourse)).toContainText(
        "Comes with the VIP Upgrade, offered at checkout with Lifetime Access.",
      );
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page);
      await shot(page, "dashboard", width);

      const unlock = locked.getByRole("link", { name: "Unlock" });
      await hydrated(unlock);
      await unlock.click();
      await expect(page).toHaveURL(/\/white-label-upsell$/);

      // The course's own address, and its downloads, lead to the same offer.
      await page.goto(`/course/${whiteLabelCourseId}`);
      await expect(page).toHaveURL(/\/white-label-upsell$/);
      await page.goto("/white-label/download/email-writer.zip");
      await expect(page).toHaveURL(/\/white-label-upsell$/);
    });

    test("a white-label buyer reads the package's course and downloads a tool's starter", async ({
      page,
    }) => {
      const buyer = await createAccount(page, { paid: true });
      expect(await cli("access", "grant", buyer.email, "white-label")).toContain(
        "Granted 12-in-1 White Label Package",
      );
      await page.goto("/dashboard");
      const start = cardOf(page, whiteLabelCourse).getByRole("link", { name: "Start course" });
      await hydrated(start);
      await start.click();
      await expect(
        page.getByRole("heading", { level: 2, name: "Tool 1: Content Generator" }),
      ).toBeVisible();
      // On a phone the chapter list is folded under "Chapters (12)".
      if (width < 1024) await page.getByText("Chapters (12)", { exact: true }).click();
      await page.getByRole("link", { name: /Tool 4: Email Writer/ }).click();
      const link = page.getByRole("link", { name: "email-writer.zip" });
      await expect(link).toBeVisible();
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page);
      await shot(page, "white-label-course", width);
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      expect(download.suggestedFilename()).toBe("email-writer.zip");
      const bytes = readFileSync((await download.path()) ?? "");
      // A ZIP archive, not an error page.
      expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
      expect(bytes.length).toBeGreaterThan(2000);
    });

    test("the owner opens a course with a product, and a plan member then finds it locked", async ({
      adminPage,
      page,
    }) => {
      const admin = adminPage;
      await admin.setViewportSize({ width, height: 900 });
      const title = uniqueTitle("Rebrand kit");
      await admin.goto("/admin/courses");
      const created = await admin.request.post("/admin/courses", {
        form: { intent: "create-course", title, description: "Brand assets" },
        headers: { Origin: new URL(admin.url()).origin },
        maxRedirects: 0,
      });
      expect(created.status()).toBe(302);
      const courseId = (created.headers().location ?? "").split("course=")[1] ?? "";

      await admin.goto("/admin/products");
      await expect(admin.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
      const whiteLabel = admin.getByRole("region", { name: "12-in-1 White Label Package" });
      const plan = admin.getByRole("region", { name: "Lifetime Access" });
      // A new course comes with Lifetime Access.
      await expect(plan.getByRole("checkbox", { name: title })).toBeChecked();
      await expect(whiteLabel.getByRole("checkbox", { name: whiteLabelCourse })).toBeChecked();
      await expectNoAxeViolations(admin);
      await noSidewaysScroll(admin);

      await hydrated(whiteLabel.getByRole("button", { name: "Save" }));
      await whiteLabel.getByRole("checkbox", { name: title }).check();
      await whiteLabel.getByRole("button", { name: "Save" }).click();
      await expect(admin.getByRole("status").filter({ hasText: "Saved" })).toContainText(
        // The server's database is shared by the tests: other runs may have added theirs.
        /Saved: 12-in-1 White Label Package sells at \$[\d.,]+ and opens \d+ courses\./,
      );
      // A price that is not one: the message beside the field, which takes the focus, and
      // nothing typed or ticked is lost. (Nothing is saved: other tests share this server.)
      await whiteLabel.getByLabel("Price (US$)", { exact: true }).fill("thirty");
      await whiteLabel.getByRole("checkbox", { name: title }).uncheck();
      await whiteLabel.getByRole("button", { name: "Save" }).click();
      await expect(admin.getByRole("alert")).toContainText("One field needs attention");
      const price = whiteLabel.getByLabel("Price (US$)", { exact: true });
      await expect(price).toBeFocused();
      await expect(price).toHaveValue("thirty");
      await expect(price).toHaveAccessibleDescription(
        /Enter the price in dollars, for example 17 or 4\.95/,
      );
      await expect(whiteLabel.getByRole("checkbox", { name: title })).not.toBeChecked();
      await shot(admin, "admin-products-refused", width);
      await admin.goto("/admin/products");
      await plan.getByRole("checkbox", { name: title }).uncheck();
      await plan.getByRole("button", { name: "Save" }).click();
      await expect(admin.getByRole("status").filter({ hasText: "Saved" })).toContainText(
        /Saved: Lifetime Access sells at \$[\d.,]+ and opens \d+ courses?\./,
      );
      await expect(plan.getByRole("checkbox", { name: title })).not.toBeChecked();
      await expect(whiteLabel.getByRole("checkbox", { name: title })).toBeChecked();
      await shot(admin, "admin-products", width);

      await createAccount(page, { paid: true });
      await page.goto("/dashboard");
      await expect(cardOf(page, title)).toContainText("Locked");
      await page.goto(`/course/${courseId}`);
      await expect(page).toHaveURL(/\/white-label-upsell$/);

      // The owner opens every course, locked to members or not.
      await admin.goto(`/course/${courseId}`);
      await expect(admin.getByRole("heading", { level: 1, name: title })).toBeVisible();
    });

    test("the owner adds a file to a product; its holder downloads it from their account page, and the owner removes it", async ({
      adminPage,
      page,
    }) => {
      // Two people's work in one test (32-52 s alone): room for a busy machine.
      test.setTimeout(120_000);
      const admin = adminPage;
      await admin.setViewportSize({ width, height: 900 });
      const fileName = `${uniqueTitle("launch-checklist").replace(/\W+/g, "-")}.txt`;
      await admin.goto("/admin/products");
      const vip = admin.getByRole("region", { name: "VIP Upgrade" });
      const add = vip.getByRole("button", { name: "Add file" });
      await hydrated(add);
      const input = vip.getByLabel("Add a file");
      await expect(input).toHaveAccessibleDescription(/at most 25 MB/);
      await input.setInputFiles({
        name: fileName,
        mimeType: "text/plain",
        buffer: Buffer.from("Day 1: warm up the list.\n"),
      });
      await add.click();
      await expect(admin.getByRole("status").filter({ hasText: "Added" })).toHaveText(
        `Added ${fileName} to VIP Upgrade.`,
      );
      const listed = vip.getByRole("link", { name: fileName });
      await expect(listed).toBeVisible();
      await expectNoAxeViolations(admin);
      await noSidewaysScroll(admin);
      await shot(admin, "admin-products-files", width);

      // A member who holds the VIP Upgrade: My downloads on their account page.
      const buyer = await createAccount(page, { paid: true });
      expect(await cli("access", "grant", buyer.email, "bump-vip")).toContain(buyer.email);
      await page.goto("/account");
      const downloads = page.getByRole("region", { name: "My downloads" });
      await expect(downloads.getByRole("heading", { name: "VIP Upgrade" })).toBeVisible();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        downloads.getByRole("link", { name: new RegExp(fileName) }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(fileName);
      expect(readFileSync(await download.path(), "utf8")).toBe("Day 1: warm up the list.\n");
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page);
      await shot(page, "account-downloads", width);

      // Removed: gone from the owner's list.
      await vip.getByRole("button", { name: `Remove ${fileName} from VIP Upgrade` }).click();
      await expect(admin.getByRole("status").filter({ hasText: "Removed" })).toHaveText(
        `Removed ${fileName} from VIP Upgrade.`,
      );
      await expect(vip.getByRole("link", { name: fileName })).toHaveCount(0);
    });
  });
}
