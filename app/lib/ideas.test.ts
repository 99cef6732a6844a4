import { describe, expect, expectTypeOf, it } from "vitest";
import { domains } from "~/content/ideas";
import {
  complexities,
  defaultFilters,
  generateIdeas,
  type IdeaFilters,
  ideaFields,
  ideaToMarkdown,
  inSentence,
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

describe("the ideas' English", () => {
  const industries = ["", ...Object.keys(domains), "pet grooming", "SaaS", "Personal Training."];
  const audiences = ["", "Personal Trainers", "a freelancer", "CFOs", "Dentists in rural Texas"];
  const problems = [
    "",
    "clients skip workouts",
    "Missed appointments.",
    "losing leads",
    "they can't find good hires!",
  ];
  const textOf = (idea: SaasIdea) =>
    ideaFields
      .filter((f) => f !== "id" && f !== "techStack")
      .flatMap((f) => idea[f])
      .map((t) => String(t));

  const sentenceFields = [
    "description",
    "targetMarket",
    "problemSolved",
    "monetizationStrategy",
    "marketPotential",
    "competitorAnalysis",
  ] as const;
  const brokenPatterns: [string, RegExp][] = [
    ["a missing value", /undefined|null|NaN|\[object/],
    [
      "doubled spaces or punctuation, or a space before punctuation",
      / {2}|\.\.|,,|\s[.,:;!?]|[.!?][.,:;]/,
    ],
    ["a doubled word", /\b(\w+) \1\b/i],
    ["a sentence starting in lower case", /[.!?] +[a-z]/],
    ["a clause after 'struggle with' (the issue's example)", /struggles? with/],
  ];

  /** What reads wrong in one idea made from `audience` and `problem` (as in a sentence). */
  function mistakes(idea: SaasIdea, audience: string, problem: string): string[] {
    const found: string[] = [];
    const subject = audience
      ? new RegExp(`${audience} (struggle|rely|use|feel|lose|tell|need|want)\\b`, "i")
      : null;
    for (const text of textOf(idea)) {
      for (const [what, pattern] of brokenPatterns)
        if (pattern.test(text)) found.push(`${what}: ${text}`);
      if (!/^[A-Z0-9$]/.test(text)) found.push(`starts in lower case: ${text}`);
      // Free text never governs a verb: the audience is never a subject.
      if (subject?.test(text)) found.push(`the audience as a subject: ${text}`);
      // The problem, which may be any phrase or clause, only ever follows a colon.
      if (problem) {
        for (let at = text.indexOf(problem); at >= 0; at = text.indexOf(problem, at + 1)) {
          if (text.slice(Math.max(0, at - 2), at) !== ": ")
            found.push(`the problem joined: ${text}`);
        }
      }
    }
    for (const field of sentenceFields) {
      if (!/[.!?]$/.test(idea[field])) found.push(`${field} without a full stop`);
    }
    if (problem && !idea.problemSolved.includes(`The problem: ${problem}.`))
      found.push("problem lost");
    if (audience && !idea.targetMarket.toLowerCase().includes(audience.toLowerCase())) {
      found.push("audience lost");
    }
    return found;
  }

  it("reads correctly for every combination of filters", () => {
    let checked = 0;
    const failures: string[] = [];
    for (const industry of industries)
      for (const targetAudience of audiences)
        for (const problemToSolve of problems)
          for (const complexity of complexities)
            for (const monetizationModel of monetizationModels) {
              const filters = {
                ...defaultFilters,
                industry,
                targetAudience,
                problemToSolve,
                complexity,
                monetizationModel,
              };
              const audience = inSentence(targetAudience);
              const problem = inSentence(problemToSolve);
              for (const idea of generateIdeas(filters, checked)) {
                expectComplete(idea);
                for (const m of mistakes(idea, audience, problem)) {
                  failures.push(`${JSON.stringify(filters)} -> ${m}`);
                }
              }
              checked++;
            }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(checked).toBe(
      industries.length *
        audiences.length *
        problems.length *
        complexities.length *
        monetizationModels.length,
    );
  });

  it("keeps acronyms and lowers only the capitals of typing", () => {
    expect(inSentence("Personal Trainers")).toBe("personal trainers");
    expect(inSentence("Dentists in rural Texas")).toBe("dentists in rural Texas");
    expect(inSentence("CFOs")).toBe("CFOs");
    expect(inSentence("  Missed   appointments. ")).toBe("missed appointments");
    expect(inSentence("they can't find good hires!")).toBe("they can't find good hires");
  });

  it("no longer writes the joins seen before", () => {
    const text = JSON.stringify(
      generateIdeas(
        {
          ...defaultFilters,
          industry: "fitness",
          targetAudience: "Personal Trainers",
          problemToSolve: "clients skip workouts",
        },
        1,
      ),
    );
    expect(text).not.toContain("Personal Trainers struggle with clients skip workouts");
    expect(text).toContain("The problem: clients skip workouts.");
    expect(text).not.toContain("runs on autopilot");
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

describe("ideaToMarkdown", () => {
  it("writes every field under its heading", () => {
    const idea = sampleIdeas[0] as SaasIdea;
    const md = ideaToMarkdown(idea);
    expect(md.startsWith(`# ${idea.title}\n\n${idea.description}\n`)).toBe(true);
    for (const heading of [
      "Target market",
      "Problem solved",
      "Key features",
      "Monetization strategy",
      "Estimated development time",
      "Market potential",
      "Competitor analysis",
      "Tech stack",
    ]) {
      expect(md).toContain(`\n## ${heading}\n\n`);
    }
    for (const feature of idea.keyFeatures) expect(md).toContain(`\n- ${feature}`);
    expect(md).toContain("\n## Tech stack\n\n- Next.js\n- PostgreSQL\n");
  });

  it("escapes Markdown in the text so it shows as written", () => {
    const md = ideaToMarkdown({
      ...(sampleIdeas[0] as SaasIdea),
      title: "My *bold* [link](http://x)",
      keyFeatures: ["# not a heading", "1. not a list"],
    });
    expect(md).toContain("# My \\*bold\\* \\[link\\]\\(http://x\\)\n");
    expect(md).toContain("- \\# not a heading");
    expect(md).toContain("- 1\\. not a list");
  });
});
