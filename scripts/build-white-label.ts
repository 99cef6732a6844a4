/**
 * Makes the 12-in-1 White Label Package's downloads from bonus/white-label: one
 * starter per tool (the starter app configured with the tool's name, form and
 * prompt, in tools.json) and the marketing pack, into build/white-label. Run by
 * `npm run build`; `tsx scripts/build-white-label.ts [outDir]` by hand.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createZip, type ZipEntry } from "./build-bonus-zip";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = path.join(root, "bonus", "white-label");

export type ToolField = {
  name: string;
  label: string;
  type: "text" | "textarea" | "select";
  options?: string[];
};
export type Tool = {
  slug: string;
  name: string;
  tagline: string;
  prompt: string;
  fields: ToolField[];
};

/** The twelve tools, in the package's order. */
export function whiteLabelTools(): Tool[] {
  return JSON.parse(readFileSync(path.join(sourceDir, "tools.json"), "utf8")) as Tool[];
}

/** Every file under dir, relative to it with forward slashes, sorted. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory()
        ? filesUnder(path.join(dir, d.name), `${prefix}${d.name}/`)
        : [`${prefix}${d.name}`],
    )
    .sort();
}

/** The starter's files for one tool: its config written, its name in the README and package. */
function toolEntries(tool: Tool): ZipEntry[] {
  const starter = path.join(sourceDir, "starter");
  const fill = (text: string) =>
    text
      .replaceAll("{{toolName}}", tool.name)
      .replaceAll("{{tagline}}", tool.tagline)
      .replaceAll("{{slug}}", tool.slug);
  const entries = filesUnder(starter).map((file) => {
    const raw = readFileSync(path.join(starter, file));
    const data =
      file === "README.md" || file === "package.json"
        ? Buffer.from(fill(raw.toString("utf8")))
        : raw;
    return { name: `${tool.slug}/${file}`, data };
  });
  const config = {
    name: tool.name,
    tagline: tool.tagline,
    prompt: tool.prompt,
    fields: tool.fields,
  };
  entries.push({
    name: `${tool.slug}/tool.config.json`,
    data: Buffer.from(`${JSON.stringify(config, null, 2)}\n`),
  });
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** The marketing pack: the templates, and a one-line pitch of each tool. */
function marketingEntries(tools: Tool[]): ZipEntry[] {
  const dir = path.join(sourceDir, "marketing");
  const pitches = tools.map((t, i) => `${i + 1}. **${t.name}**: ${t.tagline}.`).join("\n");
  return [
    ...filesUnder(dir).map((file) => ({
      name: `marketing-pack/${file}`,
      data: readFileSync(path.join(dir, file)),
    })),
    { name: "marketing-pack/tools.md", data: Buffer.from(`# The twelve tools\n\n${pitches}\n`) },
  ];
}

/** The download names: one zip per tool, then the marketing pack. */
export function whiteLabelFiles(): string[] {
  return [...whiteLabelTools().map((t) => `${t.slug}.zip`), "marketing-pack.zip"];
}

/** Writes every download into outDir; returns their paths. */
export function buildWhiteLabelFiles(outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const tools = whiteLabelTools();
  const written = tools.map((tool) => {
    const file = path.join(outDir, `${tool.slug}.zip`);
    writeFileSync(file, createZip(toolEntries(tool)));
    return file;
  });
  const pack = path.join(outDir, "marketing-pack.zip");
  writeFileSync(pack, createZip(marketingEntries(tools)));
  return [...written, pack];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = path.resolve(process.argv[2] ?? path.join(root, "build", "white-label"));
  console.log(`white-label files written: ${buildWhiteLabelFiles(outDir).length} in ${outDir}`);
}
