import { createHash, timingSafeEqual } from "node:crypto";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { version } from "../../../package.json";
import { isLoopbackAddress } from "../env.server";

/**
 * The numbers an operator watches (GET /metrics, Prometheus text format):
 * requests and latency by route pattern, the member page cache, the e-mail
 * outbox, webhook outcomes and rate limits hit. Labels take values from
 * bounded sets only (route patterns, status codes, names in this file), never
 * from a raw URL, an address or an e-mail.
 *
 * Counting is cheap: a label set's child is looked up once and kept, so the
 * hot paths (public pages and kept member pages served from memory) pay a Map
 * lookup and an increment. With several server processes (WEB_CONCURRENCY)
 * each counts its own; /metrics adds them up through the primary
 * (cluster.server.ts, prom-client's AggregatorRegistry).
 */
export const metricsRegistry = new Registry();

collectDefaultMetrics({ register: metricsRegistry });

/** A counter kept in this registry. */
function counter<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  return new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

const requests = counter(
  "http_requests_total",
  "HTTP requests answered, by route pattern, method and status.",
  ["route", "method", "status"],
);

const duration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time to answer, by route pattern and method (not counted for static files and prerendered pages, served from memory).",
  labelNames: ["route", "method"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

const pageCache = counter(
  "page_cache_requests_total",
  "Member page requests the page cache could keep: answered from it (hit) or rendered (miss).",
  ["result"],
);

const emailDeliveries = counter(
  "email_outbox_deliveries_total",
  "E-mail delivery attempts by outcome: sent, failed (retried later), gave_up (max attempts reached).",
  ["outcome"],
);

const webhooks = counter(
  "webhook_events_total",
  "Payment provider notifications by provider and outcome.",
  ["provider", "outcome"],
);

const rateLimited = counter(
  "rate_limit_refusals_total",
  "Attempts refused because a rate limit was used up, by limit.",
  ["limit"],
);

// Every label set's child, kept: prom-client would otherwise hash the labels at every call.
const requestChildren = new Map<string, ReturnType<typeof requests.labels>>();
const durationChildren = new Map<string, ReturnType<typeof duration.labels>>();

function requestChild(route: string, method: string, status: number) {
  const key = `${method} ${status} ${route}`;
  let child = requestChildren.get(key);
  if (!child) {
    child = requests.labels(route, method, String(status));
    requestChildren.set(key, child);
  }
  return child;
}

/**
 * A request answered (answer.server.ts, for every answer): counted, and its
 * time observed when it has one (not for files answered from memory).
 */
export function observeRequest(
  route: string,
  method: string,
  status: number,
  seconds?: number,
): void {
  requestChild(route, method, status).inc();
  if (seconds === undefined) return;
  const key = `${method} ${route}`;
  let child = durationChildren.get(key);
  if (!child) {
    child = duration.labels(route, method);
    durationChildren.set(key, child);
  }
  child.observe(seconds);
}

const pageCacheHit = pageCache.labels("hit");
const pageCacheMiss = pageCache.labels("miss");

/** A member page the cache may keep: answered from it, or rendered. */
export function countPageCache(result: "hit" | "miss"): void {
  (result === "hit" ? pageCacheHit : pageCacheMiss).inc();
}

export function countEmailDelivery(outcome: "sent" | "failed" | "gave_up"): void {
  emailDeliveries.labels(outcome).inc();
}

export type WebhookProvider = "stripe" | "warriorplus";

/** A provider's notification and what became of it (a short fixed word: applied, duplicate, ...). */
export function countWebhook(provider: WebhookProvider, outcome: string): void {
  webhooks.labels(provider, outcome).inc();
}

/** An attempt refused by the limit named (rate-limit.server.ts's limiter names). */
export function countRateLimited(limit: string): void {
  rateLimited.labels(limit).inc();
}

/**
 * The outbox's depth, read from the database when /metrics is asked: messages
 * waiting to be sent, and messages given up on. Registered by the process that
 * runs the e-mail sender (one per server), so summing processes counts it once.
 */
export function watchOutboxDepth(
  read: () => Promise<{ pending: number; givenUp: number }>,
  timeoutMs = 2000,
): () => void {
  type Depth = { pending: number; givenUp: number } | undefined;
  let last: Promise<Depth> | undefined;
  // Both gauges from one query per scrape. A database that is down or slow must not take
  // the other metrics with it: the gauges then keep their last value.
  const depth = () => {
    last ??= new Promise<Depth>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      timer.unref();
      read()
        .then(resolve, () => resolve(undefined))
        .finally(() => clearTimeout(timer));
    }).finally(() => {
      last = undefined;
    });
    return last;
  };
  const names = ["email_outbox_pending", "email_outbox_given_up"] as const;
  new Gauge({
    name: names[0],
    help: "E-mails in the outbox not sent yet and still to be tried.",
    registers: [metricsRegistry],
    async collect() {
      const found = await depth();
      if (found) this.set(found.pending);
    },
  });
  new Gauge({
    name: names[1],
    help: "E-mails in the outbox given up on after their last attempt (see the CLI's mail commands).",
    registers: [metricsRegistry],
    async collect() {
      const found = await depth();
      if (found) this.set(found.givenUp);
    },
  });
  return () => {
    for (const name of names) metricsRegistry.removeSingleMetric(name);
  };
}

