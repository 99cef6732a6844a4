/**
 * Draws public/og-image.png (1200x630), the Open Graph picture of every public
 * page, from an HTML card in the system Chromium. Run after a brand or price
 * change: `npx tsx scripts/og-image.ts`.
 */
import path from "node:path";
import { chromium } from "@playwright/test";
import { formatUsd, lifetimeAccess, site } from "../app/config/site";

const html = `<!doctype html><html><head><meta charset="utf-8"><style>
  * { box-sizing: border-box; margin: 0; }
  body { width: 1200px; height: 630px; font-family: ui-sans-serif, system-ui, "DejaVu Sans", sans-serif;
    background: radial-gradient(circle at 85% 15%, #4f46e5 0, transparent 45%), linear-gradient(160deg, #312e81, #0f172a);
    color: #fff; padding: 72px 80px; display: flex; flex-direction: column; justify-content: space-between; }
  .brand { font-size: 34px; font-weight: 800; letter-spacing: -0.5px; display: flex; align-items: center; gap: 16px; }
  .mark { width: 52px; height: 52px; border-radius: 14px; background: #fff; color: #4338ca; display: grid; place-items: center; font-size: 26px; }
  h1 { font-size: 68px; line-height: 1.05; font-weight: 800; letter-spacing: -1.5px; max-width: 900px; }
  .sub { margin-top: 22px; font-size: 30px; color: #c7d2fe; }
  .row { display: flex; align-items: center; gap: 28px; }
  .price { background: #fff; color: #1e1b4b; border-radius: 16px; padding: 14px 28px; font-size: 34px; font-weight: 800; }
  .price s { color: #64748b; font-weight: 600; font-size: 26px; margin-left: 10px; }
  .term { font-family: "DejaVu Sans Mono", monospace; font-size: 24px; color: #86efac; }
</style></head><body>
  <div class="brand"><span class="mark">AI</span>${site.brand}</div>
  <div>
    <h1>Build and launch your own AI SaaS app without code</h1>
    <p class="sub">Prompt to app, launched in 7 days. One payment, lifetime access.</p>
  </div>
  <div class="row">
    <span class="price">${formatUsd(lifetimeAccess.amountCents)}<s>${formatUsd(lifetimeAccess.regularAmountCents)}</s></span>
    <span class="term">✓ Your AI SaaS app is ready to deploy</span>
  </div>
</body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(html);
const out = path.resolve(import.meta.dirname, "../public/og-image.png");
await page.screenshot({ path: out });
await browser.close();
console.log(`Wrote ${out}`);
