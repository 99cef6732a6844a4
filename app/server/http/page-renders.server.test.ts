import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp } from "~/test/app-handler";
import { createUser, origin, type TestUser } from "~/test/helpers";
import { courseWith } from "../courses/fixtures";
import { setChapterDone } from "../courses/read.server";
import { closeDatabase, getDb } from "../db/db.server";
import { createPageRenders, pageRenders } from "./page-renders.server";

afterAll(closeDatabase);

describe("the kept renders' bounds", () => {
  const page = (text: string) => ({ body: new TextEncoder().encode(text), policy: "p" });

  it("lets the least recently used go first, past its entries or its bytes", () => {
    const renders = createPageRenders({ maxEntries: 2, maxBytes: 10 });
    renders.keep("a", page("aaa"));
    renders.keep("b", page("bbb"));
    expect(renders.get("a")?.policy).toBe("p");
    renders.keep("c", page("ccc"));
    expect([renders.get("a"), renders.get("b"), renders.get("c")].map(Boolean)).toEqual([
      true,
      false,
      true,
    ]);
    renders.keep("d", page("dddddddd"));
    expect(renders.size()).toBe(1);
    expect(renders.bytes()).toBe(8);
    renders.keep("e", page("e".repeat(11)));
    expect(renders.get("e")).toBeUndefined();
  });

  it("renders a page once for the requests that ask for it at once, and again when it was not kept", async () => {
    const renders = createPageRenders();
    let made = 0;
    const render = (keep: boolean) => async () => {
      made += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { page: { ...page(`page ${made}`), status: keep ? 200 : 500 }, keep };
    };
    const failed = await Promise.all([1, 2, 3].map(() => renders.page("a", render(false))));
    // A failed render is nobody else's page: each request renders its own.
    expect(made).toBe(3);
    expect(renders.size()).toBe(0);
    const pages = await Promise.all([1, 2, 3].map(() => renders.page("a", render(true))));
    expect(made).toBe(4);
    expect(new Set(pages.map((p) => new TextDecoder().decode(p.body)))).toEqual(
      new Set(["page 4"]),
    );
    expect(failed.every((p) => "status" in p && p.status === 500)).toBe(true);
    expect(new TextDecoder().decode((await renders.page("a", render(true))).body)).toBe("page 4");
    expect(made).toBe(4);
  });

  it("holds a render a few minutes at most", () => {
    let clock = 0;
    const renders = createPageRenders({ maxAgeMs: 1000, now: () => clock });
    renders.keep("a", page("aaa"));
    clock = 999;
    expect(renders.get("a")).toBeDefined();
    clock = 1000;
    expect(renders.get("a")).toBeUndefined();
    expect(renders.bytes()).toBe(0);
  });
});

const { app } = await createTestApp();

describe("a member page rendered once for everyone whose data is the same", () => {
  beforeEach(() => pageRenders.clear());

  const get = async (path: string, member: TestUser) => {
    const res = await app.request(`${origin}${path}`, { headers: { cookie: member.cookie } });
    expect(res.status, path).toBe(200);
    return { html: await res.text(), csp: res.headers.get("content-security-policy") };
  };
  /** The page as React renders it for this member now, with nothing kept. */
  const rendered = async (path: string, member: TestUser) => {
    pageRenders.clear();
    const page = await get(path, member);
    expect(pageRenders.size()).toBe(1);
    return page;
  };

  it("answers the same page to members on the same chapter with the same chapters done, byte for byte what React renders", async () => {
    const c = await courseWith(["One", "Two", "Three", "Four"]);
    const chapters = c.chapters as string[];
    const db = await getDb();
    const members: TestUser[] = [];
    for (const i of [0, 1, 2]) {
      members.push(await createUser({ paid: true, name: `Name ${i} <b>&"'` }));
    }
    // Random progress, the same for the first two members; the third differs.
    const done = chapters.map(() => Math.random() < 0.5);
    for (const [i, member] of members.entries()) {
      for (const [j, id] of chapters.entries()) {
        const mark = i === 2 && j === 0 ? !done[j] : Boolean(done[j]);
        if (mark) await setChapterDone(db, member.id, id, true, false);
      }
    }
    const [a, b, other] = members as [TestUser, TestUser, TestUser];
    for (const path of [`/course/${c.id}?chapter=${chapters[1]}`, "/dashboard"]) {
      pageRenders.clear();
      const first = await get(path, a);
      expect(pageRenders.size()).toBe(1);
      const second = await get(path, b);
      // The second member's page was not rendered again: it is the first's.
      expect(pageRenders.size()).toBe(1);
      expect(second).toEqual(first);
      // And it is what React renders for that member.
      expect(second).toEqual(await rendered(path, b));
      // It names nobody, and has no nonce: its scripts are allowed by their hashes.
      expect(second.html).not.toContain("Name ");
      expect(second.html).not.toContain("nonce=");
      expect(second.csp).toMatch(/'sha256-/);
      // A member whose progress differs is rendered their own page.
      const third = await get(path, other);
      expect(pageRenders.size()).toBe(2);
      expect(third.html).not.toBe(first.html);
      expect(third).toEqual(await rendered(path, other));
    }
  });

  it("shows a member's own mark on their next page", async () => {
    const c = await courseWith(["One", "Two"]);
    const [one, two] = c.chapters as [string, string];
    const a = await createUser({ paid: true });
    const b = await createUser({ paid: true });
    const path = `/course/${c.id}?chapter=${two}`;
    const before = await get(path, a);
    expect((await get(path, b)).html).toBe(before.html);
    await setChapterDone(await getDb(), a.id, one, true, false);
    const after = await get(path, a);
    expect(after.html).not.toBe(before.html);
    expect(after.html).toContain("(completed)");
    expect((await get(path, b)).html).toBe(before.html);
  });
});
