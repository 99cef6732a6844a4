import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildBonusFiles, textBonuses } from "../../scripts/build-bonus-zip";
import { unzip } from "../test/unzip";

describe("the bonus build", () => {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "bonus-zip-"));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("zips the complete Todo List boilerplate", () => {
    const files = unzip(readFileSync(buildBonusFiles(outDir)));
    for (const name of [
      "todoersproject/README.md",
      "todoersproject/package.json",
      "todoersproject/branding.config.json",
      "todoersproject/server/index.js",
      "todoersproject/server/auth.js",
      "todoersproject/server/store.js",
      "todoersproject/server/schema.sql",
      "todoersproject/web/index.html",
      "todoersproject/web/src/App.jsx",
      "todoersproject/web/src/main.jsx",
    ]) {
      expect(files.has(name), name).toBe(true);
    }
    expect(files.get("todoersproject/README.md")?.toString()).toContain("npm run dev");
    expect(files.get("todoersproject/server/auth.js")?.toString()).toContain("scrypt");
    expect(files.get("todoersproject/server/schema.sql")?.toString()).toContain(
      "CREATE TABLE todos",
    );
    const branding = JSON.parse(files.get("todoersproject/branding.config.json")?.toString() ?? "");
    expect(branding.appName).toBe("Todoers");
    expect([...files.keys()].some((n) => n.includes("node_modules"))).toBe(false);
  });

  it("copies the text bonuses: 30 days, and four categories of at least ten prompts", () => {
    for (const file of textBonuses)
      expect(readFileSync(path.join(outDir, file)).length).toBeGreaterThan(1000);
    const plan = readFileSync(path.join(outDir, "30-day-launch-plan.txt"), "utf8");
    expect(plan.match(/^Day \d+ - /gm)).toHaveLength(30);
    const vault = readFileSync(path.join(outDir, "ai-prompt-engineering-vault.txt"), "utf8");
    for (const category of [1, 2, 3, 4]) {
      expect(vault.match(new RegExp(`^${category}\\.\\d+ `, "gm"))?.length).toBeGreaterThanOrEqual(
        10,
      );
    }
  });
});
