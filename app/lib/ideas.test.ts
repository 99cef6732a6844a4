import { describe, expect, expectTypeOf, it } from "vitest";
import {
  complexities,
  defaultFilters,
  generateIdeas,
  type IdeaFilters,
  ideaFields,
  monetizationModels,
  type SaasIdea,
  sampleIdeas,
  slugify,
} from "./ideas";

it("ideaFields names every field of an idea", () => {
  expectTypeOf<(typeof ideaFields)[number]>().toEqualTypeOf<keyof SaasIdea>();
  expect(new Set(ideaFields).size).toBe(ideaFields.length);
});

function expectComplete(idea: SaasIdea) {
  for (const field of ideaFields) {
    const value = idea[field];
    if (Array.isArray(value)) {
      expect(value.length, field).toBeGreaterThan(0);
      for (const item of value) expect(item.trim(), field).not.toBe("");
    } else {
      expect(value.trim(), field).not.toBe("");
    }
  }
}

describe("generateIdeas", () => {
  const filters: IdeaFilters = {
    ...defaultFilters,
    industry: "healthcare",
    targetAudience: "freelancers",
  };

  it("gives the same five ideas for the same filters and seed", () => {
    const a = generateIdeas(filters, 42);
    expect(a).toHaveLength(5);
    expect(generateIdeas(filters, 42)).toEqual(a);
    expect(generateIdeas(filters, 43)).not.toEqual(a);
    expect(new Set(a.map((i) => i.id)).size).toBe(5);
    expect(new Set(a.map((i) => i.title)).size).toBeGreaterThan(1);
  });

  it("fills every field for every complexity and monetization model", () => {
    const strategies = new Set<string>();
    for (const complexity of complexities) {
      for (const monetizationModel of monetizationModels) {
        const ideas = generateIdeas({ ...defaultFilters, complexity, monetizationModel }, 7);
        for (const idea of ideas) expectComplete(idea);
        strategies.add(ideas[0]?.monetizationStrategy.split(":")[0] ?? "");
      }
    }
    expect(strategies.size).toBe(4);
  });

  it("gives 1-2 months for low and 6-8 months for high complexity", () => {
    expect(generateIdeas({ ...filters, complexity: "low" }, 1)[0]?.estimatedDevTime).toBe(
      "1-2 months",
    );
    expect(generateIdeas({ ...filters, complexity: "high" }, 1)[0]?.estimatedDevTime).toBe(
      "6-8 months",
    );
    expect(generateIdeas(filters, 1)[0]?.estimatedDevTime).toBe("3-4 months");
  });

  it("reads differently for healthcare freelancers and education teachers", () => {
    const health = generateIdeas(filters, 5);
    const school = generateIdeas(
      { ...defaultFilters, industry: "education", targetAudience: "teachers" },
      5,
    );
    const healthText = JSON.stringify(health);
    const schoolText = JSON.stringify(school);
    expect(healthText).toContain("freelancers");
    expect(healthText).toMatch(/healthcare/i);
    expect(healthText).not.toContain("teachers");
    expect(schoolText).toContain("teachers");
    expect(schoolText).toMatch(/lesson|grading/i);
    expect(health.map((i) => i.title)).not.toEqual(school.map((i) => i.title));
  });

  it("uses the chosen tech stack and problem", () => {
    const ideas = generateIdeas(
      { ...filters, techStack: ["Svelte", "Firebase"], problemToSolve: "missed appointments" },
      3,
    );
    for (const idea of ideas) {
      expect(idea.techStack).toEqual(["Svelte", "Firebase"]);
      expect(idea.problemSolved).toContain("missed appointments");
    }
  });

  it("refuses filters it cannot use", () => {
    expect(() => generateIdeas({ ...filters, industry: "x".repeat(101) }, 1)).toThrow(
      /longer than 100/,
    );
  });
});

describe("sample ideas and slugs", () => {
  it("has complete sample ideas", () => {
    expect(sampleIdeas).toHaveLength(5);
    for (const idea of sampleIdeas) expectComplete(idea);
  });

  it("slugs titles into file names", () => {
    expect(slugify("AI Email Assistant")).toBe("ai-email-assistant");
    expect(slugify("  Café & Co: AI!  ")).toBe("cafe-co-ai");
    expect(slugify("🚀")).toBe("idea");
  });
});
