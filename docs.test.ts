import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// docs/architecture.md says what the code is: these checks fail when the two part.

const root = import.meta.dirname;
const architecture = readFileSync(path.join(root, "docs/architecture.md"), "utf8");

/** The text of one `## ` section of docs/architecture.md. */
function section(title: string): string {
  const start = architecture.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no section "${title}"`);
  const end = architecture.indexOf("\n## ", start + 1);
  return architecture.slice(start, end < 0 ? undefined : end);
}

describe("the decisions table of docs/architecture.md", () => {
  const files = readdirSync(path.join(root, "docs/decisions")).filter((f) =>
    /^\d{3}-.+\.md$/.test(f),
  );
  const rows = [...section("Decisions").matchAll(/^\| (\d{3}) \| \[[^\]]+\]\(([^)]+)\) \|/gm)].map(
    (m) => ({ number: m[1], link: m[2] ?? "" }),
  );

  it("has a row, with its number and link, for every decision in docs/decisions/", () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(rows, file).toContainEqual({ number: file.slice(0, 3), link: `decisions/${file}` });
    }
  });

  it("links every row to a decision that exists", () => {
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(existsSync(path.join(root, "docs", row.link)), row.link).toBe(true);
      expect(row.link.startsWith(`decisions/${row.number}-`), row.link).toBe(true);
    }
  });
});

/** Every source file under `dir` (tests and the test harness left out). */
function sources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (rel !== "app/test") found.push(...sources(rel));
    } else if (/\.tsx?$/.test(entry.name) && !/(\.test|fixtures)\.tsx?$/.test(entry.name)) {
      found.push(rel);
    }
  }
  return found;
}

describe("the modules that read the configuration (getEnv)", () => {
  // The bulleted list under "Configuration and logs": each item a path, or a folder's `dir/**`.
  const listed = [
    ...section("Configuration and logs").matchAll(/^(?:- | {2})(`[^\n]+)$/gm),
  ].flatMap((m) => [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((p) => p[1] ?? ""));
  const allowed = (file: string) =>
    listed.some((p) => (p.endsWith("/**") ? file.startsWith(p.slice(0, -2)) : file === p));
  const readers = [...sources("app"), "server.ts", "dev-server.ts", "cli.ts"].filter(
    (file) =>
      file !== "app/server/env.server.ts" &&
      /\bgetEnv\(/.test(readFileSync(path.join(root, file), "utf8")),
  );

  it("are only those docs/architecture.md lists", () => {
    expect(listed).toContain("app/routes/**");
    expect(readers.filter((file) => !allowed(file))).toEqual([]);
  });

  it("lists no module that does not read it", () => {
    const files = listed.filter((p) => !p.endsWith("/**"));
    expect(files.filter((file) => !readers.includes(file))).toEqual([]);
  });
});
