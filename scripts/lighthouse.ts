/**
 * Lighthouse budgets for the public pages (README, `npm run lighthouse`).
 *
 * Builds nothing itself: `npm run lighthouse` runs `npm run build` first; to run
 * this file alone, build before (`npm run build && tsx scripts/lighthouse.ts`).
 *
 * Starts the production server (build/server/index.js) on a free port with a
 * throw-away DATA_DIR, runs Lighthouse 12 (Node API, default mobile preset with
 * its simulated throttling) in the system Chromium on every public and sign-in
 * page, prints the four category scores and the JavaScript (gzip) of each page,
 * then PASS/FAIL per budget. The JavaScript budgets are a gate: a page whose
 * scripts grow past its budget makes the run exit 1. The scores depend on the
 * machine's load, so their budgets are reported only. It also exits non-zero
 * when the server or Lighthouse itself fails.
 * Full results go to lighthouse-results/ (gitignored).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { publicPagePaths, signInPagePaths } from "../app/route-policies";
import { chromiumArgs, systemChromiumPath } from "./chromium";

const pages = [...publicPagePaths, ...signInPagePaths];
const categories = ["performance", "accessibility", "best-practices", "seo"] as const;
const budgets: Record<(typeof categories)[number], number> = {
  performance: 97,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
};
/**
 * The JavaScript a page may load (gzip), a few KB above what it loads now:
 * the pages that hydrate only their islands load React DOM and their
 * islands, 71-79 KB (the landing page keeps decision 007's 100 KB, the others
 * of decision 025 get 85 KB); the others run React Router's
 * client, about 110 KB of it shared, plus their own code (/demo-swipes the
 * most: its tabs and the swipes). A page past its budget fails the run.
 */
/** The public pages that run React Router's client: not islands pages. */
const clientPages = ["/jv-doc", "/demo-swipes"];
const islandsPages = publicPagePaths.filter((page) => page !== "/" && !clientPages.includes(page));
const jsBudgets: Record<string, number> = {
  "/": 100 * 1024,
  ...Object.fromEntries(islandsPages.map((page) => [page, 85 * 1024])),
  "/demo-swipes": 136 * 1024,
};
const jsBudget = (page: string) => jsBudgets[page] ?? 130 * 1024;
const outDir = path.resolve("lighthouse-results");
const chromeFlags = ["--headless=new", ...chromiumArgs];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(origin: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with code ${server.exitCode}`);
    try {
      const res = await fetch(`${origin}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not become healthy within 60 s");
}

/**
 * One Lighthouse run; a run that fails to record its trace (NO_NAVSTART and the
 * like, which Lighthouse itself says to retry) is tried again, up to 3 times.
 */
async function audit(url: string, port: number) {
  let lastError = "";
  for (let attempt = 1; attempt <= 3; attempt++) {
    const result = await lighthouse(url, { port, output: "json", logLevel: "error" });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (!result.lhr.runtimeError) return result.lhr;
    lastError = `${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`;
    console.warn(`${url}: attempt ${attempt} failed (${lastError})`);
  }
  throw new Error(`${url}: ${lastError}`);
}

/** Bytes of a response body as the server sends it to a client that accepts gzip only. */
function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve(bytes));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

type NetworkItem = { resourceType?: string; transferSize?: number; url?: string };

async function main(): Promise<number> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ailabs-lh-"));
  const server = spawn("sh", ["bin/serve"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NODE: process.execPath,
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await waitForHealth(origin, server);
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH ?? systemChromiumPath,
      chromeFlags,
    });
    mkdirSync(outDir, { recursive: true });

    const rows: {
      page: string;
      scores: Record<string, number | null>;
      js: number;
      scripts: { url: string; bytes: number; gzip: number }[];
    }[] = [];
    for (const page of pages) {
      const lhr = await audit(`${origin}${page}`, chrome.port);
      const name = page === "/" ? "home" : page.slice(1).replaceAll("/", "_");
      writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(lhr, null, 2));
      const scores: Record<string, number | null> = {};
      for (const c of categories) {
        const s = lhr.categories[c]?.score;
        scores[c] = typeof s === "number" ? Math.round(s * 100) : null;
      }
      const items = ((lhr.audits["network-requests"]?.details as { items?: NetworkItem[] })
        ?.items ?? []) as NetworkItem[];
      const scripts = items
        .filter((i) => i.resourceType === "Script")
        .map((i) => ({ url: i.url ?? "", bytes: i.transferSize ?? 0, gzip: 0 }));
      for (const s of scripts) s.gzip = await gzipBytes(s.url);
      const js = scripts.reduce((sum, s) => sum + s.gzip, 0);
      rows.push({ page, scores, js, scripts });
    }

    const kb = (n: number) => `${(n / 1024).toFixed(1).padStart(6)} KB`;
    const header = ["page", ...categories, "JS gzip"];
    const table = rows.map((r) => [
      r.page,
      ...categories.map((c) => String(r.scores[c] ?? "-")),
      kb(r.js).trim(),
    ]);
    const widths = header.map((h, i) =>
      Math.max(h.length, ...table.map((r) => (r[i] ?? "").length)),
    );
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
    console.log(`\n${line(header)}`);
    for (const r of table) console.log(line(r));
    // Transferred = what Lighthouse's Chrome received (brotli where the server offers it);
    // gzip = the same files asked for with gzip only, the unit of the budget.
    for (const r of rows.filter((row) => row.page === "/" || row.page === "/login")) {
      const transferred = r.scripts.reduce((sum, s) => sum + s.bytes, 0);
      console.log(
        `\n${r.page} JavaScript: ${kb(r.js).trim()} gzip (${kb(transferred).trim()} transferred)`,
      );
      for (const s of [...r.scripts].sort((a, b) => b.gzip - a.gzip)) {
        console.log(
          `  ${kb(s.gzip)} gzip  ${kb(s.bytes)} transferred  ${s.url.replace(origin, "")}`,
        );
      }
    }

    console.log("\nBudgets:");
    for (const c of categories) {
      for (const r of rows) {
        const score = r.scores[c] ?? null;
        const ok = score !== null && score >= budgets[c];
        console.log(
          `  ${ok ? "PASS" : "FAIL"}  ${c} >= ${budgets[c]} on ${r.page} (${score ?? "-"})`,
        );
      }
    }
    let jsOk = true;
    for (const r of rows) {
      const ok = r.js <= jsBudget(r.page);
      jsOk &&= ok;
      console.log(
        `  ${ok ? "PASS" : "FAIL"}  JS <= ${jsBudget(r.page) / 1024} KB gzip on ${r.page} (${(r.js / 1024).toFixed(1)} KB)`,
      );
    }
    writeFileSync(path.join(outDir, "summary.json"), JSON.stringify({ origin, rows }, null, 2));
    console.log(`\nFull reports: ${path.relative(process.cwd(), outDir)}/`);
    if (!jsOk) console.log("A page's JavaScript is over its budget.");
    return jsOk ? 0 : 1;
  } finally {
    await chrome?.kill();
    server.kill("SIGTERM");
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once("exit", r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("Lighthouse run failed:", error);
    process.exit(1);
  },
);
