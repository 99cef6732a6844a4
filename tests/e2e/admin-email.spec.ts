import type { Page } from "@playwright/test";
import { expect } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import {
  createAccountWith,
  hydrated,
  noSidewaysScroll,
  screenshotsIn,
  test,
  uniqueTitle,
} from "./helpers";

const shot = screenshotsIn("/tmp/shots-admin-email");

/** Each width: no sideways scroll, nothing axe finds, and a screenshot to look at. */
async function atBothWidths(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await noSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await shot(page, name, width);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe("the owner's console: e-mail", () => {
  test("a broadcast to a filter: counted, previewed, confirmed, queued and listed; its link unsubscribes without signing in", async ({
    adminPage: page,
    playwright,
    baseURL,
    browser,
  }) => {
    // Compose, preview, send and wait for the sender's pass, then the preferences page: a minute
    // on a busy machine.
    test.setTimeout(120_000);
    const request = await playwright.request.newContext({ baseURL });
    const member = await createAccountWith(request, { paid: true, origin: baseURL ?? "" });
    await request.dispose();

    await page.goto("/admin");
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "E-mail" })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "E-mail" })).toBeVisible();
    await expect(page).toHaveTitle("E-mail | AI Labs");

    // Who gets it: the members list's filters.
    await page.getByLabel("Name or e-mail").fill(member.email);
    await page.getByLabel("Access").selectOption("member");
    await page.getByRole("button", { name: "Count recipients" }).click();
    await expect(page).toHaveURL(/access=member/);
    await expect(page.getByText("1 member will get it")).toBeVisible();

    const subject = uniqueTitle("Chapter 4 is out");
    // Sending without a message is refused in the page, and nothing is lost.
    await page.getByLabel("Subject").fill(subject);
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("alert")).toHaveText("Write the message");
    await expect(page.getByLabel("Subject")).toHaveValue(subject);

    const editor = page.locator(".ql-editor");
    await editor.click();
    await page.keyboard.type("The next chapter is ready for you.");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("region", { name: "Preview, as a member gets it" });
    await expect(
      preview.getByText("The next chapter is ready for you.", { exact: true }),
    ).toBeVisible();
    const preferences = preview.getByRole("link", {
      name: "Unsubscribe or change your e-mail preferences",
    });
    const link = await preferences.getAttribute("href");
    expect(link).toMatch(new RegExp(`^${baseURL}/email/preferences\\?token=`));
    await atBothWidths(page, "compose");

    await page.getByRole("button", { name: "Send now to 1 member" }).click();
    const dialog = page.getByRole("dialog", { name: "Send this e-mail now?" });
    await expect(dialog).toContainText(`"${subject}" goes to 1 member now.`);
    await dialog.getByRole("button", { name: "Send now" }).click();
    await expect(page.getByText(`"${subject}" is on its way to 1 member.`)).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: subject });
    await expect(row.getByRole("cell").nth(2)).toHaveText("1");
    // The sender's next pass (every 5 s) sends it.
    await expect(async () => {
      await page.reload();
      await expect(
        page.getByRole("row").filter({ hasText: subject }).getByRole("cell").nth(3),
      ).toHaveText("1");
    }).toPass({ timeout: 30_000 });
    await atBothWidths(page, "broadcasts");

    // The preview's link is the owner's own: it works without a session.
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(link ?? "");
    await expect(
      visitorPage.getByRole("heading", { level: 1, name: "E-mail preferences" }),
    ).toBeVisible();
    await expect(visitorPage.getByText("you get our announcements")).toBeVisible();
    await atBothWidths(visitorPage, "preferences");
    await visitorPage.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(visitorPage.getByText("Unsubscribed: we will send you no more")).toBeVisible();
    await expect(visitorPage.getByRole("button", { name: "Subscribe again" })).toBeVisible();
    await atBothWidths(visitorPage, "preferences-unsubscribed");
    await visitorPage.getByRole("button", { name: "Subscribe again" }).click();
    await expect(visitorPage.getByText("Subscribed again")).toBeVisible();
    await visitor.close();

    // The member list opens the page with its own filters.
    await page.goto(`/admin/members?q=${encodeURIComponent(member.email)}`);
    await page.getByRole("link", { name: "E-mail these members" }).click();
    await expect(page.getByText("1 member will get it")).toBeVisible();
    await expect(page.getByLabel("Name or e-mail")).toHaveValue(member.email);
  });

  test("the welcome sequence: four days listed, a step edited in place and switched off and on", async ({
    adminPage: page,
  }) => {
    await page.goto("/admin/email");
    const table = page.getByRole("table", { name: "Welcome sequence" });
    await expect(table.getByRole("row")).toHaveCount(5);
    await expect(table.getByRole("row").nth(2)).toContainText("Day 1: pick a problem");

    await page.getByRole("button", { name: "Edit day 1" }).click();
    const form = page.getByRole("form", { name: "Edit the e-mail of day 1" });
    await expect(form.getByLabel("Day")).toHaveValue("1");
    await expect(form.locator(".ql-editor")).toContainText("Idea Generator");
    // Spaces pass the browser's own check of a required field, not the form's.
    await form.getByLabel("Subject").fill("   ");
    await form.getByRole("button", { name: "Save e-mail" }).click();
    await expect(form.getByRole("alert")).toHaveText("Write a subject");
    await atBothWidths(page, "welcome-step");

    const subject = uniqueTitle("Day 1: your idea");
    await form.getByLabel("Subject").fill(subject);
    await form.getByLabel("Send this e-mail").uncheck();
    await form.getByRole("button", { name: "Save e-mail" }).click();
    await expect(page.getByText("Saved the welcome e-mail of day 1.")).toBeVisible();
    const row = table.getByRole("row").filter({ hasText: subject });
    await expect(row).toContainText("Off");

    // Back as it was, for the other tests on this server.
    await page.getByRole("button", { name: "Edit day 1" }).click();
    await form.getByLabel("Subject").fill("Day 1: pick a problem worth paying for");
    await form.getByLabel("Send this e-mail").check();
    await form.getByRole("button", { name: "Save e-mail" }).click();
    await expect(table.getByRole("row").nth(2)).toContainText("On");
  });
});

