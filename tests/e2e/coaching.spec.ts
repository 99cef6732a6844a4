import { expect } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { cli, createAccount, hydrated, noSidewaysScroll, screenshotsIn, test } from "./helpers";

// A Custom SaaS buyer finds their build from the dashboard, sends the intake
// form with their vision document, and the owner moves the build on in the
// console with private notes; at a desktop and a phone width.

const shots = "/tmp/shots-coaching";

const shot = screenshotsIn(shots);

const visionPdf = {
  name: "Estate agent assistant.pdf",
  mimeType: "application/pdf",
  buffer: Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"),
};

for (const width of [1280, 390]) {
  test.describe(`a Custom SaaS build at ${width} px`, () => {
    test.beforeEach(async ({ page, baseURL }) => {
      await page.setViewportSize({ width, height: 900 });
      await page
        .context()
        .addCookies([{ name: "cookie_consent", value: "essential", url: baseURL as string }]);
    });

    test("the buyer sends the intake form, and the owner books the consultation", async ({
      page,
      adminPage,
    }) => {
      // Two people's work in one test (36-48 s alone): room for a busy machine.
      test.setTimeout(120_000);
      const buyer = await createAccount(page, { paid: true });
      expect(await cli("access", "grant", buyer.email, "custom-saas")).toContain(
        "Granted Custom SaaS Build and 1-on-1 Coaching",
      );

      await page.goto("/dashboard");
      const open = page.getByRole("link", { name: "Open your build" });
      await hydrated(open);
      await open.click();
      await expect(page).toHaveURL(/\/coaching$/);
      const heading = page.getByRole("heading", { level: 2, name: /^Order AIL-[0-9A-Z]{5}$/ });
      await expect(heading).toBeVisible();
      const orderNumber = ((await heading.textContent()) ?? "").replace("Order ", "");
      await expect(page.getByText("Waiting for your intake form")).toBeVisible();
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page);

      // Sent empty: every missing answer says so, and the keyboard goes to the first.
      const send = page.getByRole("button", { name: "Send the intake form" });
      await hydrated(send);
      await send.click();
      await expect(page.getByRole("alert")).toContainText("Some answers need attention");
      await expect(
        page.getByText("Say when you are available for the consultation."),
      ).toBeVisible();
      await expect(page.getByLabel("When are you available?")).toBeFocused();

      await page.getByLabel("Vision document").setInputFiles(visionPdf);
      await page.getByLabel("When are you available?").fill("Weekdays 9-12, Europe/Berlin");
      await page.getByRole("radio", { name: "Host it for me" }).check();
      await page.getByLabel("Content plan").fill("Fifty prompts for estate agents.");
      await page.getByRole("button", { name: "Send the intake form" }).click();
      await expect(page.getByRole("status")).toContainText(
        `Thank you: the intake form for order ${orderNumber} is with the team.`,
      );
      await expect(page.getByText("Status").locator("xpath=following-sibling::dd[1]")).toHaveText(
        "New",
      );
      await expect(page.getByRole("link", { name: visionPdf.name })).toBeVisible();
      await expect(page.getByLabel("When are you available?")).toHaveValue(
        "Weekdays 9-12, Europe/Berlin",
      );
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page);
      await shot(page, "coaching", width);

      // The owner's console.
      const admin = adminPage;
      await admin.setViewportSize({ width, height: 900 });
      await admin.goto("/admin/applications");
      const build = admin.getByRole("region", { name: `Order ${orderNumber}` });
      await expect(build).toContainText("Weekdays 9-12, Europe/Berlin");
      await expect(build).toContainText("Host it for me");
      await expect(build.getByRole("link", { name: visionPdf.name })).toHaveAttribute(
        "href",
        /^\/coaching\/vision\/[0-9a-f-]{36}$/,
      );
      await expectNoAxeViolations(admin);
      await noSidewaysScroll(admin);
      const save = build.getByRole("button", { name: "Save" });
      await hydrated(save);
      await build.getByLabel("Status").selectOption({ label: "Consultation booked" });
      await build.getByLabel("Private notes").fill("Call on Tuesday at 10.");
      await save.click();
      await expect(admin.getByRole("status")).toContainText(
        'Saved: the build is now "Consultation booked".',
      );
      await expect(build.getByLabel("Private notes")).toHaveValue("Call on Tuesday at 10.");
      await shot(admin, "admin-builds", width);

      // The buyer sees the status, never the notes.
      await page.reload();
      await expect(page.getByText("Consultation booked")).toBeVisible();
      await expect(page.getByText("Call on Tuesday")).toHaveCount(0);
    });
  });
}
