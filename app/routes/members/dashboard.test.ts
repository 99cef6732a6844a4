import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import Dashboard from "./dashboard";

type Props = Parameters<typeof Dashboard>[0];

function render(loaderData: Props["loaderData"]): string {
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

  it("shows a card per course with its progress", () => {
    const html = render({
      courses: [
        {
          id: "c1",
          title: "First",
          description: "About",
          coverImageUrl: null,
          coverAlt: "",
          totalChapters: 4,
          doneChapters: 1,
        },
      ],
      failed: false,
    });
    expect(html).toContain('href="/course/c1"');
    expect(html).toContain(`aria-valuetext="1 of 4 chapters done"`);
    expect(html).not.toContain("Error loading courses");
  });
});
