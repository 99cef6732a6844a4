// Renders every SVG in a directory to a PNG of the SVG's own size, with the system Chromium.
// Usage: node scripts/svg-to-png.mjs <from-dir> <to-dir>
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const [from, to] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  for (const file of readdirSync(from).filter((f) => f.endsWith(".svg"))) {
    const svg = readFileSync(path.join(from, file), "utf8");
    const width = Number(/width='(\d+)'/.exec(svg)?.[1]);
    const height = Number(/height='(\d+)'/.exec(svg)?.[1]);
    const page = await browser.newPage({ viewport: { width, height } });
    await page.setContent(`<body style="margin:0">${svg}</body>`);
    await page.screenshot({ path: path.join(to, file.replace(/\.svg$/, ".png")) });
    await page.close();
  }
} finally {
  await browser.close();
}
