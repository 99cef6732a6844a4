import { expect, type Page } from "@playwright/test";
import { hydrated, test, uniqueTitle } from "./helpers";
import { png } from "./png";

const confirmDeleteCourse =
  "Are you sure you want to delete this course? This will also delete all chapters within it. This action cannot be undone.";
const confirmDeleteChapter =
  "Are you sure you want to delete this chapter? This action cannot be undone.";

/** The link that expands or collapses a course: its name starts with the title. */
const courseToggle = (page: Page, title: string) =>
  page.getByRole("link", { name: new RegExp(`^${title} \\(\\d+ chapters?\\)`) });

/** The rows of the expanded course's chapter list, in order. */
const chapterRows = (page: Page) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: /^Move chapter up:/ }) })
    .filter({ hasNot: page.getByRole("button", { name: /^Delete course:/ }) });

/** The in-page confirmation dialog of a delete. */
const confirmDialog = (page: Page, name: "Delete course?" | "Delete chapter?") =>
  page.getByRole("dialog", { name });

/** Clicks Delete on a course or chapter (once hydrated); the dialog it opens asks the spec's question. */
async function clickDelete(page: Page, kind: "course" | "chapter", title: string) {
  const remove = page.getByRole("button", { name: `Delete ${kind}: ${title}` });
  await hydrated(remove);
  await remove.click();
  const dialog = confirmDialog(page, `Delete ${kind}?`);
  await expect(dialog).toContainText(
    kind === "course" ? confirmDeleteCourse : confirmDeleteChapter,
  );
  return { remove, dialog };
}

