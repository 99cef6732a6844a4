import { type APIResponse, expect, type Page, type Response, test } from "@playwright/test";
import { collectErrors, createAccount, hydrated, newAccount } from "./helpers";

// A visitor's /login, /signup and /forgot-password are the prerendered copies, served from
// memory (app/route-policies.ts, signInPagePaths); a signed-in user's are rendered per
// request, and /login?reset=1 too (its message is not in the copy).

const signInPages = [
  { path: "/login", heading: "Sign in to your account", button: "Sign in" },
  { path: "/signup", heading: "Create Your Account", button: "Create Account" },
  { path: "/forgot-password", heading: "Forgot your password?", button: "Send reset link" },
];

/** The response is the prerendered copy: it has the ETag and Cache-Control of the static files. */
function expectFromMemory(response: Response | APIResponse | null, what: string) {
  const headers = response?.headers() ?? {};
  expect(response?.status(), what).toBe(200);
  expect(headers.etag, `${what}: ETag`).toMatch(/^"[\w-]+"$/);
  expect(headers["cache-control"], `${what}: Cache-Control`).toBe("no-cache");
}

/** The response was rendered per request: no ETag. */
function expectRendered(response: Response | APIResponse | null, what: string) {
  expect(response?.headers().etag, `${what}: rendered, no ETag`).toBeUndefined();
}

/** Opens `path`: the app answered it with a redirect to `to`, not with the visitor's copy. */
async function expectRedirected(page: Page, path: string, to: string) {
  const response = await page.goto(path);
  await expect(page, path).toHaveURL(new RegExp(`${to}$`));
  const first = await response?.request().redirectedFrom()?.response();
  expect(first?.status(), `${path}: redirected`).toBe(302);
  expect(first?.headers().location, `${path}: redirected`).toBe(to);
}

