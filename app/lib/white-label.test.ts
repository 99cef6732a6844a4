import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  buildWhiteLabelFiles,
  whiteLabelFiles,
  whiteLabelTools,
} from "../../scripts/build-white-label";
import { unzip } from "../test/unzip";

// The 12-in-1 White Label Package's downloads: a working starter per tool and
// the marketing pack, made at build time.

const toolNames = [
  "Content Generator",
  "Image Creator",
  "Chatbot Assistant",
  "Email Writer",
  "SEO Optimizer",
  "Social Media Manager",
  "Video Script Generator",
  "Product Description Writer",
  "Landing Page Builder",
  "Business Name Generator",
  "Ad Copy Creator",
  "Market Research Tool",
];

/** Waits for the started tool to say where it listens. */
function started(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("http://localhost:")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the tool exited with ${code}`)));
  });
}

describe("the white-label package", () => {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "white-label-"));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));
  const written = buildWhiteLabelFiles(outDir);

  it("has the twelve tools the specification names, each configured: every placeholder is a field", () => {
    expect(whiteLabelTools().map((t) => t.name)).toEqual(toolNames);
    expect(written.map((f) => path.basename(f))).toEqual(whiteLabelFiles());
    for (const file of written.slice(0, 12)) {
      const slug = path.basename(file, ".zip");
      const files = unzip(readFileSync(file));
      for (const name of [
        "server.js",
        "README.md",
        "package.json",
        "branding.config.json",
        "tool.config.json",
        "public/index.html",
        "public/app.js",
        "public/styles.css",
      ]) {
        expect(files.has(`${slug}/${name}`), `${slug}/${name}`).toBe(true);
      }
      const tool = JSON.parse(files.get(`${slug}/tool.config.json`)?.toString() ?? "{}");
      const placeholders = [...String(tool.prompt).matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(new Set(placeholders), slug).toEqual(
        new Set(tool.fields.map((f: { name: string }) => f.name)),
      );
      expect(files.get(`${slug}/README.md`)?.toString()).toContain(`# ${tool.name}`);
      expect(JSON.parse(files.get(`${slug}/package.json`)?.toString() ?? "{}").name).toBe(slug);
    }
    const pack = unzip(readFileSync(written[12] ?? ""));
    expect([...pack.keys()].sort()).toEqual([
      "marketing-pack/launch-emails.md",
      "marketing-pack/sales-page.md",
      "marketing-pack/social-posts.md",
      "marketing-pack/tools.md",
    ]);
    expect(pack.get("marketing-pack/tools.md")?.toString()).toContain(
      "12. **Market Research Tool**",
    );
  });

  it("a tool unzips, runs with Node alone, shows its form under the buyer's brand and answers", async () => {
    const slug = "email-writer";
    const files = unzip(readFileSync(path.join(outDir, `${slug}.zip`)));
    const dir = mkdtempSync(path.join(os.tmpdir(), "tool-"));
    for (const [name, data] of files) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), data);
    }
    // Rebranded as a buyer would.
    const branding = path.join(dir, slug, "branding.config.json");
    writeFileSync(
      branding,
      JSON.stringify({ ...JSON.parse(readFileSync(branding, "utf8")), appName: "Mailsmith" }),
    );
    const port = 30_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, ["server.js"], {
      cwd: path.join(dir, slug),
      env: { PATH: process.env.PATH ?? "", PORT: String(port) },
    });
    try {
      await started(child);
      const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(page).toContain("<title>Mailsmith · Email Writer</title>");
      for (const label of ["Type", "Sender", "Recipient", "Subject", "Goal", "Length in words"]) {
        expect(page).toContain(`>${label}</label>`);
      }
      const answer = await fetch(`http://127.0.0.1:${port}/api/generate`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          type: "sales",
          sender: "Ann",
          recipient: "Bob",
          subject: "Pricing",
          goal: "Book a call",
          words: "100",
        }),
      });
      expect(answer.status).toBe(200);
      expect((await answer.json()).text).toContain(
        "Write a sales e-mail from Ann to Bob about Pricing. Goal: Book a call. Keep it under 100 words.",
      );
      const refused = await fetch(`http://127.0.0.1:${port}/api/generate`, {
        method: "POST",
        body: JSON.stringify({ type: "sales" }),
      });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toBe("Please fill in Sender.");
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
