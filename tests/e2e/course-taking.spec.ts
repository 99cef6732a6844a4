import { expect, type Page, type TestInfo } from "@playwright/test";
import pg from "pg";
import { expectNoAxeViolations } from "./axe";
import { type AdminApi, createAccount, hydrated, test, uniqueTitle } from "./helpers";

// Taking a course (issue 13, points 6-8): the dashboard's cards, the course page's progress,
// Previous / Next and Mark as complete, and the phone layout. Each at desktop and phone width.

const widths = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

/** One statement on the server's database: PostgreSQL, or the embedded one through its socket. */
async function sql(text: string, values: unknown[]): Promise<void> {
  const client = process.env.DATABASE_URL
    ? new pg.Client({ connectionString: process.env.DATABASE_URL })
    : new pg.Client({ host: process.env.E2E_DATA_DIR, port: 5432, user: "postgres" });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** A full-page screenshot kept with the test's results, to be looked at. */
async function shoot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/**
 * A paying member on the last chapter of a new course of two, the page hydrated:
 * what a test of "Mark as complete" starts from.
 */
async function onLastOfTwo(page: Page, adminApi: AdminApi, name: string) {
  const titles = [uniqueTitle(`${name} one`), uniqueTitle(`${name} two`)] as const;
  const { courseId, chapterIds } = await adminApi.createCourseWithChapters(
    uniqueTitle(`${name} course`),
    "",
    titles.map((t) => ({ title: t, content: `<p>${t}</p>` })),
  );
  await createAccount(page, { paid: true });
  await page.goto(`/course/${courseId}?chapter=${chapterIds[1]}`);
  const mark = page.getByRole("button", { name: "Mark as complete" });
  await hydrated(mark);
  return { courseId, chapterIds, titles, mark };
}

/**
 * The answer to a mark past the server's capacity, as the request pipeline gives it
 * before the app sees the request (overload.server.test.ts): 503 with Retry-After.
 */
const busyAnswer = {
  status: 503,
  headers: { "Retry-After": "5", "Content-Type": "text/html; charset=utf-8" },
  body: "<!DOCTYPE html><h1>Busy, try again</h1>",
};

/** A URL pattern: the page's address ends with `path`. */
const endsWith = (path: string) => new RegExp(`${path.replace(/[?.]/g, "\\$&")}$`);

/** The dashboard card of a course: the list item holding its title. */
const cardOf = (page: Page, title: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 2, name: title }) });

const longLesson = Array.from(
  { length: 30 },
  (_, i) =>
    `<p>Paragraph ${i + 1}: read it slowly, then try it in your own app before moving on.</p>`,
).join("");

