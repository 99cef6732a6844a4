import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { cookieHeader } from "~/test/helpers";
import { checkForm, formRefusal, redirectWithNotice, takeNotice } from "./forms.server";

function formOf(fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

describe("a refused form", () => {
  it("has field errors, a form error and the typed values, never a secret among them", () => {
    const answer = formRefusal(400, {
      formError: "No",
      values: { email: "a@b.test", password: "p", token: "t", code: "1", confirmCode: "2" },
    });
    expect(answer.init).toMatchObject({ status: 400 });
    expect(answer.data).toEqual({
      fieldErrors: {},
      formError: "No",
      values: { email: "a@b.test" },
    });
  });

  it("from checkForm: 400 with each field's message and the fields named as typed", () => {
    const schema = z.object({ name: z.string().min(2, "Too short"), password: z.string() });
    const checked = checkForm(formOf({ name: "x", password: "secret" }), schema, "all");
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.refusal.data).toEqual({
      fieldErrors: { name: "Too short" },
      formError: null,
      values: { name: "x" },
    });
  });
});

describe("a notice", () => {
  it("is said once by the page the form redirected to", () => {
    const answer = redirectWithNotice("/admin", "Course created.");
    expect(answer.headers.get("location")).toBe("/admin");
    const cookie = cookieHeader(answer.headers);
    const page = (path: string, header: string) =>
      takeNotice(new Request(`http://localhost:3000${path}`, { headers: { cookie: header } }));
    const taken = page("/admin", cookie);
    expect(taken.notice).toBe("Course created.");
    expect(taken.headers?.get("set-cookie")).toMatch(/ailabs\.admin_notice=;.*Max-Age=0/);
    expect(page("/admin", "").notice).toBeNull();
    // Signed: a cookie the server did not write says nothing.
    expect(page("/admin", "ailabs.admin_notice=You%20won.abc").notice).toBeNull();
  });
});
