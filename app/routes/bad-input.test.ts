import { afterEach, describe, expect, it, vi } from "vitest";
import { changeLinkExpired } from "~/lib/account-forms";
import { nulCharacterMessage } from "~/lib/forms";
import { sampleIdeas } from "~/lib/ideas";
import { offerDefaults } from "~/lib/offer";
import { formValues } from "~/lib/offer-settings-form";
import { createChapter, createCourse } from "~/server/courses/authoring.server";
import { getDb } from "~/server/db/db.server";
import { type Env, getEnv } from "~/server/env.server";
import { malformedFormMessage, unsupportedFormMessage } from "~/server/forms.server";
import { postOnly } from "~/server/http/post-only.server";
import { logger } from "~/server/logger.server";
import { unsubscribeToken } from "~/server/mail/preferences.server";
import { checkoutMessages } from "~/server/payments/checkout.server";
import { fulfilPurchase } from "~/server/payments/purchases.server";
import { createTestApp } from "~/test/app-handler";
import { cookieHeader, createUser, origin, uniqueEmail, withEnv } from "~/test/helpers";
import { totpCode } from "~/test/totp";

// Every route with an action, found in app/routes.ts, gets bodies no browser form sends
// and a NUL in each of its fields, through the Hono shell and React Router as in
// production. Each must be refused with a 4xx that says why: never a 500, never an error
// in the log.

const { app, routes } = await createTestApp();

type Post = {
  cookie?: string;
  headers?: Record<string, string>;
  contentType: string;
  body: string;
};

/** A POST as a page of the site sends it (with its Origin). */
function post(path: string, { cookie, headers, contentType, body }: Post): Promise<Response> {
  const all = new Headers({ ...headers, origin, "content-type": contentType });
  if (cookie) all.set("cookie", cookie);
  return Promise.resolve(app.request(`${origin}${path}`, { method: "POST", headers: all, body }));
}

const urlencoded = "application/x-www-form-urlencoded";
const postForm = (path: string, fields: Record<string, string>, cookie?: string) =>
  post(path, { cookie, contentType: urlencoded, body: new URLSearchParams(fields).toString() });

/** What a route is sent: a form it takes, where and as whom. */
type Sample = {
  /** Where to post it (the route's pattern with its params, and query, filled in). */
  path: string;
  cookie?: string;
  headers?: Record<string, string>;
  /** The fields the route reads, valid; the NUL variants spoil one at a time. */
  fields: Record<string, string>;
  /** How the route words a refusal when not with readForm's or parseForm's messages. */
  ownMessages?: string[];
  /** Settings the route needs (a webhook's secret), in force for its requests only. */
  env?: Partial<Env>;
};

/** The cookie of a member with two-factor on who has passed the password step of signing in. */
async function pendingTwoFactorSignIn(): Promise<string> {
  const u = await createUser({ paid: true });
  const setup = await postForm("/account", { intent: "enable", password: u.password }, u.cookie);
  const html = await setup.text();
  const secret = /data-secret="([A-Z2-7]+)"/.exec(html)?.[1];
  if (!secret) throw new Error(`no two-factor secret on /account (${setup.status})`);
  const confirm = {
    intent: "confirm",
    code: totpCode(secret),
    uri: `otpauth://totp/x?secret=${secret}`,
  };
  expect((await postForm("/account", confirm, u.cookie)).status).toBe(302);
  const signIn = await postForm("/login", { email: u.email, password: u.password });
  expect(signIn.headers.get("location")).toBe("/login/two-factor");
  return cookieHeader(signIn.headers);
}

/**
 * One sample per route file with an action. The sweep fails for a route with an
 * action that has none here, so a new form cannot be left out.
 */