for (const { name, viewport } of widths) {
  test.describe(`taking a course on a ${name}`, () => {
    test.use({ viewport });

    test.beforeEach(async ({ context, baseURL }) => {
      // The cookie banner is another page's subject: chosen already here.
      await context.addCookies([
        { name: "cookie_consent", value: "essential", url: baseURL as string },
      ]);
    });

    test("dashboard cards: cover or its stand-in, progress, Start course, Continue, Review", async ({
      page,
      adminApi,
    }, testInfo) => {
      const covered = uniqueTitle("Covered course");
      const plain = uniqueTitle("Plain course");
      const a = await adminApi.createCourseWithChapters(covered, "A course with a cover.", [
        { title: uniqueTitle("A one"), content: "<p>One</p>" },
        { title: uniqueTitle("A two"), content: "<p>Two</p>" },
      ]);
      const b = await adminApi.createCourseWithChapters(plain, "A course without a cover.", [
        { title: uniqueTitle("B one"), content: "<p>One</p>" },
      ]);
      await sql("update course set cover_image_url = $1, cover_alt = $2 where id = $3", [
        "/og-image.png",
        "The AI Labs logo on a dark background",
        a.courseId,
      ]);
      const chapterUrl = (courseId: string, chapterId?: string) =>
        `/course/${courseId}?chapter=${chapterId}`;

      await createAccount(page, { paid: true });
      await page.goto("/dashboard");
      const cardA = cardOf(page, covered);
      const cardB = cardOf(page, plain);
      // The cover with its alt text; a course without one gets a drawn stand-in, hidden from
      // assistive technology.
      const cover = cardA.getByRole("img", { name: "The AI Labs logo on a dark background" });
      await expect(cover).toHaveAttribute("src", "/og-image.png");
      // Covers load lazily: once the card is on screen, the image has loaded.
      await cardA.scrollIntoViewIfNeeded();
      await expect
        .poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      await expect(cardB.getByRole("img")).toHaveCount(0);
      await expect(cardB.getByTestId("cover-fallback")).toBeVisible();
      // The title stays a link to the course; progress; Start course opens the first chapter.
      await expect(cardA.getByRole("link", { name: covered, exact: true })).toHaveAttribute(
        "href",
        `/course/${a.courseId}`,
      );
      await expect(cardA.getByRole("progressbar", { name: `${covered} progress` })).toHaveAttribute(
        "aria-valuenow",
        "0",
      );
      await expect(cardA).toContainText("0 / 2 chapters");
      const startA = cardA.getByRole("link", { name: "Start course", exact: true });
      await expect(startA).toHaveAttribute("href", chapterUrl(a.courseId, a.chapterIds[0]));
      await expect(startA).toHaveAccessibleDescription(covered);
      await expect(cardB.getByRole("link", { name: "Start course", exact: true })).toBeVisible();
      await expectNoAxeViolations(page);
      await cardA.scrollIntoViewIfNeeded();
      await shoot(page, testInfo, "dashboard-start");

      await hydrated(startA);
      await startA.click();
      await expect(page).toHaveURL(endsWith(chapterUrl(a.courseId, a.chapterIds[0])));
      await expect(page.getByRole("heading", { level: 2, name: "A one" })).toBeVisible();

      // Opened: Continue, at the chapter the member was on.
      await page.goto(chapterUrl(a.courseId, a.chapterIds[1]));
      await page.goto("/dashboard");
      const continueA = cardA.getByRole("link", { name: "Continue", exact: true });
      await expect(continueA).toHaveAttribute("href", chapterUrl(a.courseId, a.chapterIds[1]));
      await hydrated(continueA);
      await continueA.click();
      await expect(page).toHaveURL(endsWith(chapterUrl(a.courseId, a.chapterIds[1])));
      await expect(page.getByRole("heading", { level: 2, name: "A two" })).toBeVisible();

      // Every chapter done: Review, from the first chapter.
      for (const chapterId of a.chapterIds) {
        const res = await page.request.post(chapterUrl(a.courseId, chapterId), {
          form: { chapterId, done: "true" },
          headers: { Origin: new URL(page.url()).origin },
          maxRedirects: 0,
        });
        expect(res.status()).toBe(200);
      }
      await page.goto("/dashboard");
      await expect(cardA).toContainText("2 / 2 chapters");
      const review = cardA.getByRole("link", { name: "Review", exact: true });
      await expect(review).toHaveAttribute("href", chapterUrl(a.courseId, a.chapterIds[0]));
      await expect(cardB.getByRole("link", { name: "Start course", exact: true })).toHaveAttribute(
        "href",
        chapterUrl(b.courseId, b.chapterIds[0]),
      );
      await expectNoAxeViolations(page);
      await cardA.scrollIntoViewIfNeeded();
      await shoot(page, testInfo, "dashboard-review");
    });

    test("a mark the server cannot save says so, and the chapter stays as it was", async ({
      page,
      adminApi,
    }, testInfo) => {
      const { chapterIds, mark } = await onLastOfTwo(page, adminApi, "Withdrawn");
      // The admin makes the open chapter a draft meanwhile.
      await sql("update chapter set published = false where id = $1", [chapterIds[1]]);
      await mark.click();
      await expect(page.getByRole("alert")).toHaveText(
        "Your progress was not saved: Chapter not found",
      );
      await expect(mark).toHaveAttribute("aria-pressed", "false");
      await expectNoAxeViolations(page);
      await shoot(page, testInfo, "mark-not-saved");
    });

    test("a mark turned away busy says Busy, try again; the chapter stays as it was, and a retry saves it", async ({
      page,
      adminApi,
    }, testInfo) => {
      const { courseId, titles, mark } = await onLastOfTwo(page, adminApi, "Busy");
      // Past the server's capacity the mark's POST is turned away busy.
      let turnedAway = 0;
      await page.route(
        (url) => url.pathname === `/course/${courseId}.data`,
        async (route) => {
          if (route.request().method() !== "POST" || turnedAway > 0) return route.fallback();
          turnedAway += 1;
          await route.fulfill(busyAnswer);
        },
      );
      await mark.click();
      await expect(page.getByRole("alert")).toHaveText(
        "Your progress was not saved: Busy, try again",
      );
      await expect(mark).toHaveAttribute("aria-pressed", "false");
      await expect(page.getByRole("heading", { level: 2, name: titles[1] })).toBeVisible();
      await expectNoAxeViolations(page);
      await shoot(page, testInfo, "mark-busy");
      // Trying again goes through.
      await mark.click();
      await expect(page.getByRole("button", { name: /Completed/ })).toHaveAttribute(
        "aria-pressed",
        "true",
      );
      await expect(page.getByRole("alert")).toHaveCount(0);
      expect(turnedAway).toBe(1);
    });

    test("a mark is one request, answered with the course as it is now; a later mark turned away busy leaves it shown", async ({
      page,
      adminApi,
    }) => {
      const { courseId, mark } = await onLastOfTwo(page, adminApi, "One request");
      const sent: string[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).pathname.startsWith(`/course/${courseId}`)) sent.push(r.method());
      });
      const answered = page.waitForResponse(
        (r) => r.request().method() === "POST" && r.url().includes(`/course/${courseId}.data`),
      );
      await mark.click();
      expect((await answered).status()).toBe(200);
      const undo = page.getByRole("button", { name: "✓ Completed (undo)" });
      await expect(undo).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByRole("progressbar", { name: "Course progress" })).toHaveAttribute(
        "aria-valuenow",
        "1",
      );
      // Nothing more is asked for after the mark's answer: the page shows it as it came.
      await page.waitForTimeout(500);
      expect(sent).toEqual(["POST"]);

      // The undo is turned away busy: the mark the last answer showed stays shown.
      await page.route(
        (url) => url.pathname === `/course/${courseId}.data`,
        (route) =>
          route.request().method() === "POST" ? route.fulfill(busyAnswer) : route.fallback(),
      );
      await undo.click();
      await expect(page.getByRole("alert")).toHaveText(
        "Your progress was not saved: Busy, try again",
      );
      await expect(undo).toHaveAttribute("aria-pressed", "true");
      await page.unroute((url) => url.pathname === `/course/${courseId}.data`);
      // The mark was stored: the page read again shows it.
      await page.reload();
      await expect(undo).toHaveAttribute("aria-pressed", "true");
    });

    test("course page: progress bar, Previous and Next, Mark as complete moves on, then complete", async ({
      page,
      adminApi,
    }, testInfo) => {
      const title = uniqueTitle("Player course");
      const titles = [uniqueTitle("First"), uniqueTitle("Second"), uniqueTitle("Third")] as const;
      const { courseId, chapterIds } = await adminApi.createCourseWithChapters(
        title,
        "Three chapters, one after the other.",
        titles.map((t, i) => ({ title: t, content: i === 0 ? longLesson : `<p>${t}</p>` })),
      );
      const chapterUrl = (i: number) =>
        new RegExp(`/course/${courseId}\\?chapter=${chapterIds[i]}$`);
      const heading = (i: number) => page.getByRole("heading", { level: 2, name: titles[i] });
      const progress = page.getByRole("progressbar", { name: "Course progress" });
      const previous = page.getByRole("link", { name: /^Previous/ });
      const next = page.getByRole("link", { name: /^Next/ });
      const mark = page.getByRole("button", { name: "Mark as complete" });

      await createAccount(page, { paid: true });
      await page.goto(`/course/${courseId}`);
      await expect(page).toHaveURL(chapterUrl(0));
      await expect(heading(0)).toBeVisible();
      await expect(page.getByText("Chapter 1 of 3")).toBeVisible();
      await expect(progress).toHaveAttribute("aria-valuenow", "0");
      await expect(progress).toHaveAttribute("aria-valuemax", "3");
      await expect(progress).toHaveAttribute("aria-valuetext", "0 of 3 chapters done");
      await expect(previous).toHaveCount(0);
      await expect(next).toHaveAccessibleName(`Next: ${titles[1]}`);
      await expectNoAxeViolations(page);
      await shoot(page, testInfo, "course-first");

      // Next and Previous.
      await hydrated(next);
      await next.click();
      await expect(page).toHaveURL(chapterUrl(1));
      await expect(heading(1)).toBeVisible();
      await expect(previous).toHaveAccessibleName(`Previous: ${titles[0]}`);
      await previous.click();
      await expect(page).toHaveURL(chapterUrl(0));
      await expect(heading(0)).toBeVisible();

      // Mark as complete moves on to the next chapter, which takes the focus.
      await hydrated(mark);
      await mark.click();
      await expect(page).toHaveURL(chapterUrl(1));
      await expect(heading(1)).toBeFocused();
      await expect(progress).toHaveAttribute("aria-valuenow", "1");
      await mark.click();
      await expect(page).toHaveURL(chapterUrl(2));
      await expect(heading(2)).toBeVisible();
      await expect(progress).toHaveAttribute("aria-valuenow", "2");
      await expect(next).toHaveCount(0);
      await expect(page.getByText("Course complete!")).toHaveCount(0);

      // The last one: the course is complete, said where the member is.
      await mark.click();
      await expect(page.getByRole("heading", { name: "Course complete!" })).toBeVisible();
      await expect(page.getByRole("status")).toContainText(
        `You have finished all 3 chapters of ${title}.`,
      );
      await expect(page).toHaveURL(chapterUrl(2));
      await expect(progress).toHaveAttribute("aria-valuenow", "3");
      await expect(page.getByRole("button", { name: /Completed \(undo\)/ })).toHaveAttribute(
        "aria-pressed",
        "true",
      );
      await expect(page.getByRole("link", { name: "Review from the start" })).toHaveAttribute(
        "href",
        `/course/${courseId}?chapter=${chapterIds[0]}`,
      );
      await expectNoAxeViolations(page);
      await shoot(page, testInfo, "course-complete");
      // Kept: on a reload, and on the dashboard.
      await page.reload();
      await expect(page.getByRole("heading", { name: "Course complete!" })).toBeVisible();
      await page.getByRole("link", { name: "Back to all courses" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(
        cardOf(page, title).getByRole("link", { name: "Review", exact: true }),
      ).toBeVisible();
    });
  });
}