test.describe("the owner's console: a chapter's announcement", () => {
  test("publishing a chapter with the tick box e-mails the course's members once; the editor then says when", async ({
    adminPage: page,
    adminApi,
  }) => {
    // Four full-page shots of the console and a save that queues an e-mail to every paying
    // member of the suite: 20 s alone, past a minute on CI's busy PostgreSQL pass.
    test.setTimeout(120_000);
    const courseTitle = uniqueTitle("Announced course");
    const courseId = await adminApi.createCourse(courseTitle, "");
    await page.goto(`/admin/courses?course=${courseId}&chapter=new`);
    await expect(page.getByRole("heading", { name: "New chapter" })).toBeVisible();
    const tick = page.getByRole("checkbox", {
      name: /^E-mail the members who can open this course that this chapter is out/,
    });
    await expect(tick).not.toBeChecked();
    // Only a published chapter can be announced: a draft has no tick box.
    const published = page.getByRole("switch", { name: "Published" });
    await hydrated(published);
    await published.uncheck();
    await expect(tick).toHaveCount(0);
    await published.check();

    const title = uniqueTitle("Launch day");
    await page.getByRole("textbox", { name: "Chapter title" }).fill(title);
    await tick.check();
    await atBothWidths(page, "chapter-announce");
    await page.getByRole("button", { name: "Save chapter" }).click();
    await expect(
      page.getByText(
        /^New chapter created successfully! It is being e-mailed to the \d+ members who can open its course\.$/,
      ),
    ).toBeVisible();

    // Editing it again: it was announced, and says so instead of offering the box.
    await page.getByRole("link", { name: `Edit chapter: ${title}` }).click();
    await expect(page.getByRole("heading", { name: "Edit chapter" })).toBeVisible();
    await expect(
      page.getByText(/^Announced by e-mail on \d+ \w+ \d{4}, \d\d:\d\d UTC\.$/),
    ).toBeVisible();
    await expect(tick).toHaveCount(0);
    await atBothWidths(page, "chapter-announced");

    // The broadcast is listed on /admin/email with its recipients.
    await page.goto("/admin/email");
    await expect(page.getByText(`New chapter: ${title}`)).toBeVisible();
  });
});