const samples: Record<string, () => Promise<Sample>> = {
  "routes/auth/login.tsx": async () => {
    const u = await createUser();
    return { path: "/login", fields: { email: u.email, password: u.password } };
  },
  "routes/auth/login-two-factor.tsx": async () => ({
    path: "/login/two-factor",
    cookie: await pendingTwoFactorSignIn(),
    fields: { method: "totp", code: "123456" },
  }),
  "routes/auth/signup.tsx": async () => ({
    path: "/signup",
    fields: { name: "Sweep", email: uniqueEmail("sweep"), password: "a long enough password" },
  }),
  "routes/auth/logout.tsx": async () => ({
    path: "/logout",
    cookie: (await createUser()).cookie,
    fields: {},
  }),
  "routes/auth/forgot-password.tsx": async () => ({
    path: "/forgot-password",
    fields: { email: uniqueEmail("sweep") },
  }),
  "routes/auth/reset-password.tsx": async () => ({
    path: "/reset-password?token=sweep-token",
    fields: { token: "sweep-token", password: "a new password", confirmPassword: "a new password" },
  }),
  "routes/checkout/payment-options.tsx": async () => ({
    path: "/payment-options",
    cookie: (await createUser()).cookie,
    fields: { productId: "lifetime-access" },
    ownMessages: [checkoutMessages.invalidProduct],
  }),
  "routes/checkout/test-checkout.tsx": async () => {
    const { cookie } = await createUser();
    const opened = await postForm("/payment-options", { productId: "lifetime-access" }, cookie);
    const path = new URL(opened.headers.get("location") ?? "", origin).pathname;
    expect(path).toMatch(/^\/checkout\/test\/[0-9a-f-]{36}$/);
    return { path, cookie, fields: { intent: "pay" } };
  },
  "routes/marketing/white-label-upsell.tsx": async () => ({
    path: "/white-label-upsell",
    cookie: (await createUser({ paid: true })).cookie,
    fields: { intent: "buy" },
  }),
  "routes/marketing/custom-saas-upsell.tsx": async () => ({
    path: "/custom-saas-upsell",
    cookie: (await createUser({ paid: true })).cookie,
    fields: { intent: "buy" },
  }),
  "routes/members/course.tsx": async () => {
    const db = await getDb();
    const { id: courseId } = await createCourse(db, { title: "Sweep", description: "d" });
    const chapter = await createChapter(db, { courseId, title: "One", contentHtml: "<p>1</p>" });
    const chapterId = chapter?.id ?? "";
    return {
      path: `/course/${courseId}?chapter=${chapterId}`,
      cookie: (await createUser({ paid: true })).cookie,
      fields: { chapterId, done: "true" },
    };
  },
  "routes/cookie-consent.ts": async () => ({
    path: "/cookie-consent",
    fields: { consent: "essential", returnTo: "/ailabs-offer" },
  }),
  "routes/members/app-idea-generator.tsx": async () => ({
    path: "/app-idea-generator",
    cookie: (await createUser({ paid: true })).cookie,
    fields: { intent: "save", idea: JSON.stringify(sampleIdeas[0]) },
    ownMessages: ["This idea could not be read. Generate it again and save it."],
  }),
  "routes/members/account.tsx": async () => {
    const u = await createUser({ paid: true });
    return {
      path: "/account",
      cookie: u.cookie,
      fields: { intent: "enable", password: u.password },
    };
  },
  "routes/members/coaching.tsx": async () => {
    // A buyer of a build: the page is theirs (others are sent to the offer).
    const buyer = await createUser({ paid: true });
    const build = await fulfilPurchase(await getDb(), {
      userId: buyer.id,
      provider: "manual",
      providerRef: crypto.randomUUID(),
      product: "custom-saas",
      amountCents: 0,
      currency: "usd",
    });
    return {
      path: "/coaching",
      cookie: buyer.cookie,
      fields: {
        purchaseId: build.id,
        availability: "Mornings",
        hosting: "managed",
        contentPlan: "Prompts",
      },
    };
  },
  "routes/admin/applications.tsx": async () => ({
    path: "/admin/applications",
    cookie: (await createUser({ isAdmin: true })).cookie,
    fields: { purchaseId: "00000000-0000-4000-8000-000000000000", status: "new", notes: "" },
  }),
  "routes/members/confirm-email.tsx": async () => ({
    path: "/account/confirm-email?token=sweep-token",
    fields: { token: "sweep-token" },
    ownMessages: [changeLinkExpired],
  }),
  "routes/admin/courses.tsx": async () => ({
    path: "/admin/courses",
    cookie: (await createUser({ isAdmin: true })).cookie,
    fields: { intent: "create-course", title: "Sweep", description: "About it" },
  }),
  "routes/admin/members.tsx": async () => ({
    path: "/admin/members",
    cookie: (await createUser({ isAdmin: true })).cookie,
    fields: { intent: "attach", provider: "stripe", providerRef: "cs_sweep", email: "a@b.test" },
  }),
  "routes/admin/member.tsx": async () => ({
    path: `/admin/members/${(await createUser()).id}`,
    cookie: (await createUser({ isAdmin: true })).cookie,
    fields: { intent: "sign-out", confirm: "yes" },
  }),
  "routes/admin/settings.tsx": async () => ({
    path: "/admin/settings",
    cookie: (await createUser({ isAdmin: true })).cookie,
    // The defaults: a valid post changes nothing for the other test files.
    fields: formValues(offerDefaults),
  }),
  "routes/admin/products.tsx": async () => ({
    path: "/admin/products",
    cookie: (await createUser({ isAdmin: true })).cookie,
    // Custom SaaS opens no course: a valid post changes nothing for the other test files.
    fields: {
      product: "custom-saas",
      name: "Custom SaaS Build and 1-on-1 Coaching",
      price: "997",
      regularPrice: "1997",
    },
  }),
  "routes/admin/email.tsx": async () => ({
    path: "/admin/email",
    cookie: (await createUser({ isAdmin: true })).cookie,
    // A preview: a valid post sends nothing.
    fields: { intent: "preview", subject: "Sweep", body: "<p>Hello</p>" },
  }),
  "routes/email/preferences.tsx": async () => {
    const token = unsubscribeToken(getEnv().authSecret, {
      userId: (await createUser()).id,
      from: null,
    });
    return {
      path: `/email/preferences?token=${encodeURIComponent(token)}`,
      fields: { token, intent: "subscribe" },
      ownMessages: ["This link is not valid."],
    };
  },
  "routes/email/unsubscribe.ts": async () => ({
    // A token this server did not sign: whatever the body, the answer is 400.
    path: "/email/unsubscribe?token=sweep",
    fields: { "List-Unsubscribe": "One-Click" },
    ownMessages: ["This unsubscribe link is not valid."],
  }),
  "routes/not-found.tsx": async () => ({ path: "/no-such-page", fields: {} }),
  "routes/api/uploads.ts": async () => ({
    path: "/api/uploads",
    cookie: (await createUser({ isAdmin: true })).cookie,
    fields: { file: "not an image" },
    ownMessages: [
      "Send the image as multipart form data in a field named file.",
      "No file was sent.",
    ],
  }),
  "routes/api/webhooks/stripe.ts": async () => ({
    path: "/api/webhooks/stripe",
    headers: { "stripe-signature": "t=1700000000,v1=0000" },
    fields: { id: "evt_sweep", type: "checkout.session.completed" },
    ownMessages: ["Invalid signature"],
    env: {
      stripe: { secretKey: "sk_test_sweep", priceId: "price_sweep", webhookSecret: "whsec_sweep" },
    },
  }),
  "routes/api/webhooks/warriorplus.ts": async () => ({
    path: "/api/webhooks/warriorplus",
    fields: {
      WP_ACTION: "sale",
      WP_ITEM_NUMBER: "wso_sweep",
      WP_SALEID: "sale_sweep",
      WP_BUYER_EMAIL: uniqueEmail("buyer"),
      WP_BUYER_NAME: "Sweep Buyer",
      WP_SECURITYKEY: "sweep-security-key",
      IPN_ID: "ipn_sweep",
    },
    ownMessages: ["Bad request", "Unauthorized"],
    env: {
      warriorplus: {
        securityKey: "sweep-security-key",
        products: new Map([["wso_sweep", "lifetime-access"]]),
      },
    },
  }),
};

