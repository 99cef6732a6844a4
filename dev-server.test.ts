import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `npm run dev` (dev-server.ts) runs the HTTP shell of production with Vite in front:
// the same headers and refusals as production, Vite's modules on the same port.

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

let dev: ChildProcess;
let origin: string;
let output = "";

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  dev = spawn("node_modules/.bin/tsx", ["dev-server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_ORIGIN: origin,
      DATA_DIR: "memory://",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  dev.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  dev.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (dev.exitCode !== null) throw new Error(`dev server exited:\n${output}`);
    const up = await fetch(`${origin}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`dev server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 120_000);

afterAll(async () => {
  if (!dev || dev.exitCode !== null) return;
  const exited = new Promise((resolve) => dev.once("exit", resolve));
  dev.kill("SIGTERM");
  await exited;
});

describe("npm run dev", () => {
  it("renders a page through the shell, with its security headers", async () => {
    const res = await fetch(`${origin}/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const html = await res.text();
    expect(html).toContain("Sign in");
    // Hot reloading: the page loads Vite's HMR runtime, served on the same port.
    expect(html).toContain("inject-hmr-runtime");
    expect((await fetch(`${origin}/@vite/client`)).status).toBe(200);
  });

  it("refuses a POST without an Origin header with 403, like production", async () => {
    const res = await fetch(`${origin}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=a%40example.com&password=x",
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe("Request refused: it has no Origin header");
    const crossSite = await fetch(`${origin}/login`, {
      method: "POST",
      headers: { origin: "https://elsewhere.example", "content-type": "text/plain" },
      body: "x",
    });
    expect(crossSite.status).toBe(403);
  });

  it("answers GET on a POST-only address with 405", async () => {
    const res = await fetch(`${origin}/api/uploads`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