// The version running (package.json's): `ailabs_build_info{version="1.0.0"} 1`. The same in
// every process, so the primary reports it once rather than adding theirs up.
new Gauge({
  name: "ailabs_build_info",
  help: "The version of AI Labs this server runs (package.json), always 1.",
  labelNames: ["version"] as const,
  aggregator: "first",
  registers: [metricsRegistry],
})
  .labels(version)
  .set(1);

/**
 * ailabs_database_up: 1 when the database answered `ping` (a `select 1`) for
 * this scrape within `timeoutMs`, 0 when it failed or was slower, so /metrics
 * never waits on a database that does not answer. With several processes the
 * lowest counts: 0 if one of them cannot reach it.
 */
export function watchDatabase(ping: () => Promise<unknown>, timeoutMs = 2000): () => void {
  const name = "ailabs_database_up";
  let last: Promise<boolean> | undefined;
  // Scrapes that come together share one ping.
  const answers = () => {
    last ??= new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
      ping()
        .then(
          () => resolve(true),
          () => resolve(false),
        )
        .finally(() => clearTimeout(timer));
    }).finally(() => {
      last = undefined;
    });
    return last;
  };
  new Gauge({
    name,
    help: `Whether the database answered a query within ${timeoutMs / 1000} s when /metrics was read (1) or not (0).`,
    aggregator: "min",
    registers: [metricsRegistry],
    async collect() {
      this.set((await answers()) ? 1 : 0);
    },
  });
  return () => metricsRegistry.removeSingleMetric(name);
}

export type MetricsAccess = "allowed" | "unauthorized" | "forbidden";

/**
 * Who may read /metrics: a client on this machine talking to the server
 * directly (a loopback socket and no forwarding header, so a reverse proxy on
 * the same machine does not open it to the world), or anyone presenting
 * `Authorization: Bearer METRICS_TOKEN`. Without a token set, others are
 * forbidden; with one, a missing or wrong token is unauthorized.
 */
export function metricsAccess(
  request: {
    socketAddress: string | undefined;
    authorization: string | undefined;
    forwarded: boolean;
  },
  token: string | undefined,
): MetricsAccess {
  if (token && request.authorization?.startsWith("Bearer ")) {
    const given = createHash("sha256").update(request.authorization.slice(7)).digest();
    const expected = createHash("sha256").update(token).digest();
    if (timingSafeEqual(given, expected)) return "allowed";
    return "unauthorized";
  }
  if (!request.forwarded && isLoopbackAddress(request.socketAddress)) return "allowed";
  return token ? "unauthorized" : "forbidden";
}

/** This process's metrics in the text format. */
export function localMetrics(): Promise<string> {
  return metricsRegistry.metrics();
}

export const metricsContentType = metricsRegistry.contentType;
