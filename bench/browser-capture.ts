/**
 * Learns what the hydrated course page sends when a member clicks "Mark as
 * complete" and then its undo: Chromium (the system's, never a downloaded
 * one) opens the page with the member's cookie, both clicks are made, and
 * every fetch the page makes from a click until the network is quiet is
 * recorded with its full headers and body. The two recordings must agree
 * apart from done=true/false; they become the template the writers replay.
 */
import { chromium, type Page, type Request } from "@playwright/test";
import { chromiumArgs, systemChromiumPath } from "../scripts/chromium";
import { BenchError, sleep } from "./support";
import type { RequestTemplate, WriteTemplate } from "./write-request";

export const chromiumPath = process.env.BENCH_CHROMIUM || systemChromiumPath;

/** Headers the replay sets itself (or, for the cookie, per member). */
const ownHeaders = new Set(["host", "content-length", "connection", "cookie"]);

type Recorded = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  status?: number;
};

export type Capture = { template: WriteTemplate; recorded: Recorded[][] };

/** Chromium could not be launched (not installed?): the caller may fall back. */
export class ChromiumUnavailable extends Error {}

/**
 * Records the click's requests. A page that does not behave as expected is a
 * `BenchError`; only a Chromium that cannot start is `ChromiumUnavailable`.
 */
export async function captureWriteTemplate(options: {
  origin: string;
  cookie: string;
  courseId: string;
  chapterId: string;
}): Promise<Capture> {
  const browser = await chromium
    .launch({ executablePath: chromiumPath, args: chromiumArgs })
    .catch((error: Error) => {
      throw new ChromiumUnavailable(`${chromiumPath}: ${error.message}`);
    });
  try {
    const context = await browser.newContext();
    await context.addCookies(
      options.cookie.split("; ").map((pair) => {
        const eq = pair.indexOf("=");
        return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: options.origin };
      }),
    );
    const page = await context.newPage();
    const pagePath = `/course/${options.courseId}?chapter=${options.chapterId}`;
    const opened = await page.goto(`${options.origin}${pagePath}`);
    if (
      opened?.status() !== 200 ||
      new URL(page.url()).pathname !== `/course/${options.courseId}`
    ) {
      throw new BenchError(`Chromium: ${pagePath} answered ${opened?.status()} at ${page.url()}`);
    }
    const mark = await clickAndRecord(page, /^Mark as complete$/, options.origin);
    const undo = await clickAndRecord(page, /undo/i, options.origin);
    const vars = { ...options };
    const markTemplate = toTemplate(mark, { ...vars, done: "true" });
    const undoTemplate = toTemplate(undo, { ...vars, done: "false" });
    if (JSON.stringify(markTemplate) !== JSON.stringify(undoTemplate)) {
      throw new BenchError(
        `Chromium: "Mark as complete" and its undo sent different requests:\n` +
          `${JSON.stringify(mark, null, 2)}\n${JSON.stringify(undo, null, 2)}`,
      );
    }
    const writes = markTemplate.filter((r) => r.method !== "GET");
    if (writes.length !== 1 || !writes[0]?.body?.includes("{done}")) {
      throw new BenchError(
        `Chromium: expected one write carrying done=true/false per click, got:\n${JSON.stringify(mark, null, 2)}`,
      );
    }
    return { template: { source: "chromium", requests: markTemplate }, recorded: [mark, undo] };
  } catch (error) {
    if (error instanceof BenchError) throw error;
    throw new BenchError(`Chromium: ${(error as Error).message}`);
  } finally {
    await browser.close();
  }
}

/** Clicks the button once React has hydrated it; records the page's fetches until the network is quiet. */
async function clickAndRecord(page: Page, name: RegExp, origin: string): Promise<Recorded[]> {
  const button = page.getByRole("button", { name });
  await button.waitFor({ timeout: 15_000 });
  const deadline = Date.now() + 15_000;
  while (
    !(await button.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps$"))))
  ) {
    if (Date.now() > deadline) throw new BenchError(`Chromium: ${name} never hydrated`);
    await sleep(50);
  }

  const requests: Request[] = [];
  const inFlight = new Set<Request>();
  let lastActivity = Date.now();
  const started = (request: Request) => {
    // React Router's route discovery (links coming into view), whenever it happens: not the click's.
    if (new URL(request.url()).pathname === "/__manifest") return;
    requests.push(request);
    inFlight.add(request);
    lastActivity = Date.now();
  };
  const ended = (request: Request) => {
    if (inFlight.delete(request)) lastActivity = Date.now();
  };
  page.on("request", started);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  await button.click();
  while (requests.length === 0 || inFlight.size > 0 || Date.now() - lastActivity < 500) {
    if (Date.now() > deadline + 15_000)
      throw new BenchError(`Chromium: ${name} click never settled`);
    await sleep(50);
  }
  page.off("request", started);
  page.off("requestfinished", ended);
  page.off("requestfailed", ended);

  const recorded: Recorded[] = [];
  for (const request of requests) {
    // What the click makes the app send; static assets fetched once would be cached later.
    if (!["fetch", "xhr", "document"].includes(request.resourceType())) continue;
    if (!request.url().startsWith(`${origin}/`)) continue;
    const response = await request.response();
    recorded.push({
      method: request.method(),
      url: request.url(),
      headers: await request.allHeaders(),
      body: request.postData() ?? undefined,
      status: response?.status(),
    });
  }
  const failed = recorded.find((r) => r.status === undefined || r.status >= 400);
  if (recorded.length === 0 || failed) {
    throw new BenchError(`Chromium: clicking ${name} sent ${JSON.stringify(recorded, null, 2)}`);
  }
  return recorded;
}

function toTemplate(
  recorded: Recorded[],
  vars: { origin: string; courseId: string; chapterId: string; done: "true" | "false" },
): RequestTemplate[] {
  const generalize = (text: string) =>
    text
      .replaceAll(vars.origin, "{origin}")
      .replaceAll(vars.courseId, "{course}")
      .replaceAll(vars.chapterId, "{chapter}");
  return recorded.map((r) => ({
    method: r.method,
    url: generalize(r.url),
    headers: Object.entries(r.headers)
      .filter(([name]) => !ownHeaders.has(name.toLowerCase()) && !name.startsWith(":"))
      .map(([name, value]): [string, string] => [name, generalize(value)]),
    body:
      r.body === undefined
        ? undefined
        : generalize(r.body).replace(`done=${vars.done}`, "done={done}"),
  }));
}
