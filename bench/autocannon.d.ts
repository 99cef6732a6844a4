// The part of autocannon 9's programmatic API the bench uses (the package ships no types).
declare module "autocannon" {
  export type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  };

  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    title?: string;
  };

  export type Result = {
    title?: string;
    url: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    "2xx": number;
    connections: number;
    statusCodeStats: Record<string, { count: number }>;
  };

  /** A run: a promise of its result and the emitter of its events. */
  export type Instance = Promise<Result> & {
    on(
      event: "response",
      listener: (
        client: unknown,
        statusCode: number,
        bytes: number,
        responseTimeMs: number,
      ) => void,
    ): Instance;
    on(event: "reqError", listener: (error: Error) => void): Instance;
  };

  export default function autocannon(options: Options): Instance;
}
