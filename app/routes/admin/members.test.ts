import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/server/db/db.server";
import { auditLog } from "~/server/db/schema";
import { appRequest, createUser, purchasesOf, redirectTarget, run } from "~/test/helpers";
import * as members from "./members";

function post(path: string, form: [string, string][], cookie: string) {
  return run(() =>
    members.action({
      request: appRequest(path, { cookie, form }),
      params: {},
      context: {},
    } as never),
  );
}

/** A refusal or a preview as the action returns it: its status and its data. */
function answerOf(result: unknown) {
  const r = result as { init?: { status?: number } | null; data?: unknown };
  return { status: r.init?.status ?? 200, data: r.data as Record<string, unknown> };
}

describe("/admin/members bulk grant and revoke", () => {
  it("previews, then grants once confirmed and returns to the same list; bad input is a 400", async () => {
    const admin = await createUser({ isAdmin: true });
    const one = await createUser({ paid: true });
    const two = await createUser();
    const ticked: [string, string][] = [
      ["member", one.id],
      ["member", two.id],
    ];
    const path = "/admin/members?q=e2e&sort=spend&dir=asc&page=2";

    const preview = answerOf(
      await post(
        path,
        [["intent", "bulk-grant"], ["product", "white-label"], ...ticked],
        admin.cookie,
      ),
    );
    expect(preview.status).toBe(200);
    expect(preview.data.preview).toMatchObject({
      intent: "bulk-grant",
      productName: "12-in-1 White Label Package",
      unchanged: [],
    });
    expect(await purchasesOf(two.id)).toEqual([]);

    for (const [form, message] of [
      [[["intent", "bulk-grant"], ["product", "nope"], ...ticked], "Choose a product"],
      [
        [
          ["intent", "bulk-grant"],
          ["product", "white-label"],
        ],
        "Tick at least one member first",
      ],
      [
        [
          ["intent", "bulk-grant"],
          ["product", "white-label"],
          ["member", "x"],
        ],
        "No such member",
      ],
      [[["intent", "bulk-nothing"], ["product", "white-label"], ...ticked], "Unknown action"],
    ] as [[string, string][], string][]) {
      const refused = answerOf(await post(path, form, admin.cookie));
      expect(refused.status, message).toBe(400);
      expect(refused.data).toMatchObject({ formError: message, bulk: true });
    }

    const done = await post(
      path,
      [["intent", "bulk-grant"], ["product", "white-label"], ["confirm", "yes"], ...ticked],
      admin.cookie,
    );
    expect(redirectTarget(done)).toBe(path);
    for (const u of [one, two]) {
      expect((await purchasesOf(u.id)).filter((p) => p.product === "white-label")).toHaveLength(1);
      const audit = await (await getDb())
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, u.email));
      expect(audit.map((e) => e.kind)).toEqual(["member.grant"]);
    }
  });

  it("is refused to a member", async () => {
    const member = await createUser({ paid: true });
    const form: [string, string][] = [
      ["intent", "bulk-grant"],
      ["product", "custom-saas"],
      ["member", member.id],
      ["confirm", "yes"],
    ];
    const refused = await post("/admin/members", form, member.cookie);
    expect(redirectTarget(refused)).toBe("/dashboard");
    expect((await purchasesOf(member.id)).map((p) => p.product)).toEqual(["lifetime-access"]);
  });
});
