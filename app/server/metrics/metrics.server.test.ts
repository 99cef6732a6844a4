import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { sql } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "~/test/helpers";
import { version as packageVersion } from "../../../package.json";
import { createRateLimits } from "../auth/rate-limit.server";
import { getDb } from "../db/db.server";
import { loadEnv } from "../env.server";
import { createHttpApp } from "../http/app.server";
import { createRouteLabeler } from "../http/route-label.server";
import { enqueueEmail, outboxDepth } from "../mail/outbox.server";
import { handleStripeWebhook } from "../payments/stripe-webhook.server";
import { localMetrics, metricsAccess, watchDatabase, watchOutboxDepth } from "./metrics.server";

/** The value of one sample in the text format, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = /\{(.*)\}/.exec(line)?.[1] ?? "";
    const parts = inside ? inside.split(",") : [];
    if (wanted.length === parts.length && wanted.every((w) => parts.includes(w))) {
      return Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return 0;
}

// The routes of a React Router build, as the server's labeler reads them.
const routes = {
  root: { id: "root", path: "" },
  home: { id: "home", parentId: "root", index: true },
  course: { id: "course", parentId: "root", path: "course/:courseId" },
  dashboard: { id: "dashboard", parentId: "root", path: "dashboard" },
  fallback: { id: "fallback", parentId: "root", path: "*" },
} as unknown as ServerBuild["routes"];

const token = "metrics-token-for-tests-0123456789";
let server: Server;
let origin: string;

beforeAll(async () => {
  // Opened (and migrated) first, so that no test waits for it between two requests.
  await getDb();
  const app = createHttpApp({
    publicOrigin: "http://localhost:3000",
    staticFiles: new Map(),
    handleRequest: async (request) =>
      new Response(`rendered ${new URL(request.url).pathname}`, {
        status: new URL(request.url).pathname === "/nowhere" ? 404 : 200,
      }),
    metrics: { token, read: localMetrics },
    routeOf: createRouteLabeler(routes, ["/metrics"]),
  });
  server = createServer(getRequestListener(app.fetch));
  // A slow test must not find its kept-alive connection closed under it.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const metrics = async (headers: Record<string, string> = {}) => {
  const res = await fetch(`${origin}/metrics`, { headers });
  return { status: res.status, text: await res.text(), res };
};

describe("GET /metrics", () => {
  it("answers a client on this machine in the Prometheus text format", async () => {
    const { status, text, res } = await metrics();
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(text).toContain("# TYPE http_requests_total counter");
    expect(text).toContain("# TYPE process_cpu_seconds_total counter");
  });

  it("refuses a request a proxy forwarded without the token, and takes the bearer token", async () => {
    const forwarded = await metrics({ "x-forwarded-for": "203.0.113.9" });
    expect(forwarded.status).toBe(401);
    expect(forwarded.res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(forwarded.text).not.toContain("http_requests_total");
    const wrong = await metrics({ "x-forwarded-for": "203.0.113.9", authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    const right = await metrics({
      "x-forwarded-for": "203.0.113.9",
      authorization: `Bearer ${token}`,
    });
    expect(right.status).toBe(200);
    expect(right.text).toContain("http_requests_total");
  });

  it("counts requests and their time by route pattern, never by raw URL", async () => {
    const before = (await metrics()).text;
    const course = { route: "/course/:courseId", method: "GET", status: "200" };
    for (const id of ["4f1c", "9a2b", "77aa"]) await fetch(`${origin}/course/${id}`);
    await fetch(`${origin}/nowhere`);
    await fetch(`${origin}/dashboard.data`);
    const after = (await metrics()).text;
    expect(sample(after, "http_requests_total", course)).toBe(
      sample(before, "http_requests_total", course) + 3,
    );
    const latency = { route: "/course/:courseId", method: "GET" };
    expect(sample(after, "http_request_duration_seconds_count", latency)).toBe(
      sample(before, "http_request_duration_seconds_count", latency) + 3,
    );
    expect(
      sample(after, "http_requests_total", { route: "/*", method: "GET", status: "404" }),
    ).toBe(
      sample(before, "http_requests_total", { route: "/*", method: "GET", status: "404" }) + 1,
    );
    expect(
      sample(after, "http_requests_total", {
        route: "/dashboard.data",
        method: "GET",
        status: "200",
      }),
    ).toBeGreaterThan(0);
    expect(after).not.toContain("4f1c");
    expect(after).not.toContain("nowhere");
  });

  it("counts refused Stripe signatures and rate limits hit", async () => {
    const before = (await metrics()).text;
    const config = {
      secretKey: "sk_test_metrics",
      priceId: "price_metrics",
      webhookSecret: "whsec_metrics",
    };
    const payload = JSON.stringify({ id: "evt_metrics", object: "event", type: "ping" });
    const forged = new Stripe(config.secretKey).webhooks.generateTestHeaderString({
      payload,
      secret: "whsec_someone_else",
    });
    const answer = await handleStripeWebhook(
      await getDb(),
      config,
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "stripe-signature": forged },
        body: payload,
      }),
    );
    expect(answer.status).toBe(400);

    const limits = createRateLimits({
      ...loadEnv({ BETTER_AUTH_SECRET: "x".repeat(32) }).rateLimits,
      loginPerAddress: 2,
    });
    const hits = [];
    for (let i = 0; i < 4; i++) hits.push(await limits.login.perAddress.hit("198.51.100.7"));
    expect(hits).toEqual([true, true, false, false]);

    const after = (await metrics()).text;
    const stripe = { provider: "stripe", outcome: "bad_signature" };
    expect(sample(after, "webhook_events_total", stripe)).toBe(
      sample(before, "webhook_events_total", stripe) + 1,
    );
    const limit = { limit: "login-address" };
    expect(sample(after, "rate_limit_refusals_total", limit)).toBe(
      sample(before, "rate_limit_refusals_total", limit) + 2,
    );
  });

  it("reports the outbox's depth from the database when asked", async () => {
    const db = await getDb();
    const stop = watchOutboxDepth(() => outboxDepth(db, 8));
    try {
      const before = sample((await metrics()).text, "email_outbox_pending");
      for (const to of [uniqueEmail(), uniqueEmail()]) {
        await enqueueEmail(db, { to, subject: "Depth", text: "one", html: "<p>one</p>" });
      }
      const after = (await metrics()).text;
      expect(sample(after, "email_outbox_pending")).toBe(before + 2);
      expect(after).toContain("# TYPE email_outbox_given_up gauge");
    } finally {
      stop();
    }
  });

  it("still answers when the outbox cannot be read, with the gauges' last values", async () => {
    let answer: () => Promise<{ pending: number; givenUp: number }> = async () => ({
      pending: 3,
      givenUp: 1,
    });
    const stop = watchOutboxDepth(() => answer(), 100);
    try {
      expect(sample((await metrics()).text, "email_outbox_pending")).toBe(3);
      for (const broken of [
        () => Promise.reject(new Error("database down")),
        () => new Promise<never>(() => {}), // a pool that never gives a connection
      ]) {
        answer = broken;
        const { text } = await metrics();
        expect(sample(text, "email_outbox_pending")).toBe(3);
        expect(sample(text, "email_outbox_given_up")).toBe(1);
        expect(text).toContain("http_requests_total");
      }
    } finally {
      stop();
    }
  });

  it("reports the version running", async () => {
    const { text } = await metrics();
    expect(sample(text, "ailabs_build_info", { version: packageVersion })).toBe(1);
  });

  it("says whether the database answers, without waiting on one that does not", async () => {
    const db = await getDb();
    let ping: () => Promise<unknown> = () => db.execute(sql`select 1`);
    const stop = watchDatabase(() => ping(), 200);
    try {
      expect(sample((await metrics()).text, "ailabs_database_up")).toBe(1);
      for (const broken of [
        () => Promise.reject(new Error("database down")),
        () => new Promise<never>(() => {}), // a database that never answers
      ]) {
        ping = broken;
        const started = performance.now();
        const { text } = await metrics();
        expect(performance.now() - started).toBeLessThan(1500);
        expect(sample(text, "ailabs_database_up")).toBe(0);
        expect(text).toContain("# TYPE ailabs_database_up gauge");
        expect(text).toContain("http_requests_total");
      }
      ping = () => db.execute(sql`select 1`);
      expect(sample((await metrics()).text, "ailabs_database_up")).toBe(1);
    } finally {
      stop();
    }
  });
});

describe("metricsAccess", () => {
  const ask = (socketAddress: string, forwarded = false, authorization?: string) => ({
    socketAddress,
    forwarded,
    authorization,
  });

  it("lets a client on this machine in, not one behind a proxy or elsewhere", () => {
    expect(metricsAccess(ask("127.0.0.1"), undefined)).toBe("allowed");
    expect(metricsAccess(ask("::1"), undefined)).toBe("allowed");
    expect(metricsAccess(ask("::ffff:127.0.0.1"), undefined)).toBe("allowed");
    expect(metricsAccess(ask("127.0.0.1", true), undefined)).toBe("forbidden");
    expect(metricsAccess(ask("203.0.113.9"), undefined)).toBe("forbidden");
  });

  it("lets anyone with the token in; a wrong or missing one is unauthorized", () => {
    expect(metricsAccess(ask("203.0.113.9", false, `Bearer ${token}`), token)).toBe("allowed");
    expect(metricsAccess(ask("203.0.113.9", false, "Bearer wrong"), token)).toBe("unauthorized");
    expect(metricsAccess(ask("203.0.113.9"), token)).toBe("unauthorized");
    // Without a token set, a bearer header opens nothing.
    expect(metricsAccess(ask("203.0.113.9", false, "Bearer anything"), undefined)).toBe(
      "forbidden",
    );
  });
});
