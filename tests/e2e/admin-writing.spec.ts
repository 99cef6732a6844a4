import { mkdirSync } from "node:fs";
import { type Browser, expect, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { type AdminApi, createAccountWith, hydrated, test, uniqueTitle } from "./helpers";
import { png } from "./png";

// Writing a course (issue 13, points 1 to 5), at a desktop and a phone width:
// drafts and preview, course order and covers, drag-and-drop chapters,
// the chapter form in place with its guards, dialogs and notices.

const shots = "/tmp/shots-admin-writing";
const confirmDeleteChapter =
  "Are you sure you want to delete this chapter? This action cannot be undone.";
const confirmDeleteCourse =
  "Are you sure you want to delete this course? This will also delete all chapters within it. This action cannot be undone.";

async function shot(page: Page, name: string, width: number) {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
}

async function noOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** A paying member in a browser page of their own. */
async function memberPage(browser: Browser, baseURL: string, width: number) {
  const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
  await createAccountWith(context.request, { paid: true, origin: baseURL });
  return { page: await context.newPage(), close: () => context.close() };
}

/** The rows of the expanded course's chapter list, in order. */
const chapterRows = (page: Page) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: /^Move chapter up:/ }) })
    .filter({ hasNot: page.getByRole("button", { name: /^Delete course:/ }) });

/** The status region's notice. */
const notice = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();

async function withChapters(adminApi: AdminApi, titles: string[]) {
  const title = uniqueTitle("Writing course");
  const made = await adminApi.createCourseWithChapters(
    title,
    "About it",
    titles.map((t) => ({ title: t, content: `<p>${t} text.</p>` })),
  );
  return { ...made, title };
}

