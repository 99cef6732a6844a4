import { describe, expect, it } from "vitest";
import { domains, problemDefaults, products } from "./ideas";

describe("idea generator data", () => {
  it("describes each industry under a lower-case key, with workflows to build on", () => {
    expect(Object.keys(domains).length).toBeGreaterThan(0);
    for (const [key, domain] of Object.entries(domains)) {
      expect(key).toBe(key.toLowerCase());
      expect(domain.label).not.toBe("");
      expect(domain.workflows.length).toBeGreaterThan(0);
    }
  });

  it("has fallback problems and product kinds, none repeated", () => {
    expect(new Set(problemDefaults).size).toBe(problemDefaults.length);
    expect(new Set(products.map((p) => p.noun)).size).toBe(products.length);
  });
});
