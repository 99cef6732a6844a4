// A white-label AI tool: one form, one prompt, one answer. No dependencies:
// `node server.js` and open http://localhost:3000. Your brand is in
// branding.config.json, the tool (its form and prompt) in tool.config.json.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

const brand = JSON.parse(readFileSync(new URL("./branding.config.json", import.meta.url), "utf8"));
const tool = JSON.parse(readFileSync(new URL("./tool.config.json", import.meta.url), "utf8"));
const page = readFileSync(new URL("./public/index.html", import.meta.url), "utf8");
const script = readFileSync(new URL("./public/app.js", import.meta.url), "utf8");
const styles = readFileSync(new URL("./public/styles.css", import.meta.url), "utf8");

const port = Number(process.env.PORT ?? 3000);
const maxFieldLength = 4000;

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** One form field as HTML, from tool.config.json. */
function field(f) {
  const id = `field-${f.name}`;
  const label = `<label for="${id}">${escapeHtml(f.label)}</label>`;
  if (f.type === "select") {
    const options = f.options.map((o) => `<option>${escapeHtml(o)}</option>`).join("");
    return `${label}<select id="${id}" name="${f.name}" required>${options}</select>`;
  }
  if (f.type === "textarea") {
    return `${label}<textarea id="${id}" name="${f.name}" rows="4" maxlength="${maxFieldLength}" required></textarea>`;
  }
  return `${label}<input id="${id}" name="${f.name}" maxlength="${maxFieldLength}" required>`;
}

function render() {
  return page
    .replaceAll("{{appName}}", escapeHtml(brand.appName))
    .replaceAll("{{tagline}}", escapeHtml(brand.tagline ?? tool.tagline))
    .replaceAll("{{logo}}", escapeHtml(brand.logoEmoji ?? ""))
    .replaceAll("{{primaryColor}}", escapeHtml(brand.primaryColor ?? "#4f46e5"))
    .replaceAll("{{supportEmail}}", escapeHtml(brand.supportEmail ?? ""))
    .replaceAll("{{toolName}}", escapeHtml(tool.name))
    .replace("{{fields}}", tool.fields.map((f) => `<div class="field">${field(f)}</div>`).join(""));
}

/** The prompt with the visitor's answers in its {placeholders}; or the first problem with them. */
export function fillPrompt(answers) {
  for (const f of tool.fields) {
    const value = typeof answers?.[f.name] === "string" ? answers[f.name].trim() : "";
    if (!value) return { error: `Please fill in ${f.label}.` };
    if (value.length > maxFieldLength) return { error: `${f.label} is too long.` };
    if (f.type === "select" && !f.options.includes(value)) return { error: `Choose one of the ${f.label} options.` };
  }
  return { prompt: tool.prompt.replace(/\{(\w+)\}/g, (_, name) => answers[name].trim()) };
}

/** The model's answer (any OpenAI-compatible API), or a demo answer without a key. */
async function generate(prompt) {
  const key = process.env.OPENAI_API_KEY;
  if (!key) {
    return `Demo mode: set OPENAI_API_KEY to get real answers. The prompt that would be sent:\n\n${prompt}`;
  }
  const base = process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
  const res = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    body: JSON.stringify({
      model: process.env.OPENAI_MODEL ?? tool.model ?? "gpt-4o-mini",
      messages: [{ role: "user", content: prompt }],
    }),
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) throw new Error(`The AI service answered ${res.status}`);
  const body = await res.json();
  return body.choices?.[0]?.message?.content ?? "";
}

function send(res, status, type, body) {
  res.writeHead(status, { "Content-Type": type, "X-Content-Type-Options": "nosniff" });
  res.end(body);
}

const server = createServer(async (req, res) => {
  if (req.method === "GET" && req.url === "/") return send(res, 200, "text/html; charset=utf-8", render());
  if (req.method === "GET" && req.url === "/app.js") return send(res, 200, "text/javascript", script);
  if (req.method === "GET" && req.url === "/styles.css") return send(res, 200, "text/css", styles);
  if (req.method === "POST" && req.url === "/api/generate") {
    let raw = "";
    for await (const chunk of req) {
      raw += chunk;
      if (raw.length > 64 * 1024) return send(res, 413, "application/json", '{"error":"Too long."}');
    }
    let answers;
    try {
      answers = JSON.parse(raw);
    } catch {
      return send(res, 400, "application/json", '{"error":"Send the answers as JSON."}');
    }
    const filled = fillPrompt(answers);
    if (filled.error) return send(res, 400, "application/json", JSON.stringify({ error: filled.error }));
    try {
      return send(res, 200, "application/json", JSON.stringify({ text: await generate(filled.prompt) }));
    } catch (error) {
      console.error(error);
      return send(res, 502, "application/json", '{"error":"The AI service did not answer. Try again."}');
    }
  }
  send(res, 404, "text/plain", "Not found");
});

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  server.listen(port, () => console.log(`${brand.appName}: http://localhost:${port}`));
}

export { server };
