import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  type APIRequestContext,
  test as base,
  expect,
  type Locator,
  type Page,
} from "@playwright/test";

export const demoCourseTitle = "Start Here: Your First AI SaaS in 7 Days";

export type Account = { name: string; email: string; password: string };

/**
 * The Origin header a browser sends with every form POST. The server refuses a
 * POST without one (403), so direct posts in the tests carry it too.
 */
export function sameOrigin(): { Origin: string } {
  const origin = base.info().project.use.baseURL;
  if (!origin) throw new Error("baseURL is set in playwright.config.ts");
  return { Origin: origin };
}

/** A new account nobody else in the run uses. */
export function newAccount(): Account {
  const id = crypto.randomUUID();
  return { name: "Test Member", email: `e2e-${id}@example.com`, password: `pw-${id.slice(0, 12)}` };
}

/** Fills and submits the sign-up form; does not check where it lands. */
export async function submitSignup(page: Page, account: Account): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("Full Name", { exact: true }).fill(account.name);
  await page.getByLabel("Email address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

/** Signs up through the UI; the browser ends signed in on /payment-options. */
export async function signUp(page: Page, account: Account = newAccount()): Promise<Account> {
  await submitSignup(page, account);
  await expect(page).toHaveURL(/\/payment-options$/);
  await expect(page.getByRole("heading", { name: "Choose Your Access Plan" })).toBeVisible();
  return account;
}

/** From /payment-options, opens the built-in test checkout. */
export async function openTestCheckout(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Get Lifetime Access Now" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Test checkout" })).toBeVisible();
}

