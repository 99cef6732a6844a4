import { describe, expect, it } from "vitest";
import { isFormAnswer } from "~/lib/form-answer";
import { type AppRoute, loadAppRoutes } from "~/test/app-handler";
import { appRequest, createUser, run } from "~/test/helpers";

// Every form of the site, refused, answers in one shape (FormAnswer, made by
// formRefusal in app/server/forms.server.ts): { fieldErrors, formError, values },
// with a 4xx status and never the password that was typed.

/** Actions that take no form a person fills in, with the reason. */
const notForms: Record<string, string> = {
  "/api/webhooks/stripe": "Stripe's signed event, answered in plain text to Stripe",
  "/api/webhooks/warriorplus": "WarriorPlus's notification, answered in plain text to it",
  "/email/unsubscribe": "a mail client's one-click POST (RFC 8058), answered in plain text",
  "/logout": "no fields: always signs out and goes home",
  "/*": "no page: a form posted to an unknown path goes home",
};

const typedPassword = "typed-password-never-sent-back";

/** A form every action refuses: a NUL character is refused in any field (parseForm). */
const refusedForm = {
  probe: "\u0000",
  email: "someone@example.test",
  password: typedPassword,
  confirmPassword: typedPassword,
};

function requestFor(route: AppRoute, cookie: string) {
  const params: Record<string, string> = {};
  const path = route.pattern.replace(/:(\w+)/g, (_, name: string) => {
    params[name] = crypto.randomUUID();
    return params[name];
  });
  return { request: appRequest(path, { cookie, form: refusedForm }), params, context: {} };
}

describe("a refused form", () => {
  it("answers { fieldErrors, formError, values } with a 4xx, from every route's action", async () => {
    const routes = (await loadAppRoutes()).filter((r) => r.module.action);
    const forms = routes.filter((r) => !(r.pattern in notForms));
    expect(forms.map((r) => r.pattern)).toContain("/signup");
    expect(routes.map((r) => r.pattern)).toEqual(expect.arrayContaining(Object.keys(notForms)));
    // An admin passes every guard (signed in, member, admin, recent proof).
    const admin = await createUser({ isAdmin: true });
    for (const route of forms) {
      const action = route.module.action as (args: unknown) => Promise<unknown>;
      const answer = (await run(() => action(requestFor(route, admin.cookie)))) as {
        data?: unknown;
        init?: { status?: number };
      };
      expect(answer, route.pattern).not.toBeInstanceOf(Response);
      expect(isFormAnswer(answer.data), `${route.pattern}: ${JSON.stringify(answer.data)}`).toBe(
        true,
      );
      expect(answer.init?.status, route.pattern).toBeGreaterThanOrEqual(400);
      expect(answer.init?.status, route.pattern).toBeLessThan(500);
      expect(JSON.stringify(answer.data), route.pattern).not.toContain(typedPassword);
    }
  });
});
