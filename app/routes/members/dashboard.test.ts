import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { nextStep } from "~/components/members/course-card";
import Dashboard from "./dashboard";

type Props = Parameters<typeof Dashboard>[0];

type Data = Props["loaderData"];

function render(given: Omit<Data, "products"> & { products?: Data["products"] }): string {
  const loaderData = { products: [], ...given };
  const props = { loaderData, params: {}, matches: [] } as unknown as Props;
  return renderToString(createElement(MemoryRouter, null, createElement(Dashboard, props)));
}

describe("the dashboard page", () => {
  it("shows the documented messages when the course list failed", () => {
    const html = render({ courses: [], failed: true });
    expect(html).toContain('role="alert"');
    expect(html).toContain("Error loading courses");
    expect(html).toContain("Please try refreshing the page.");
  });

  const card = {
    id: "c1",
    title: "First",
    description: "About",
    coverImageUrl: null,
    coverAlt: "",
    totalChapters: 4,
    doneChapters: 1,
    firstChapterId: "ch1",
    visited: true,
    lastChapterId: "ch3",
    locked: null,
  };

  it("shows a card per course: title linking to the course, progress, Continue to the last chapter", () => {
    const html = render({ courses: [card], failed: false });
    expect(html).toContain('href="/course/c1"');
    expect(html).toContain(`aria-valuetext="1 of 4 chapters done"`);
    expect(html).toMatch(/href="\/course\/c1\?chapter=ch3"[^>]*>Continue</);
    expect(html).not.toContain("Error loading courses");
  });

  it("draws a cover, with its alt text, or a decorative stand-in", () => {
    const withCover = render({
      courses: [{ ...card, coverImageUrl: "/uploads/cover.png", coverAlt: "A laptop on a desk" }],
      failed: false,
    });
    expect(withCover).toContain('src="/uploads/cover.png"');
    expect(withCover).toContain('alt="A laptop on a desk"');
    const without = render({ courses: [card], failed: false });
    expect(without).not.toContain("<img");
    expect(without).toMatch(/<div aria-hidden="true" data-testid="cover-fallback"/);
  });
});

describe("a Custom SaaS buyer's dashboard", () => {
  it("leads to their build, and nobody else's does", () => {
    const buyer = render({
      courses: [],
      failed: false,
      products: ["lifetime-access", "custom-saas"],
    });
    expect(buyer).toContain("Your Custom SaaS Build");
    expect(buyer).toMatch(/href="\/coaching"[^>]*>Open your build</);
    expect(render({ courses: [], failed: false, products: ["lifetime-access"] })).not.toContain(
      "/coaching",
    );
  });
});

describe("a locked course", () => {
  const locked = {
    id: "c9",
    title: "12-in-1 White Label Package",
    description: "Twelve tools",
    coverImageUrl: null,
    coverAlt: "",
    totalChapters: 12,
    doneChapters: 0,
    firstChapterId: "ch1",
    visited: false,
    lastChapterId: null,
  };

  it("is a card that names its product and leads to its offer page, not to the course", () => {
    const html = render({
      courses: [
        {
          ...locked,
          locked: {
            unlock: {
              product: "white-label",
              name: "12-in-1 White Label Package",
              href: "/white-label-upsell",
            },
          },
        },
      ],
      failed: false,
    });
    expect(html).not.toContain('href="/course/c9');
    expect(html).toContain("Locked");
    expect(html).toMatch(/href="\/white-label-upsell"[^>]*>Unlock</);
    expect(html).not.toContain("progressbar");
  });

  it("says how to get it when its product has no page of its own", () => {
    const html = render({
      courses: [
        { ...locked, locked: { unlock: { product: "bump-vip", name: "VIP Upgrade", href: null } } },
      ],
      failed: false,
    });
    expect(html).toContain("Comes with the VIP Upgrade");
    expect(html).not.toContain(">Unlock<");
  });
});

describe("a card's button", () => {
  const base = {
    id: "c1",
    title: "First",
    description: "",
    coverImageUrl: null,
    coverAlt: "",
    totalChapters: 3,
    doneChapters: 0,
    firstChapterId: "ch1",
    visited: false,
    lastChapterId: null,
    locked: null,
  };

  it("starts at the first chapter before the first visit", () => {
    expect(nextStep(base)).toEqual({ label: "Start course", href: "/course/c1?chapter=ch1" });
  });

  it("continues at the chapter last opened, or lets the course page choose when it is gone", () => {
    expect(nextStep({ ...base, visited: true, lastChapterId: "ch2" })).toEqual({
      label: "Continue",
      href: "/course/c1?chapter=ch2",
    });
    expect(nextStep({ ...base, visited: true })).toEqual({
      label: "Continue",
      href: "/course/c1",
    });
    // Progress without a visit row (marked done elsewhere) is a started course too.
    expect(nextStep({ ...base, doneChapters: 1 })?.label).toBe("Continue");
  });

  it("offers a review from the first chapter once every chapter is done", () => {
    expect(nextStep({ ...base, visited: true, lastChapterId: "ch3", doneChapters: 3 })).toEqual({
      label: "Review",
      href: "/course/c1?chapter=ch1",
    });
  });

  it("is absent for a course without chapters", () => {
    expect(nextStep({ ...base, totalChapters: 0, firstChapterId: null })).toBeNull();
  });
});
