import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { appRequest, createUser, redirectTarget, run } from "~/test/helpers";
import { loader as courseLoader } from "./course";
import Dashboard from "./dashboard";
import { courseNotFoundQuery } from "./notices";

type Props = Parameters<typeof Dashboard>[0];

function renderAt(url: string): string {
  const props = {
    loaderData: { courses: [], failed: false, products: [] },
    params: {},
    matches: [],
  };
  return renderToString(
    createElement(
      MemoryRouter,
      { initialEntries: [url] },
      createElement(Dashboard, props as unknown as Props),
    ),
  );
}

describe("a course that cannot be found", () => {
  it("sends the member to the dashboard, which says 'Course not found'", async () => {
    const member = await createUser({ paid: true });
    const missing = "00000000-0000-4000-8000-000000000000";
    const request = appRequest(`/course/${missing}`, { cookie: member.cookie });
    const result = await run(() =>
      courseLoader({ request, params: { courseId: missing }, context: {} } as never),
    );
    const target = redirectTarget(result);
    expect(target).toBe(`/dashboard?${courseNotFoundQuery}`);
    const html = renderAt(target ?? "");
    expect(html).toContain('role="alert"');
    expect(html).toContain("Course not found");
  });

  it("says nothing on a plain dashboard", () => {
    expect(renderAt("/dashboard")).not.toContain("Course not found");
    expect(renderAt("/dashboard?notice=other")).not.toContain("Course not found");
  });
});