test.describe("admin panel: courses and chapters", () => {
  test("an admin creates, edits, collapses and deletes a course", async ({ adminPage: page }) => {
    const title = uniqueTitle("Admin course");

    await page.goto("/admin/courses");
    await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
    await page.getByRole("link", { name: "New course", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/courses\?form=new-course$/);
    const titleBox = page.getByRole("textbox", { name: "Course title" });
    const save = page.getByRole("button", { name: "Save course" });
    await hydrated(titleBox);
    await expect(save).toBeDisabled();
    await titleBox.fill("   ");
    await expect(save).toBeDisabled();
    await titleBox.fill(title);
    await expect(save).toBeEnabled();
    await page.getByRole("textbox", { name: "Description" }).fill("The first description.");
    await save.click();

    // Created: expanded, with no chapters yet.
    await expect(page).toHaveURL(/\/admin\/courses\?course=[0-9a-f-]{36}$/);
    const courseId = new URL(page.url()).searchParams.get("course");
    const toggle = courseToggle(page, title);
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(toggle).toContainText("The first description.");
    await expect(
      page.getByText("No chapters yet. Add your first chapter to get started."),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: "Add chapter", exact: true })).toBeVisible();

    // Collapse and expand again.
    await toggle.click();
    await expect(page).toHaveURL(/\/admin\/courses$/);
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("link", { name: "Add chapter", exact: true })).toHaveCount(0);
    await toggle.click();
    await expect(page).toHaveURL(`/admin/courses?course=${courseId}`);
    await expect(toggle).toHaveAttribute("aria-expanded", "true");

    // Edit: the form starts with the current values; Save is disabled while the title is empty.
    const renamed = uniqueTitle("Renamed course");
    await page.getByRole("link", { name: `Edit course: ${title}` }).click();
    await expect(page.getByRole("heading", { name: "Edit course" })).toBeVisible();
    await expect(titleBox).toHaveValue(title);
    await expect(page.getByRole("textbox", { name: "Description" })).toHaveValue(
      "The first description.",
    );
    await hydrated(titleBox);
    await titleBox.fill("");
    await expect(save).toBeDisabled();
    await titleBox.fill(renamed);
    await page.getByRole("textbox", { name: "Description" }).fill("The second description.");
    await save.click();
    await expect(page).toHaveURL(`/admin/courses?course=${courseId}`);
    await expect(page.getByRole("heading", { name: "Edit course" })).toHaveCount(0);
    await expect(courseToggle(page, renamed)).toContainText("The second description.");
    await expect(courseToggle(page, title)).toHaveCount(0);

    // Delete asks first; cancelling keeps the course, confirming removes it and collapses.
    const { remove, dialog } = await clickDelete(page, "course", renamed);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(courseToggle(page, renamed)).toBeVisible();
    await remove.click();
    await dialog.getByRole("button", { name: "Delete course" }).click();
    await expect(page).toHaveURL(/\/admin\/courses$/);
    await expect(courseToggle(page, renamed)).toHaveCount(0);
    await expect(page.getByRole("status")).toHaveText("Course deleted.");
    await expect(page.getByRole("link", { name: "Add chapter", exact: true })).toHaveCount(0);
  });

  test("an admin writes a chapter in the editor, edits, reorders and deletes chapters", async ({
    adminPage: page,
    adminApi,
  }) => {
    const courseTitle = uniqueTitle("Chapters course");
    const courseId = await adminApi.createCourse(courseTitle, "");

    await page.goto(`/admin/courses?course=${courseId}`);
    await expect(
      page.getByText("No chapters yet. Add your first chapter to get started."),
    ).toBeVisible();
    // Clicked before hydration, the link may do nothing (React replays no click on it).
    const addChapter = page.getByRole("link", { name: "Add chapter", exact: true });
    await hydrated(addChapter);
    await addChapter.click();
    await expect(page.getByRole("heading", { name: "New chapter" })).toBeVisible();
    const titleBox = page.getByRole("textbox", { name: "Chapter title" });
    const editor = page.getByRole("textbox", { name: "Content" });
    const save = page.getByRole("button", { name: "Save chapter" });
    await expect(editor).toBeVisible();
    await expect(save).toBeDisabled();
    const first = uniqueTitle("Chapter one");
    await titleBox.fill(first);
    await expect(save).toBeEnabled();

    // Text, bold, and a YouTube video through the toolbar's video button and Quill's tooltip.
    await editor.click();
    await page.keyboard.type("Plain words, then ");
    const bold = page.getByRole("button", { name: "Bold" });
    await bold.click();
    await page.keyboard.type("bold words");
    await bold.click();
    await page.keyboard.type(".");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Insert video" }).click();
    const videoUrl = page.getByPlaceholder("Embed URL");
    await expect(videoUrl).toBeVisible();
    await videoUrl.fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    await videoUrl.press("Enter");
    await expect(editor.locator("strong")).toHaveText("bold words");
    await expect(editor.locator("iframe")).toHaveAttribute(
      "src",
      /^https:\/\/www\.youtube\.com\/embed\/dQw4w9WgXcQ/,
    );
    await save.click();
    await expect(page.getByText("New chapter created successfully!")).toBeVisible();
    await expect(page).toHaveURL(`/admin/courses?course=${courseId}`);
    await expect(chapterRows(page)).toHaveText([new RegExp(first)]);
    await expect(page.getByRole("heading", { name: "New chapter" })).toHaveCount(0);

    // Edit: title and content are loaded; the change is saved.
    const renamed = uniqueTitle("Chapter one, renamed");
    await page.getByRole("link", { name: `Edit chapter: ${first}` }).click();
    await expect(page.getByRole("heading", { name: "Edit chapter" })).toBeVisible();
    await expect(titleBox).toHaveValue(first);
    await expect(editor.locator("strong")).toHaveText("bold words");
    await titleBox.fill(renamed);
    await editor.locator("p").first().click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Edited.");
    await save.click();
    await expect(page.getByText("Chapter updated successfully!")).toBeVisible();
    await expect(chapterRows(page)).toHaveText([new RegExp(renamed)]);

    // What a member reads: the bold text and the standard embed frame.
    await page.goto(`/course/${courseId}`);
    await expect(page.getByRole("heading", { level: 2, name: renamed })).toBeVisible();
    const content = page.locator(".chapter-content");
    await expect(content.locator("strong")).toHaveText("bold words");
    await expect(content).toContainText("Plain words, then bold words. Edited.");
    // Ordinary spaces, so that the text wraps (Quill's getSemanticHTML writes &nbsp; for each).
    expect(await content.innerHTML()).not.toContain("&nbsp;");
    const frame = content.locator("iframe");
    await expect(frame).toHaveAttribute("src", "https://www.youtube.com/embed/dQw4w9WgXcQ");
    await expect(frame).toHaveAttribute("width", "560");
    await expect(frame).toHaveAttribute("height", "315");

    // Reorder: the first cannot go up, the last cannot go down; moves swap neighbours.
    const second = uniqueTitle("Chapter two");
    const third = uniqueTitle("Chapter three");
    await adminApi.createChapter(courseId, second, "<p>Two</p>");
    await adminApi.createChapter(courseId, third, "<p>Three</p>");
    await page.goto(`/admin/courses?course=${courseId}`);
    const rows = chapterRows(page);
    const up = (t: string) => page.getByRole("button", { name: `Move chapter up: ${t}` });
    const down = (t: string) => page.getByRole("button", { name: `Move chapter down: ${t}` });
    await expect(rows).toHaveText([renamed, second, third].map((t) => new RegExp(t)));
    await expect(up(renamed)).toBeDisabled();
    await expect(down(renamed)).toBeEnabled();
    await expect(up(third)).toBeEnabled();
    await expect(down(third)).toBeDisabled();
    await hydrated(down(renamed));
    await down(renamed).click();
    await expect(rows).toHaveText([second, renamed, third].map((t) => new RegExp(t)));
    await expect(up(second)).toBeDisabled();
    await expect(up(renamed)).toBeEnabled();
    await up(third).click();
    await expect(rows).toHaveText([second, third, renamed].map((t) => new RegExp(t)));
    await expect(down(renamed)).toBeDisabled();
    await expect(down(third)).toBeEnabled();

    // Members see the new order.
    await page.goto(`/course/${courseId}`);
    await expect(
      page
        .getByRole("complementary", { name: "Course chapters" })
        .getByRole("navigation")
        .getByRole("link"),
    ).toContainText([second, third, renamed]);

    // Delete chapters, confirming each; the last one leaves the empty state.
    await page.goto(`/admin/courses?course=${courseId}`);
    for (const [i, t] of [third, second, renamed].entries()) {
      const { dialog } = await clickDelete(page, "chapter", t);
      await dialog.getByRole("button", { name: "Delete chapter" }).click();
      await expect(page.getByRole("button", { name: `Delete chapter: ${t}` })).toHaveCount(0);
      await expect(rows).toHaveCount(2 - i);
    }
    await expect(
      page.getByText("No chapters yet. Add your first chapter to get started."),
    ).toBeVisible();
  });

  test("an image picked in the editor is uploaded and saved as an /uploads/ address", async ({
    adminPage: page,
    adminApi,
  }) => {
    const courseId = await adminApi.createCourse(uniqueTitle("Images course"), "");
    await page.goto(`/admin/courses?course=${courseId}`);
    // Clicked before hydration, the link may do nothing (React replays no click on it).
    const addChapter = page.getByRole("link", { name: "Add chapter", exact: true });
    await hydrated(addChapter);
    await addChapter.click();
    const editor = page.getByRole("textbox", { name: "Content" });
    await expect(editor).toBeVisible();
    const title = uniqueTitle("Chapter with an image");
    await page.getByRole("textbox", { name: "Chapter title" }).fill(title);
    await editor.click();
    await page.keyboard.type("The picture:");

    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Insert image" }).click();
    await (await chooser).setFiles({
      name: "gradient.png",
      mimeType: "image/png",
      buffer: png(48, 32),
    });
    const inserted = editor.locator("img");
    await expect(inserted).toHaveAttribute("src", /^\/uploads\/[0-9a-f-]{36}\.png$/);
    await page.getByRole("button", { name: "Save chapter" }).click();
    await expect(page.getByText("New chapter created successfully!")).toBeVisible();

    // The saved chapter references the upload, not inline data, and the image loads.
    await page.goto(`/course/${courseId}`);
    await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
    const saved = page.locator(".chapter-content img");
    await expect(saved).toHaveCount(1);
    await expect(saved).toHaveAttribute("src", /^\/uploads\/[0-9a-f-]{36}\.png$/);
    await expect
      .poll(() => saved.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(48);
    const html = await page.locator(".chapter-content").innerHTML();
    expect(html).not.toContain("data:");
  });
});