/** Signs up and pays through the UI; ends on /dashboard, declining both upsells the success page leads to. */
export async function signUpPaid(page: Page, account: Account = newAccount()): Promise<Account> {
  await signUp(page, account);
  await openTestCheckout(page);
  await page.getByRole("button", { name: "Pay $25" }).click();
  await expect(page).toHaveURL(/\/success$/);
  await page.getByRole("link", { name: "Continue now" }).click();
  await expect(page).toHaveURL(/\/white-label-upsell$/);
  await page
    .getByRole("link", { name: /^No Thanks/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/custom-saas-upsell$/);
  await page
    .getByRole("link", { name: /^No Thanks/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return account;
}

/**
 * Creates an account without the UI, through the same form posts the pages make,
 * for tests where the account is only a precondition. The page's browser context
 * ends signed in as the new user (page.request shares its cookies). `origin` is
 * the site's when the page's context is not on the project's baseURL.
 */
export async function createAccount(
  page: Page,
  options: { paid: boolean; origin?: string },
): Promise<Account> {
  return createAccountWith(page.request, options);
}

/**
 * createAccount for any request context: the context ends signed in as the new user.
 * `origin` is the site's (the running test's baseURL when not given).
 */
export async function createAccountWith(
  request: APIRequestContext,
  { paid, origin, account = newAccount() }: { paid: boolean; origin?: string; account?: Account },
): Promise<Account> {
  const headers = origin ? { Origin: origin } : sameOrigin();
  const signup = await request.post("/signup", {
    form: { ...account },
    headers,
    maxRedirects: 0,
  });
  expect(signup.status(), "sign-up").toBe(302);
  expect(signup.headers().location).toBe("/payment-options");
  if (!paid) return account;
  const checkout = await request.post("/payment-options", {
    form: { productId: "lifetime-access" },
    headers,
    maxRedirects: 0,
  });
  expect(checkout.status(), "checkout").toBe(302);
  const checkoutUrl = checkout.headers().location ?? "";
  expect(checkoutUrl).toMatch(/\/checkout\/test\/[0-9a-f-]{36}$/);
  const pay = await request.post(checkoutUrl, {
    form: { intent: "pay" },
    headers,
    maxRedirects: 0,
  });
  expect(pay.status(), "payment").toBe(302);
  expect(pay.headers().location).toBe("/success");
  return account;
}

/** Fills and submits the login form; does not check where it lands. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The path of the page's URL. */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

const run = promisify(execFile);

/** `npm run cli -- ARGS` against the running server's database (its socket in DATA_DIR, or DATABASE_URL). */
export async function cli(...args: string[]): Promise<string> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is set by playwright.config.ts");
  const { stdout } = await run("npm", ["run", "--silent", "cli", "--", ...args], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    timeout: 30_000,
  });
  return stdout;
}

const uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/**
 * An admin's request context, for setting up courses and chapters through the
 * same form posts the admin panel makes.
 */
export class AdminApi {
  constructor(
    readonly request: APIRequestContext,
    readonly origin: string,
  ) {}

  /** POSTs a form to the /admin action as the admin panel does (same origin, no redirects followed). */
  post(form: Record<string, string>) {
    return this.request.post("/admin/courses", {
      form,
      headers: { Origin: this.origin },
      maxRedirects: 0,
    });
  }

  /** Creates a course; its id. */
  async createCourse(title: string, description = ""): Promise<string> {
    const res = await this.post({ intent: "create-course", title, description });
    expect(res.status(), "create-course").toBe(302);
    const id = (res.headers().location ?? "").match(
      new RegExp(`^/admin/courses\\?course=(${uuid})$`),
    )?.[1];
    if (!id) throw new Error(`create-course redirected to ${res.headers().location}`);
    return id;
  }

  /** Adds a chapter at the end of a course. */
  async createChapter(courseId: string, title: string, content = ""): Promise<void> {
    const res = await this.post({ intent: "create-chapter", courseId, title, content });
    expect(res.status(), "create-chapter").toBe(302);
  }

  /** The ids of a course's chapters, in order, read from the admin panel. */
  async chapterIds(courseId: string): Promise<string[]> {
    const html = await (await this.request.get(`/admin/courses?course=${courseId}`)).text();
    const edit = new RegExp(
      `href="/admin/courses\\?course=${courseId}&amp;chapter=(${uuid})"`,
      "g",
    );
    return [...html.matchAll(edit)].map((m) => m[1] as string);
  }

  /** A course with the given chapters (title and HTML content); its id and the chapter ids in order. */
  async createCourseWithChapters(
    title: string,
    description: string,
    chapters: { title: string; content: string }[],
  ): Promise<{ courseId: string; chapterIds: string[] }> {
    const courseId = await this.createCourse(title, description);
    for (const c of chapters) await this.createChapter(courseId, c.title, c.content);
    const chapterIds = await this.chapterIds(courseId);
    expect(chapterIds).toHaveLength(chapters.length);
    return { courseId, chapterIds };
  }
}

/**
 * The tests' `test` with an admin: `adminApi` is one admin account per worker
 * (made with the CLI, as an operator would), and `adminPage` a browser page
 * signed in as that admin, in its own context.
 */
export const test = base.extend<{ adminPage: Page }, { adminApi: AdminApi }>({
  adminApi: [
    async ({ playwright }, use, workerInfo) => {
      const origin = workerInfo.project.use.baseURL;
      if (!origin) throw new Error("baseURL is set in playwright.config.ts");
      // A new connection per request: the context lives as long as the worker, and a
      // kept-alive socket left idle for the server's keep-alive timeout (5 s) can be closed by
      // the server just as the next test sends on it (ECONNRESET).
      const request = await playwright.request.newContext({
        baseURL: origin,
        extraHTTPHeaders: { connection: "close" },
      });
      const account = await createAccountWith(request, { paid: false, origin });
      expect(await cli("admin", "grant", account.email)).toContain(
        `Granted admin to ${account.email}.`,
      );
      await use(new AdminApi(request, origin));
      await request.dispose();
    },
    { scope: "worker" },
  ],
  adminPage: async ({ browser, adminApi }, use) => {
    const state = await adminApi.request.storageState();
    // The admin panel's one-time notice of the API's last post is not this page's to show.
    state.cookies = state.cookies.filter((c) => c.name !== "ailabs.admin_notice");
    const context = await browser.newContext({ storageState: state });
    await use(await context.newPage());
    await context.close();
  },
});

/** A new unique title. */
export function uniqueTitle(prefix: string): string {
  return `${prefix} ${crypto.randomUUID().slice(0, 8)}`;
}

/** Waits until React has hydrated the element, so that its handlers and state are live. */
export async function hydrated(locator: Locator): Promise<void> {
  await expect
    .poll(() =>
      locator.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps$"))),
    )
    .toBe(true);
}

/**
 * On a page that hydrates only its islands (the landing page for visitors), waits until
 * every island has hydrated: React has attached to the first element of each.
 */
export async function islandsHydrated(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll("[data-island]")].every((island) => {
          const first = island.firstElementChild;
          // An island that renders nothing yet (the cookie banner before it reads the
          // cookie) counts once React has rendered into it.
          const probe = first ?? island;
          return Object.keys(probe).some((k) => k.startsWith("__react"));
        }),
      ),
    )
    .toBe(true);
}

