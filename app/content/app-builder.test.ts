import { describe, expect, it } from "vitest";
import { maxPromptLength } from "~/lib/app-builder";
import { examplePrompts } from "./app-builder";

describe("app builder example prompts", () => {
  it("have distinct labels and fit the prompt box", () => {
    expect(examplePrompts.length).toBeGreaterThan(0);
    expect(new Set(examplePrompts.map((e) => e.label)).size).toBe(examplePrompts.length);
    for (const example of examplePrompts) {
      expect(example.prompt.length).toBeGreaterThan(0);
      expect(example.prompt.length).toBeLessThanOrEqual(maxPromptLength);
    }
  });
});
