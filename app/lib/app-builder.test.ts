import { describe, expect, it } from "vitest";
import { buildAppBuilderUrl } from "./app-builder";

describe("buildAppBuilderUrl", () => {
  it("carries the prompt as ?prompt=", () => {
    const url = buildAppBuilderUrl("https://bolt.new", "A todo app");
    expect(url).toBe("https://bolt.new/?prompt=A+todo+app");
  });

  it("keeps quotes, ampersands, emoji and new lines intact", () => {
    const prompt = `Build "Tasks & Notes" 🚀\nline two?#=%+`;
    const url = new URL(buildAppBuilderUrl("https://bolt.new", prompt));
    expect(url.searchParams.get("prompt")).toBe(prompt);
    expect(url.hash).toBe("");
    expect([...url.searchParams.keys()]).toEqual(["prompt"]);
  });

  it("keeps the base URL's path and query", () => {
    const url = new URL(buildAppBuilderUrl("https://example.com/new?ref=ailabs", "x & y"));
    expect(url.pathname).toBe("/new");
    expect(url.searchParams.get("ref")).toBe("ailabs");
    expect(url.searchParams.get("prompt")).toBe("x & y");
  });
});