/** Console errors and uncaught exceptions of the page, collected from now on. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

/**
 * Waits until the page's scripts have run: React Router's client has hydrated
 * `element` or, on a page that hydrates only its islands, every island has.
 */
export async function pageHydrated(page: Page, element: Locator): Promise<void> {
  if (await page.evaluate(() => "__reactRouterContext" in window)) await hydrated(element);
  else await islandsHydrated(page);
}

/**
 * One test per public page: it answers 200 and shows its heading once hydrated
 * (or its islands, decision 007), with no console errors; `alsoCheck` looks at
 * more of the page.
 */
export function testPagesOpenCleanly(
  pages: readonly { path: string; heading: string | RegExp }[],
  alsoCheck?: (page: Page) => Promise<void>,
): void {
  for (const { path, heading } of pages) {
    base(`${path} answers 200 with its heading and no console errors`, async ({ page }) => {
      const errors = collectErrors(page);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      const h1 = page.getByRole("heading", { level: 1, name: heading });
      await expect(h1).toBeVisible();
      await pageHydrated(page, h1);
      await alsoCheck?.(page);
      expect(errors).toEqual([]);
    });
  }
}

/**
 * A page clock paused at `at`: only runFor moves it, so real time under load
 * cannot tick a timer between two checks.
 */
export async function pausedClock(page: Page, at: Date): Promise<void> {
  await page.clock.install({ time: new Date(at.getTime() - 1_000) });
  await page.clock.pauseAt(at);
}

/** Opens `path` on a page clock paused at a fixed moment (see pausedClock). */
export async function openWithPausedClock(page: Page, path: string): Promise<void> {
  await pausedClock(page, new Date("2025-05-21T12:00:01Z"));
  await page.goto(path);
}

/** The Days, Hours, Minutes or Seconds box of a countdown timer. */
export function timerUnit(timer: Locator, name: "Days" | "Hours" | "Minutes" | "Seconds"): Locator {
  return timer.locator(`[data-unit="${name}"]`);
}

/** A new paying member on the idea generator, its form hydrated and its three text filters filled. */
export async function ideaGeneratorWith(
  page: Page,
  filters: { industry: string; audience: string; problem: string },
): Promise<void> {
  await createAccount(page, { paid: true });
  await page.goto("/app-idea-generator");
  const industry = page.getByLabel("Industry");
  await hydrated(industry);
  await industry.fill(filters.industry);
  await page.getByLabel("Target audience").fill(filters.audience);
  await page.getByLabel("Problem to solve").fill(filters.problem);
}

/**
 * Makes fresh DATA_DIRs (a "data" folder in a new temporary folder named from
 * `prefix`) and removes them all after the file's tests.
 */
export function tempDataDirs(prefix: string): () => string {
  const dirs: string[] = [];
  base.afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return path.join(dir, "data");
  };
}

/** A production server a test started itself (besides the one the config starts). */
export type ServerProcess = {
  child: ChildProcess;
  origin: string;
  /** What it has written to stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
};

/** A port nothing listens on now (the OS picks it), so no fixed range can collide. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the production server as an operator runs it (bin/serve) on `port`
 * (a free one by default), with DATA_DIR `dataDir` and no environment but
 * PATH and `env`.
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  port?: number,
): Promise<ServerProcess> {
  port ??= await freePort();
  const origin = `http://localhost:${port}`;
  let output = "";
  const child = spawn("sh", ["bin/serve"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      NODE: process.execPath,
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, origin, output: () => output, exited };
}

/**
 * Waits until the server is ready (/readyz: migrations ran, the public pages
 * are in memory). A new DATA_DIR is created and migrated first: over 30 s on
 * a busy 2-core machine.
 */
export async function serverHealthy(server: ServerProcess, timeout = 60_000): Promise<void> {
  await expect
    .poll(async () => (await fetch(`${server.origin}/readyz`).catch(() => null))?.status ?? 0, {
      timeout,
    })
    .toBe(200);
}

/** A browser's form POST to `origin`, on a fresh connection; redirects are not followed. */
export function postForm(
  origin: string,
  pathname: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${origin}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
}

/** The Cookie header that sends back the cookies a response set. */
export function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Saves full-page screenshots of a spec under `dir`, as `{name}-{width}.png`. */
export function screenshotsIn(dir: string) {
  return async (page: Page, name: string, width: number) => {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  };
}

/** The page does not scroll sideways. */
export async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}