test.describe("sign-in pages for visitors", () => {
  test("come from the prerendered copy, compressed, and hydrate without errors", async ({
    page,
  }) => {
    const errors = collectErrors(page);
    for (const { path, heading, button } of signInPages) {
      const response = await page.goto(path);
      expectFromMemory(response, path);
      expect(response?.headers()["content-encoding"], path).toBe("br");
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
      await hydrated(page.getByRole("button", { name: button }));
    }
    expect(errors).toEqual([]);
  });

  test("answer 304 to the copy's ETag and HEAD like the other public pages", async ({
    request,
  }) => {
    for (const { path } of signInPages) {
      const first = await request.get(path);
      expectFromMemory(first, path);
      const etag = first.headers().etag as string;
      const again = await request.get(path, { headers: { "If-None-Match": etag } });
      expect(again.status(), `${path} revalidated`).toBe(304);
      const head = await request.head(path);
      expect(head.headers().etag).toBe(etag);
      expectFromMemory(await request.get(`${path}.data`), `${path}.data`);
    }
  });

  test("are not in the sitemap", async ({ request }) => {
    const sitemap = await (await request.get("/sitemap.xml")).text();
    expect(sitemap).toContain("<loc>");
    for (const { path } of signInPages) expect(sitemap).not.toContain(`${path}</loc>`);
  });

  test("/login?reset=1 is rendered with its message, without a hydration error", async ({
    page,
  }) => {
    const errors = collectErrors(page);
    const response = await page.goto("/login?reset=1");
    expectRendered(response, "/login?reset=1");
    await expect(page.getByRole("status")).toHaveText(
      "Your password has been changed. Sign in with your new password.",
    );
    await hydrated(page.getByRole("button", { name: "Sign in" }));
    expect(errors).toEqual([]);

    // The plain URL's copy has no message.
    expectFromMemory(await page.goto("/login"), "/login");
    await expect(page.getByRole("status")).toHaveCount(0);
  });

  test("sign-up, sign-in and a reset request work from the copy, links navigate on the client", async ({
    page,
  }) => {
    const errors = collectErrors(page);
    const account = newAccount();

    expectFromMemory(await page.goto("/login"), "/login");
    const signUpLink = page.getByRole("link", { name: "No account yet? Sign up" });
    await hydrated(signUpLink);
    // A client-side navigation: the page's data comes from the copy too.
    const signUpData = page.waitForResponse((r) => new URL(r.url()).pathname === "/signup.data");
    await signUpLink.click();
    expectFromMemory(await signUpData, "/signup.data");
    await expect(page.getByRole("heading", { name: "Create Your Account" })).toBeVisible();

    await page.getByLabel("Full Name", { exact: true }).fill(account.name);
    await page.getByLabel("Email address").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/payment-options$/);
    await expect(page.getByRole("heading", { name: "Choose Your Access Plan" })).toBeVisible();

    await page.context().clearCookies();
    expectFromMemory(await page.goto("/login"), "/login");
    const signIn = page.getByRole("button", { name: "Sign in" });
    await hydrated(signIn);
    await page.getByLabel("Email address").fill(account.email);
    expect(errors).toEqual([]);
    await page.getByLabel("Password", { exact: true }).fill(`${account.password}-wrong`);
    await signIn.click();
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await signIn.click();
    await expect(page).toHaveURL(/\/payment-options$/);

    await page.context().clearCookies();
    await page.goto("/login");
    const forgot = page.getByRole("link", { name: "Forgot password?" });
    await hydrated(forgot);
    await forgot.click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel("Email address").fill(account.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status")).toContainText("valid for 1 hour");
    // The browser reports the refused sign-in (400) itself; nothing else went wrong.
    expect(errors).toEqual([
      "Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
  });
});

test.describe("sign-in pages without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the forms post to the server and show its answers", async ({ page }) => {
    const account = await createAccount(page, { paid: false });
    await page.context().clearCookies();

    expectFromMemory(await page.goto("/login"), "/login");
    await page.getByLabel("Email address").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(`${account.password}-wrong`);
    const refused = page.waitForResponse((r) => r.request().method() === "POST");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");

    expectFromMemory(await page.goto("/signup"), "/signup");
    await page.getByLabel("Full Name", { exact: true }).fill("Someone Else");
    await page.getByLabel("Email address").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill("another-password");
    const taken = page.waitForResponse((r) => r.request().method() === "POST");
    await page.getByRole("button", { name: "Create Account" }).click();
    expect((await taken).status()).toBe(400);
    await expect(page.getByRole("alert")).toContainText(/already exists/i);

    expectFromMemory(await page.goto("/forgot-password"), "/forgot-password");
    await page.getByLabel("Email address").fill(account.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status")).toContainText("valid for 1 hour");

    await page.goto("/login");
    await page.getByLabel("Email address").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/payment-options$/);
  });
});

test.describe("sign-in pages for signed-in users", () => {
  test("a member opening /login, /signup or /forgot-password goes to /dashboard, also on a client-side navigation", async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await createAccount(page, { paid: true });
    for (const path of ["/login", "/signup", "/forgot-password"]) {
      await expectRedirected(page, path, "/dashboard");
    }

    // The landing page's link to /login, followed by React Router's client.
    await page.goto("/");
    const link = page.getByRole("link", { name: "Start Learning", exact: true });
    await hydrated(link);
    const data = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(".data"));
    await link.click();
    expectRendered(await data, "Start Learning data");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Training Area" })).toBeVisible();
    // Its buy button tells an owner so on the plan page.
    await page.goto("/");
    await page.getByRole("link", { name: "Get Lifetime Access", exact: true }).click();
    await expect(page).toHaveURL(/\/payment-options$/);
    await expect(page.getByText("You already own this: Lifetime Access is yours.")).toBeVisible();
    expect(errors).toEqual([]);
  });

  test("an unpaid user opening /login, /signup or /forgot-password goes to /payment-options", async ({
    page,
  }) => {
    await createAccount(page, { paid: false });
    for (const path of ["/login", "/signup", "/forgot-password"]) {
      await expectRedirected(page, path, "/payment-options");
    }
    await page.goto("/");
    const link = page.getByRole("link", { name: "Start Learning", exact: true });
    await hydrated(link);
    await link.click();
    await expect(page).toHaveURL(/\/payment-options$/);
  });
});
