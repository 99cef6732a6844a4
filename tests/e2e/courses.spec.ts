import { expect, type Page, type Response } from "@playwright/test";
import { createAccount, hydrated, test, uniqueTitle } from "./helpers";

const youtubeEmbed = "https://www.youtube.com/embed/dQw4w9WgXcQ";

/** The course viewer's sidebar. */
const sidebarOf = (page: Page) => page.getByRole("complementary", { name: "Course chapters" });

test.describe("course viewer", () => {
  test("dashboard card, sidebar, chapter in the URL, back button, completion and resume", async ({
    page,
    adminApi,
  }) => {
    const title = uniqueTitle("Course");
    const description = `What you learn in ${title}`;
    const chapters = [
      {
        title: uniqueTitle("Intro"),
        content:
          "<p>Welcome to <strong>the course</strong>.</p><ol><li>Pick an idea</li><li>Build it</li></ol>",
      },
      {
        title: uniqueTitle("Video"),
        content: `<p>Watch this first.</p><iframe class="ql-video" frameborder="0" allowfullscreen="true" src="${youtubeEmbed}?showinfo=0"></iframe>`,
      },
      { title: uniqueTitle("Empty"), content: "" },
    ];
    const { courseId, chapterIds } = await adminApi.createCourseWithChapters(
      title,
      description,
      chapters,
    );
    const [first, second, third] = chapters as [
      (typeof chapters)[0],
      (typeof chapters)[0],
      (typeof chapters)[0],
    ];
    const chapterUrl = (i: number) => new RegExp(`/course/${courseId}\\?chapter=${chapterIds[i]}$`);

    await createAccount(page, { paid: true });
    await page.goto("/dashboard");
    const card = page.getByRole("link", { name: title, exact: true });
    await expect(card).toHaveAttribute("href", `/course/${courseId}`);
    const cardItem = page.getByRole("listitem").filter({ has: card });
    await expect(cardItem).toContainText(description);
    await expect(cardItem).toContainText("0 / 3 chapters");
    const progress = page.getByRole("progressbar", { name: `${title} progress` });
    await expect(progress).toHaveAttribute("aria-valuenow", "0");
    await expect(progress).toHaveAttribute("aria-valuemax", "3");

    // The first chapter is selected by default, and the URL says so.
    await hydrated(card);
    await card.click();
    await expect(page).toHaveURL(chapterUrl(0));
    const sidebar = sidebarOf(page);
    await expect(sidebar.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(sidebar.getByText(description)).toBeVisible();
    const chapterLinks = sidebar.getByRole("navigation").getByRole("link");
    await expect(chapterLinks).toHaveCount(3);
    await expect(chapterLinks).toContainText(chapters.map((c) => c.title));
    await expect(sidebar.getByRole("link", { name: first.title })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByRole("heading", { level: 2, name: first.title })).toBeVisible();
    await expect(page.getByRole("main").getByRole("listitem")).toHaveText([
      "Pick an idea",
      "Build it",
    ]);
    await expect(sidebar).toContainText("0 of 3 chapters done");

    // Another chapter: in the URL, kept by a reload, undone by the back button.
    const secondLink = sidebar.getByRole("link", { name: second.title });
    await hydrated(secondLink);
    await secondLink.click();
    await expect(page).toHaveURL(chapterUrl(1));
    await expect(page.getByRole("heading", { level: 2, name: second.title })).toBeVisible();
    await expect(secondLink).toHaveAttribute("aria-current", "page");
    const video = page.getByRole("main").locator("iframe");
    await expect(video).toHaveAttribute("src", youtubeEmbed);
    await expect(video).toHaveAttribute("width", "560");
    await expect(video).toHaveAttribute("height", "315");

    await page.reload();
    await expect(page).toHaveURL(chapterUrl(1));
    await expect(page.getByRole("heading", { level: 2, name: second.title })).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(chapterUrl(0));
    await expect(page.getByRole("heading", { level: 2, name: first.title })).toBeVisible();
    await page.goForward();
    await expect(page).toHaveURL(chapterUrl(1));
    await expect(page.getByRole("heading", { level: 2, name: second.title })).toBeVisible();

    // Mark as complete moves on to the next chapter, the sidebar shows it, and it is kept.
    const mark = page.getByRole("button", { name: "Mark as complete" });
    const undo = page.getByRole("button", { name: /Completed \(undo\)/ });
    await hydrated(mark);
    await mark.click();
    await expect(page).toHaveURL(chapterUrl(2));
    await expect(sidebar.getByRole("link", { name: `${second.title} (completed)` })).toBeVisible();
    await expect(sidebar).toContainText("1 of 3 chapters done");
    await sidebar.getByRole("link", { name: second.title }).click();
    await expect(page).toHaveURL(chapterUrl(1));
    await expect(undo).toHaveAttribute("aria-pressed", "true");
    await page.reload();
    await expect(undo).toBeVisible();
    await expect(sidebar.getByRole("link", { name: `${second.title} (completed)` })).toBeVisible();
    await hydrated(undo);
    await undo.click();
    await expect(mark).toHaveAttribute("aria-pressed", "false");
    await expect(sidebar.getByRole("link", { name: /\(completed\)/ })).toHaveCount(0);
    await expect(sidebar).toContainText("0 of 3 chapters done");
    await mark.click();
    await expect(sidebar).toContainText("1 of 3 chapters done");

    // An empty chapter (where marking the one before led).
    await expect(page).toHaveURL(chapterUrl(2));
    await expect(page.getByRole("heading", { level: 2, name: third.title })).toBeVisible();
    await expect(page.getByText("No content available for this chapter yet.")).toBeVisible();

    // The dashboard shows the progress; reopening the course resumes at the last chapter viewed.
    await sidebar.getByRole("link", { name: "All courses" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(progress).toHaveAttribute("aria-valuenow", "1");
    await expect(cardItem).toContainText("1 / 3 chapters");
    await card.click();
    await expect(page).toHaveURL(chapterUrl(2));
    await expect(page.getByRole("heading", { level: 2, name: third.title })).toBeVisible();

    // The same on a fresh load, and an unknown chapter id falls back the same way.
    await page.goto(`/course/${courseId}`);
    await expect(page).toHaveURL(chapterUrl(2));
    await page.goto(`/course/${courseId}?chapter=${crypto.randomUUID()}`);
    await expect(page).toHaveURL(chapterUrl(2));
    await expect(page.getByRole("heading", { level: 2, name: third.title })).toBeVisible();
  });

  test("a course without chapters says so; unknown and malformed ids go to /dashboard", async ({
    page,
    adminApi,
  }) => {
    const title = uniqueTitle("Empty course");
    const courseId = await adminApi.createCourse(title, "Chapters are on their way.");
    await createAccount(page, { paid: true });
    await page.goto("/dashboard");
    const card = page.getByRole("link", { name: title, exact: true });
    await expect(card).toBeVisible();
    await expect(page.getByRole("progressbar", { name: `${title} progress` })).toHaveCount(0);
    await card.click();
    await expect(page).toHaveURL(new RegExp(`/course/${courseId}$`));
    await expect(sidebarOf(page).getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("No content available yet. Check back soon!")).toBeVisible();
    await expect(page.getByRole("button", { name: "Mark as complete" })).toHaveCount(0);

    for (const bad of [crypto.randomUUID(), "not-a-uuid", `${courseId}0`, "%00'--"]) {
      await page.goto(`/course/${bad}`);
      await expect(page, `/course/${bad}`).toHaveURL(/\/dashboard\?notice=course-not-found$/);
      await expect(page.getByRole("heading", { name: "Training Area" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveText("Course not found");
    }
  });

  test("script in a chapter never runs for a member; a YouTube link becomes the 560x315 embed", async ({
    page,
    adminPage,
    adminApi,
    baseURL,
  }) => {
    const payload = [
      "<p>Before the payloads.</p>",
      `<img src=x onerror="window.__xss=1">`,
      `<p><a href="javascript:window.__xss=1">x</a></p>`,
      "<svg onload=window.__xss=1></svg>",
      "<script>window.__xss=1</script>",
      `<iframe src="javascript:window.__xss=1"></iframe>`,
      `<p onclick="window.__xss=1" style="background:url(javascript:window.__xss=1)">After the payloads.</p>`,
      `<iframe src="https://www.youtube.com/watch?v=dQw4w9WgXcQ"></iframe>`,
    ].join("");
    const title = uniqueTitle("Safety course");
    const courseId = await adminApi.createCourse(title, "");
    const created = uniqueTitle("Created with script");
    const updated = uniqueTitle("Updated with script");

    // Straight to the admin action, as a script-savvy admin (or a stolen session) would.
    const post = (form: Record<string, string>) =>
      adminPage.request.post("/admin/courses", { form, headers: { Origin: baseURL as string } });
    const create = await post({
      intent: "create-chapter",
      courseId,
      title: created,
      content: payload,
    });
    expect(create.status()).toBe(200);
    const plain = await post({
      intent: "create-chapter",
      courseId,
      title: updated,
      content: "<p>Plain</p>",
    });
    expect(plain.status()).toBe(200);
    const [, updatedId] = await adminApi.chapterIds(courseId);
    const update = await post({
      intent: "update-chapter",
      courseId,
      chapterId: updatedId as string,
      title: updated,
      content: payload,
    });
    expect(update.status()).toBe(200);

    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await createAccount(page, { paid: true });
    await page.goto(`/course/${courseId}`);
    for (const chapterTitle of [created, updated]) {
      const link = sidebarOf(page).getByRole("link", { name: chapterTitle });
      await hydrated(link);
      await link.click();
      await expect(page.getByRole("heading", { level: 2, name: chapterTitle })).toBeVisible();
      const content = page.locator(".chapter-content");
      await expect(content).toContainText("Before the payloads.");
      await expect(content).toContainText("After the payloads.");
      // The javascript: link lost its address: clicking it (and the handler-carrying paragraph) runs nothing.
      const x = content.locator("a", { hasText: "x" });
      await x.click();
      await content.getByText("After the payloads.").click();
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
      await expect(x).not.toHaveAttribute("href", /./);
      await expect(
        content.locator("script, svg, img, [onerror], [onclick], [onload], [style]"),
      ).toHaveCount(0);
      // Only the YouTube frame is left, rewritten to the standard embed (it does not load: no network).
      const iframe = content.locator("iframe");
      await expect(iframe).toHaveCount(1);
      await expect(iframe).toHaveAttribute("src", youtubeEmbed);
      await expect(iframe).toHaveAttribute("width", "560");
      await expect(iframe).toHaveAttribute("height", "315");
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    }
    expect(dialogs).toEqual([]);
  });

  test("Quill's editor code is loaded on the admin page only", async ({
    page,
    adminPage,
    adminApi,
  }) => {
    const title = uniqueTitle("Bundle course");
    const { courseId } = await adminApi.createCourseWithChapters(title, "", [
      { title: uniqueTitle("Chapter"), content: "<p>Some text</p>" },
    ]);

    /** Every JavaScript response of the page: its address and body. */
    const scriptsOf = (p: Page) => {
      const bodies: Promise<{ url: string; body: string }>[] = [];
      p.on("response", (response: Response) => {
        const type = response.headers()["content-type"] ?? "";
        if (type.includes("javascript")) {
          const url = response.url();
          // A body the browser has already dropped (after a navigation) is fetched again: the
          // assets are content-hashed, so the bytes are the same.
          bodies.push(
            response
              .text()
              .catch(() => p.request.get(url).then((r) => r.text()))
              .then((body) => ({ url, body })),
          );
        }
      });
      return async () => Promise.all(bodies);
    };

    const memberScripts = scriptsOf(page);
    await createAccount(page, { paid: true });
    await page.goto("/");
    await page.goto("/dashboard");
    const card = page.getByRole("link", { name: title, exact: true });
    await hydrated(card);
    await card.hover();
    await card.click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await page.goto(`/course/${courseId}`);
    await page.waitForLoadState("networkidle");
    const member = await memberScripts();
    expect(member.length).toBeGreaterThan(0);
    expect(member.filter((s) => s.body.includes("ql-editor")).map((s) => s.url)).toEqual([]);

    const adminScripts = scriptsOf(adminPage);
    await adminPage.goto(`/admin/courses?course=${courseId}`);
    // Clicked before hydration, the link may do nothing (React replays no click on it).
    const addChapter = adminPage.getByRole("link", { name: "Add chapter", exact: true });
    await hydrated(addChapter);
    await addChapter.click();
    await expect(adminPage.getByRole("textbox", { name: "Content" })).toBeVisible();
    const admin = await adminScripts();
    expect(admin.some((s) => s.body.includes("ql-editor"))).toBe(true);
  });
});