test.describe("the course page on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the lesson comes first, the chapters are a disclosure, Next stays at the bottom", async ({
    page,
    adminApi,
    context,
    baseURL,
  }, testInfo) => {
    await context.addCookies([
      { name: "cookie_consent", value: "essential", url: baseURL as string },
    ]);
    const title = uniqueTitle("Phone course");
    const titles = [uniqueTitle("Long read"), uniqueTitle("Short read")] as const;
    const { courseId, chapterIds } = await adminApi.createCourseWithChapters(title, "On the go.", [
      { title: titles[0], content: longLesson },
      { title: titles[1], content: "<p>Short.</p>" },
    ]);
    await createAccount(page, { paid: true });
    await page.goto(`/course/${courseId}`);

    // The lesson's heading is on the first screen; the chapter list is folded above it.
    const lesson = page.getByRole("heading", { level: 2, name: titles[0] });
    await expect(lesson).toBeInViewport();
    const chapters = page.getByRole("complementary", { name: "Course chapters" });
    const toggle = chapters.getByText("Chapters (2)");
    await expect(toggle).toBeVisible();
    await expect(chapters.getByRole("link", { name: titles[1] })).toBeHidden();
    const summaryBox = await toggle.boundingBox();
    const lessonBox = await lesson.boundingBox();
    expect(summaryBox && lessonBox && summaryBox.y < lessonBox.y).toBe(true);

    // Next is in reach at the bottom of the screen while the lesson is read.
    const next = page.getByRole("link", { name: `Next: ${titles[1]}` });
    await expect(next).toBeInViewport();
    await page.getByText("Paragraph 15:").scrollIntoViewIfNeeded();
    await expect(next).toBeInViewport();
    const box = await next.boundingBox();
    expect(box && box.y + box.height).toBeGreaterThan(844 - 90);
    await shoot(page, testInfo, "phone-reading");
    await page.screenshot({ path: testInfo.outputPath("phone-reading-viewport.png") });

    // The disclosure opens the list; choosing a chapter opens it and folds the list again.
    await page.evaluate(() => window.scrollTo(0, 0));
    await hydrated(chapters.getByRole("link", { name: "All courses" }));
    await toggle.click();
    const second = chapters.getByRole("link", { name: titles[1] });
    await expect(second).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath("phone-chapters-open.png") });
    await second.click();
    await expect(page).toHaveURL(new RegExp(`chapter=${chapterIds[1]}$`));
    await expect(page.getByRole("heading", { level: 2, name: titles[1] })).toBeVisible();
    await expect(second).toBeHidden();

    // Marking the last chapter done with one left stays there and says where the rest is.
    const mark = page.getByRole("button", { name: "Mark as complete" });
    await hydrated(mark);
    await mark.click();
    await expect(page.getByRole("status")).toContainText("1 chapter is still to do.");
    await expect(page).toHaveURL(new RegExp(`chapter=${chapterIds[1]}$`));
    await page.getByRole("link", { name: `Go to ${titles[0]}` }).click();
    await expect(page).toHaveURL(new RegExp(`chapter=${chapterIds[0]}$`));
    await expect(page.getByRole("heading", { level: 2, name: titles[0] })).toBeVisible();

    // No sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});

test.describe("the course page without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  test("the chapter list opens and Mark as complete moves on, as plain HTML", async ({
    page,
    adminApi,
  }) => {
    const title = uniqueTitle("Plain HTML course");
    const titles = [uniqueTitle("One"), uniqueTitle("Two")] as const;
    const { courseId, chapterIds } = await adminApi.createCourseWithChapters(title, "", [
      { title: titles[0], content: "<p>One</p>" },
      { title: titles[1], content: "<p>Two</p>" },
    ]);
    await createAccount(page, { paid: true });
    await page.goto(`/course/${courseId}`);
    const chapters = page.getByRole("complementary", { name: "Course chapters" });
    await chapters.getByText("Chapters (2)").click();
    await expect(chapters.getByRole("link", { name: titles[1] })).toBeVisible();
    await page.getByRole("button", { name: "Mark as complete" }).click();
    await expect(page).toHaveURL(new RegExp(`/course/${courseId}\\?chapter=${chapterIds[1]}$`));
    await expect(page.getByRole("heading", { level: 2, name: titles[1] })).toBeVisible();
    await expect(page.getByRole("progressbar", { name: "Course progress" })).toHaveAttribute(
      "aria-valuenow",
      "1",
    );
  });
});