type Variant = { name: string; contentType: string; body: string; message: string };

/** Bodies no form of the site sends, then the sample with a NUL in each field in turn. */
function variantsOf(fields: Record<string, string>): Variant[] {
  const part = `--sweep\r\nContent-Disposition: form-data; name="x"\r\n\r\nvalue`;
  return [
    {
      name: "a JSON body",
      contentType: "application/json",
      body: JSON.stringify(fields),
      message: unsupportedFormMessage,
    },
    {
      name: "a text/plain body",
      contentType: "text/plain;charset=UTF-8",
      body: Object.entries(fields)
        .map(([k, v]) => `${k}=${v}`)
        .join("\r\n"),
      message: unsupportedFormMessage,
    },
    {
      name: "malformed multipart",
      contentType: "multipart/form-data; boundary=sweep",
      body: `${part}\r\n(no closing boundary)`,
      message: malformedFormMessage,
    },
    {
      name: "multipart without a boundary",
      contentType: "multipart/form-data",
      body: `${part}\r\n--sweep--\r\n`,
      message: malformedFormMessage,
    },
    ...Object.entries(fields).map(([name, value]) => ({
      name: `a NUL in ${name}`,
      contentType: urlencoded,
      body: new URLSearchParams({
        ...fields,
        [name]: `${value.slice(0, 1)}\u0000${value.slice(1)}`,
      }).toString(),
      message: nulCharacterMessage,
    })),
  ];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("bad input", () => {
  it("every route with an action refuses bodies that are not forms and NUL characters with a 4xx and a message", async () => {
    const withAction = routes.filter((r) => r.module.action);
    expect(withAction.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const file of Object.keys(samples)) {
      if (!withAction.some((r) => r.file === file)) {
        problems.push(`${file}: has a sample here but no action in app/routes.ts`);
      }
    }
    getEnv();
    const errorLog = vi.spyOn(logger, "error");
    let sent = 0;
    for (const route of withAction) {
      const makeSample = samples[route.file];
      if (!makeSample) {
        problems.push(`${route.file}: has an action but no sample in this test; add one`);
        continue;
      }
      const sample = await makeSample();
      await withEnv(sample.env, async () => {
        for (const variant of variantsOf(sample.fields)) {
          const logged = errorLog.mock.calls.length;
          const res = await post(sample.path, { ...sample, ...variant });
          const text = await res.text();
          sent++;
          const expected = [variant.message, ...(sample.ownMessages ?? [])];
          const what = `POST ${sample.path} with ${variant.name}`;
          if (res.status < 400 || res.status > 499) {
            problems.push(`${what}: answered ${res.status}`);
          } else if (!expected.some((m) => text.includes(m))) {
            problems.push(`${what}: answered ${res.status} without saying why`);
          }
          if (errorLog.mock.calls.length > logged) problems.push(`${what}: logged an error`);
        }
      });
    }
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(withAction.length * 4);
  }, 180_000);

  it("a GET or HEAD to an address that only takes POST is 405 with Allow, and no error in the log", async () => {
    // Resource routes (no page) with an action and no loader of their own.
    const postOnlyRoutes = routes.filter(
      (r) =>
        r.module.action &&
        !r.module.default &&
        (!r.module.loader || r.module.loader === (postOnly as unknown)),
    );
    expect(postOnlyRoutes.map((r) => r.pattern)).toEqual(
      expect.arrayContaining(["/api/uploads", "/api/webhooks/stripe", "/api/webhooks/warriorplus"]),
    );
    getEnv();
    const errorLog = vi.spyOn(logger, "error");
    for (const route of postOnlyRoutes) {
      for (const method of ["GET", "HEAD"]) {
        const res = await app.request(`${origin}${route.pattern}`, { method });
        expect(res.status, `${method} ${route.pattern}`).toBe(405);
        expect(res.headers.get("allow"), `${method} ${route.pattern}`).toBe("POST");
      }
    }
    expect(errorLog).not.toHaveBeenCalled();
  });
});