for (const width of [1280, 390]) {
  test.describe(`writing a course at ${width} px`, () => {
    test.beforeEach(async ({ adminPage, baseURL }) => {
      await adminPage.setViewportSize({ width, height: 900 });
      await adminPage
        .context()
        .addCookies([{ name: "cookie_consent", value: "essential", url: baseURL as string }]);
    });

    test("a draft course and a draft chapter: hidden from members, badged and previewable for the admin", async ({
      adminPage: page,
      adminApi,
      browser,
      baseURL,
    }) => {
      // A new course with Published switched off.
      const title = uniqueTitle("Draft course");
      await page.goto("/admin/courses?form=new-course");
      const published = page.getByRole("switch", { name: "Published" });
      await hydrated(published);
      await expect(published).toBeChecked();
      await page.getByRole("textbox", { name: "Course title" }).fill(title);
      await published.click();
      await expect(published).not.toBeChecked();
      await expect(page.getByText("Draft: members do not see this course")).toBeVisible();
      await page.getByRole("button", { name: "Save course" }).click();
      await expect(notice(page)).toHaveText("Course created.");
      await expect(page).toHaveURL(/\/admin\/courses\?course=[0-9a-f-]{36}$/);
      const courseId = new URL(page.url()).searchParams.get("course") ?? "";
      await expect(page.getByRole("link", { name: new RegExp(`^${title}.*Draft`) })).toBeVisible();
      await adminApi.createChapter(courseId, "Published chapter", "<p>Everyone reads this.</p>");
      await adminApi.createChapter(courseId, "Hidden chapter", "<p>Not yet.</p>");
      const [, hiddenId] = await adminApi.chapterIds(courseId);

      // The second chapter becomes a draft through its form.
      await page.goto(`/admin/courses?course=${courseId}`);
      await page.getByRole("link", { name: "Edit chapter: Hidden chapter" }).click();
      const chapterSwitch = page.getByRole("switch", { name: "Published" });
      await hydrated(chapterSwitch);
      await expect(page.getByRole("textbox", { name: "Content" })).toBeVisible();
      await chapterSwitch.click();
      await page.getByRole("button", { name: "Save chapter" }).click();
      await expect(notice(page)).toHaveText("Chapter updated successfully!");
      await expect(chapterRows(page).filter({ hasText: "Hidden chapter" })).toContainText("Draft");
      await expect(chapterRows(page).filter({ hasText: "Published chapter" })).not.toContainText(
        "Draft",
      );
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "drafts-admin", width);

      // A member: not on the dashboard, and the address leads back to it.
      const member = await memberPage(browser, baseURL as string, width);
      await member.page.goto("/dashboard");
      await expect(member.page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(member.page.getByText(title)).toHaveCount(0);
      await member.page.goto(`/course/${courseId}`);
      await expect(member.page).toHaveURL(/\/dashboard\?notice=course-not-found$/);
      await expect(member.page.getByText("Course not found")).toBeVisible();

      // The admin's preview shows the course as a member will see it, with what is still a draft.
      await page.getByRole("link", { name: `Preview as member: ${title}` }).click();
      await expect(page).toHaveURL(new RegExp(`/course/${courseId}\\?chapter=`));
      await expect(page.getByText("This course is a draft: members do not see it")).toBeVisible();
      await expect(
        page.getByRole("heading", { level: 2, name: "Published chapter" }),
      ).toBeVisible();
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "drafts-preview", width);

      // Published course, draft chapter: members see the course without that chapter.
      await page.goto(`/admin/courses?course=${courseId}&form=edit-course`);
      const courseSwitch = page.getByRole("switch", { name: "Published" });
      await hydrated(courseSwitch);
      await courseSwitch.click();
      await page.getByRole("button", { name: "Save course" }).click();
      await expect(notice(page)).toHaveText("Course updated.");
      await member.page.goto("/dashboard");
      await expect(member.page.getByRole("link", { name: new RegExp(title) })).toBeVisible();
      await member.page.goto(`/course/${courseId}?chapter=${hiddenId}`);
      await expect(
        member.page.getByRole("heading", { level: 2, name: "Published chapter" }),
      ).toBeVisible();
      await expect(member.page.getByText("Hidden chapter")).toHaveCount(0);
      await expect(member.page.getByText("Preview")).toHaveCount(0);
      await member.close();

      await page.getByRole("link", { name: "Preview as member: Hidden chapter" }).click();
      await expect(page.getByText("This chapter is a draft: members do not see it")).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: "Hidden chapter" })).toBeVisible();
    });

    test("courses are ordered by the admin and carry a described cover", async ({
      adminPage: page,
      adminApi,
    }) => {
      const firstTitle = uniqueTitle("Ordered first");
      await adminApi.createCourse(firstTitle);
      const secondTitle = uniqueTitle("Ordered second");
      const second = await adminApi.createCourse(secondTitle);
      const first = firstTitle;
      await page.goto(`/admin/courses?course=${second}&form=edit-course`);
      const save = page.getByRole("button", { name: "Save course" });
      const upload = page.getByLabel("Upload a cover");
      await hydrated(upload);
      await upload.setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png(64, 36) });
      const alt = page.getByRole("textbox", { name: "Cover description (alt text)" });
      await expect(alt).toBeVisible();
      // A cover without a description cannot be saved.
      await expect(save).toBeDisabled();
      await expect(
        page.getByText("Please describe the cover image for people who cannot see it"),
      ).toBeVisible();
      await alt.fill("A blue gradient");
      await expect(save).toBeEnabled();
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "course-cover-form", width);
      await save.click();
      await expect(notice(page)).toHaveText("Course updated.");

      // The order: the second course moves above the first, in the admin list and for members.
      const moveUp = page.getByRole("button", { name: `Move course up: ${secondTitle}` });
      await hydrated(moveUp);
      // The courses' titles in the list's order, read from their move buttons.
      const ids = async () =>
        (await page
          .getByRole("button", { name: /^Move course up:/ })
          .evaluateAll((buttons) =>
            buttons.map((b) => b.getAttribute("aria-label")?.replace("Move course up: ", "")),
          )) as string[];
      const before = await ids();
      expect(before.indexOf(first)).toBe(before.indexOf(secondTitle) - 1);
      await moveUp.click();
      await expect(notice(page)).toHaveText("Course moved.");
      await expect
        .poll(async () => {
          const now = await ids();
          return now.indexOf(secondTitle) - before.indexOf(secondTitle);
        })
        .toBe(-1);
      await expect(page.getByRole("button", { name: /^Move course up:/ }).first()).toBeDisabled();
      await expect(page.getByRole("button", { name: /^Move course down:/ }).last()).toBeDisabled();
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "course-order", width);
    });

    test("a course whose save fails keeps its edits, still guarded against leaving", async ({
      adminPage: page,
      adminApi,
    }) => {
      const title = uniqueTitle("Deleted meanwhile");
      const courseId = await adminApi.createCourse(title);
      await page.goto(`/admin/courses?course=${courseId}&form=edit-course`);
      const titleBox = page.getByRole("textbox", { name: "Course title" });
      await hydrated(titleBox);
      await titleBox.fill(`${title} renamed`);
      // Another admin deletes the course while this one edits it.
      const deleted = await adminApi.post({ intent: "delete-course", courseId });
      expect(deleted.status()).toBe(302);
      await page.getByRole("button", { name: "Save course" }).click();
      await expect(page.getByText("Error saving course: Course not found")).toBeVisible();
      await expect(titleBox).toHaveValue(`${title} renamed`);
      await page.getByRole("link", { name: "Cancel" }).click();
      await expect(page.getByRole("dialog", { name: "Leave this form?" })).toBeVisible();
    });

    test("chapters reorder by dragging and by keyboard; up and down stay, disabled at the ends", async ({
      adminPage: page,
      adminApi,
    }) => {
      const { courseId } = await withChapters(adminApi, ["Alpha", "Bravo", "Charlie"]);
      await page.goto(`/admin/courses?course=${courseId}`);
      const rows = chapterRows(page);
      await expect(rows).toHaveText([/Alpha/, /Bravo/, /Charlie/]);
      await expect(page.getByRole("button", { name: "Move chapter up: Alpha" })).toBeDisabled();
      await expect(page.getByRole("button", { name: "Move chapter down: Charlie" })).toBeDisabled();

      // Drag Charlie above Alpha with the pointer.
      const handle = page.getByRole("button", { name: "Drag to reorder: Charlie" });
      await hydrated(handle);
      await handle.scrollIntoViewIfNeeded();
      const from = await handle.boundingBox();
      const target = await rows.first().boundingBox();
      if (!from || !target) throw new Error("no boxes");
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2, target.y + 4, { steps: 8 });
      await page.mouse.up();
      await expect(notice(page)).toHaveText("Chapter moved.");
      await page.reload();
      await expect(rows).toHaveText([/Charlie/, /Alpha/, /Bravo/]);

      // The keyboard: Space picks Alpha up, the down arrow moves it, Space drops it.
      const alpha = page.getByRole("button", { name: "Drag to reorder: Alpha" });
      await hydrated(alpha);
      await alpha.focus();
      await page.keyboard.press("Space");
      await expect(alpha).toHaveAttribute("aria-pressed", "true");
      await page.keyboard.press("ArrowDown");
      await expect(rows).toHaveText([/Charlie/, /Bravo/, /Alpha/]);
      await expect(alpha).toBeFocused();
      await page.keyboard.press("Space");
      await expect(notice(page)).toHaveText("Chapter moved.");
      await page.reload();
      await expect(rows).toHaveText([/Charlie/, /Bravo/, /Alpha/]);

      // Escape puts a picked-up chapter back, and nothing is saved.
      const bravo = page.getByRole("button", { name: "Drag to reorder: Bravo" });
      await hydrated(bravo);
      await bravo.focus();
      await page.keyboard.press("Space");
      await page.keyboard.press("ArrowUp");
      await expect(rows).toHaveText([/Bravo/, /Charlie/, /Alpha/]);
      await page.keyboard.press("Escape");
      await expect(rows).toHaveText([/Charlie/, /Bravo/, /Alpha/]);
      await page.reload();
      await expect(rows).toHaveText([/Charlie/, /Bravo/, /Alpha/]);
      await expect(page.getByRole("button", { name: "Move chapter up: Charlie" })).toBeDisabled();
      await expect(page.getByRole("button", { name: "Move chapter down: Alpha" })).toBeDisabled();
      await noOverflow(page);
      await shot(page, "chapter-order", width);
    });

    test("the chapter form opens in place, guards unsaved changes, asks for link addresses and keeps its toolbar in view", async ({
      adminPage: page,
      adminApi,
    }) => {
      // A long journey with three axe checks of a page holding the editor: over a minute on
      // two shared cores with PostgreSQL and the other worker running.
      test.slow();
      const long = Array.from(
        { length: 40 },
        (_, i) => `<p>Paragraph ${i + 1} of a long chapter.</p>`,
      );
      const { courseId } = await adminApi.createCourseWithChapters(uniqueTitle("Form course"), "", [
        { title: "First", content: "<p>One</p>" },
        { title: "Long", content: long.join("") },
        { title: "Last", content: "<p>Three</p>" },
      ]);
      await page.goto(`/admin/courses?course=${courseId}`);
      await page.getByRole("link", { name: "Edit chapter: Long" }).click();
      const form = page.getByRole("form", { name: "Edit chapter" });
      const editor = page.getByRole("textbox", { name: "Content" });
      await expect(editor).toContainText("Paragraph 40");
      // In place of its chapter: between the first and the last rows of the list.
      const items = page.locator("ol").filter({ has: form }).locator(":scope > li");
      await expect(items).toHaveCount(3);
      await expect(items.nth(0)).toContainText("First");
      await expect(items.nth(1)).toContainText("Edit chapter");
      await expect(items.nth(2)).toContainText("Last");

      // The toolbar's targets are large enough to tap, and it stays in view when the chapter scrolls.
      const bold = page.getByRole("button", { name: "Bold" });
      const box = await bold.boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(44);
      expect(box?.height).toBeGreaterThanOrEqual(44);
      await editor.getByText("Paragraph 35 of a long chapter.").scrollIntoViewIfNeeded();
      await expect.poll(async () => (await bold.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(60);
      expect(await bold.evaluate((b) => b.getBoundingClientRect().top)).toBeLessThan(140);
      await expect(bold).toBeInViewport();
      await shot(page, "chapter-form-scrolled", width);
      await expectNoAxeViolations(page);

      // The link button asks for an address, starting empty, and checks it.
      await editor.getByText("Paragraph 1 of a long chapter.").selectText();
      await page.getByRole("button", { name: "Insert link" }).click();
      const dialog = page.getByRole("dialog", { name: "Insert link" });
      const address = dialog.getByRole("textbox", { name: "Link address" });
      await expect(address).toBeFocused();
      await expect(address).toHaveValue("");
      await address.fill("javascript:alert(1)");
      await dialog.getByRole("button", { name: "Insert link" }).click();
      await expect(dialog.getByRole("alert")).toHaveText(
        "Enter a full address starting with http://, https://, mailto: or tel:",
      );
      await expectNoAxeViolations(page);
      await address.fill("https://example.com/guide");
      await address.press("Enter");
      await expect(dialog).toHaveCount(0);
      await expect(editor.locator('a[href="https://example.com/guide"]')).toHaveText(
        "Paragraph 1 of a long chapter.",
      );

      // Leaving with unsaved changes asks first; Escape stays on the form.
      const cancel = page.getByRole("link", { name: "Cancel" });
      await cancel.click();
      const leave = page.getByRole("dialog", { name: "Leave this form?" });
      await expect(leave).toContainText("You have unsaved changes. Leave without saving them?");
      await expect(leave.getByRole("button", { name: "Stay on the form" })).toBeFocused();
      await shot(page, "unsaved-dialog", width);
      await page.keyboard.press("Escape");
      await expect(leave).toHaveCount(0);
      await expect(form).toBeVisible();
      await expect(cancel).toBeFocused();
      await cancel.click();
      await leave.getByRole("button", { name: "Leave without saving" }).click();
      await expect(form).toHaveCount(0);
      await expect(page).toHaveURL(`/admin/courses?course=${courseId}`);

      // Saved, the link is kept; a form without changes leaves without asking.
      await page.getByRole("link", { name: "Edit chapter: First" }).click();
      await expect(page.getByRole("textbox", { name: "Content" })).toContainText("One");
      await page.getByRole("link", { name: "Cancel" }).click();
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(page).toHaveURL(`/admin/courses?course=${courseId}`);
      await expectNoAxeViolations(page);
    });

    test("deleting asks in an in-page dialog and every action says what happened", async ({
      adminPage: page,
      adminApi,
    }) => {
      const { courseId, title } = await withChapters(adminApi, ["Keep", "Remove"]);
      await page.goto(`/admin/courses?course=${courseId}`);

      // A new chapter.
      // Clicked before hydration, the link may do nothing (React replays no click on it).
      const addChapter = page.getByRole("link", { name: "Add chapter", exact: true });
      await hydrated(addChapter);
      await addChapter.click();
      await page.getByRole("textbox", { name: "Chapter title" }).fill("Added");
      await expect(page.getByRole("textbox", { name: "Content" })).toBeVisible();
      await page.getByRole("button", { name: "Save chapter" }).click();
      await expect(notice(page)).toHaveText("New chapter created successfully!");

      // Up and down say so too.
      const down = page.getByRole("button", { name: "Move chapter down: Keep" });
      await hydrated(down);
      await down.click();
      await expect(notice(page)).toHaveText("Chapter moved.");

      // Delete: the spec's question; focus on Cancel; Escape cancels and focus goes back.
      const remove = page.getByRole("button", { name: "Delete chapter: Remove" });
      await hydrated(remove);
      await remove.click();
      const dialog = page.getByRole("dialog", { name: "Delete chapter?" });
      await expect(dialog).toContainText(confirmDeleteChapter);
      await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
      await expectNoAxeViolations(page);
      await shot(page, "delete-dialog", width);
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
      await expect(remove).toBeFocused();
      await expect(chapterRows(page)).toHaveCount(3);
      await remove.click();
      await dialog.getByRole("button", { name: "Delete chapter" }).click();
      await expect(notice(page)).toHaveText("Chapter deleted.");
      // The button is gone with its row: focus goes to the page's heading, above the notice.
      await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeFocused();
      await expect(chapterRows(page)).toHaveText([/Keep|Added/, /Keep|Added/]);

      // The course: the spec's question, then gone, and the page says so.
      const courseButton = page.getByRole("button", { name: `Delete course: ${title}` });
      await courseButton.click();
      const courseDialog = page.getByRole("dialog", { name: "Delete course?" });
      await expect(courseDialog).toContainText(confirmDeleteCourse);
      await courseDialog.getByRole("button", { name: "Delete course" }).click();
      await expect(notice(page)).toHaveText("Course deleted.");
      await expect(page).toHaveURL(/\/admin\/courses$/);
      await noOverflow(page);
      await shot(page, "deleted-notice", width);
    });
  });
}
