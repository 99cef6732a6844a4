import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { maxSavedIdeas } from "~/lib/idea-forms";
import { defaultFilters, generateIdeas, type SaasIdea, sampleIdeas } from "~/lib/ideas";
import { getDb } from "~/server/db/db.server";
import { savedIdea } from "~/server/db/schema";
import { appRequest, createUser, redirectTarget, run } from "~/test/helpers";
import { action, loader } from "./app-idea-generator";

type Args = Parameters<typeof action>[0];
const args = (request: Request) => ({ request, params: {}, context: {} }) as unknown as Args;

const post = (cookie: string, form: Record<string, string>) =>
  run(() => action(args(appRequest("/app-idea-generator", { cookie, form }))));
const load = async (cookie: string) =>
  (await loader(args(appRequest("/app-idea-generator", { cookie })) as never)) as {
    saved: { savedId: string; idea: SaasIdea }[];
  };
const statusOf = (result: unknown) =>
  (result as { init?: { status?: number } } | null)?.init?.status ?? 200;

describe("saved ideas", () => {
  it("saves an idea to the member's account, once, lists and removes it", async () => {
    const member = await createUser({ paid: true });
    const [idea] = generateIdeas({ ...defaultFilters, industry: "fitness" }, 11);
    const form = { intent: "save", idea: JSON.stringify(idea) };
    expect(statusOf(await post(member.cookie, form))).toBe(200);
    // Saving the same idea again keeps one copy.
    expect(statusOf(await post(member.cookie, form))).toBe(200);
    const { saved } = await load(member.cookie);
    expect(saved).toHaveLength(1);
    expect(saved[0]?.idea).toEqual(idea);

    const removed = await post(member.cookie, { intent: "remove", id: saved[0]?.savedId ?? "" });
    expect(statusOf(removed)).toBe(200);
    expect((await load(member.cookie)).saved).toEqual([]);
  });

  it("keeps each member's ideas to themselves", async () => {
    const [owner, other] = [await createUser({ paid: true }), await createUser({ paid: true })];
    await post(owner.cookie, { intent: "save", idea: JSON.stringify(sampleIdeas[1]) });
    const [kept] = (await load(owner.cookie)).saved;
    expect((await load(other.cookie)).saved).toEqual([]);
    // Another member cannot remove it: 404, and it stays.
    const refused = await post(other.cookie, { intent: "remove", id: kept?.savedId ?? "" });
    expect(statusOf(refused)).toBe(404);
    expect((await load(owner.cookie)).saved).toHaveLength(1);
  });

  it("refuses what is not an idea with 400 and a message", async () => {
    const member = await createUser({ paid: true });
    const withNul = (field: "title" | "description") =>
      JSON.stringify({ ...sampleIdeas[0], [field]: "a\u0000b" });
    // JSON spells the NUL as \u0000: the form field holds none, the parsed idea does.
    expect(withNul("title")).toContain("\\u0000");
    for (const idea of [
      "{",
      "null",
      JSON.stringify({ ...sampleIdeas[0], title: "" }),
      withNul("title"),
      withNul("description"),
      JSON.stringify({ ...sampleIdeas[0], techStack: ["React", "x\u0000"] }),
    ]) {
      const refused = await post(member.cookie, { intent: "save", idea });
      expect(statusOf(refused)).toBe(400);
      expect((refused as { data: { formError: string } }).data.formError).toBe(
        "This idea could not be read. Generate it again and save it.",
      );
    }
    expect(statusOf(await post(member.cookie, { intent: "remove", id: "x" }))).toBe(400);
    expect(statusOf(await post(member.cookie, { intent: "other" }))).toBe(400);
    expect((await load(member.cookie)).saved).toEqual([]);
  });

  it(`keeps at most ${maxSavedIdeas} ideas`, async () => {
    const member = await createUser({ paid: true });
    const db = await getDb();
    const base = sampleIdeas[0] as SaasIdea;
    await db.insert(savedIdea).values(
      Array.from({ length: maxSavedIdeas }, (_, i) => ({
        userId: member.id,
        title: base.title,
        idea: { ...base, id: `kept-${i}` },
      })),
    );
    const refused = await post(member.cookie, { intent: "save", idea: JSON.stringify(base) });
    expect(statusOf(refused)).toBe(409);
    const rows = await db.select().from(savedIdea).where(eq(savedIdea.userId, member.id));
    expect(rows).toHaveLength(maxSavedIdeas);
  });

  it("is for members only", async () => {
    const visitor = await createUser();
    const form = { intent: "save", idea: JSON.stringify(sampleIdeas[0]) };
    expect(redirectTarget(await post(visitor.cookie, form))).toBe("/payment-options");
    expect(redirectTarget(await post("", form))).toMatch(/^\/login/);
  });
});
