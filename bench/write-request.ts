/**
 * The requests a member's browser sends when they click "Mark as complete"
 * (or its undo) on a hydrated course page, as templates the writers replay.
 * browser-capture.ts records them from Chromium at every run; the built-in
 * template below is what it recorded when this was written (React Router 7
 * single fetch), used only when Chromium cannot be started.
 */
import { BenchError } from "./support";

/** Placeholders in templates. */
export type WriteVars = {
  origin: string;
  course: string;
  chapter: string;
  done: "true" | "false";
  cookie: string;
};

export type RequestTemplate = {
  method: string;
  /** With {origin}, {course}, {chapter}, {done} in place of the values captured. */
  url: string;
  /** Minus Host, Content-Length, Connection and Cookie (the member's own is added). */
  headers: [string, string][];
  body?: string;
};

export type WriteTemplate = {
  /** Where the template comes from: "chromium" or "built-in (...why)". */
  source: string;
  /**
   * In the order the browser sent them; exactly one is not a GET (the write). Since
   * the mark is answered with the course as it is now (decision 051), the write alone.
   */
  requests: RequestTemplate[];
};

const placeholders = ["origin", "course", "chapter", "done"] as const;

export function fillTemplate(text: string, vars: WriteVars): string {
  let out = text;
  for (const name of placeholders) out = out.replaceAll(`{${name}}`, vars[name]);
  return out;
}

export function fillRequest(
  template: RequestTemplate,
  vars: WriteVars,
): { method: string; url: string; headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = {};
  for (const [name, value] of template.headers) headers[name] = fillTemplate(value, vars);
  headers.cookie = vars.cookie;
  return {
    method: template.method,
    url: fillTemplate(template.url, vars),
    headers,
    body: template.body === undefined ? undefined : fillTemplate(template.body, vars),
  };
}

/**
 * The request that reads the course's data as the page does (its `.data`
 * GET, the member's chapters with their done flags): the template's own, else
 * the write's address asked with a GET and the headers the browser sends with
 * one (not the write's Content-Type and Origin).
 */
export function readTemplate(template: WriteTemplate): RequestTemplate {
  const read = template.requests.find((r) => r.method === "GET" && r.url.includes(".data"));
  if (read) return read;
  const write = template.requests.find((r) => r.method !== "GET");
  if (!write?.url.includes(".data")) {
    throw new BenchError("the write template has no single-fetch (.data) request to read with");
  }
  const writeOnly = new Set(["content-type", "origin"]);
  return {
    method: "GET",
    url: write.url,
    headers: write.headers.filter(([name]) => !writeOnly.has(name.toLowerCase())),
  };
}

/**
 * The chapters of the course in a decoded single-fetch payload, with the
 * member's done flags: a loader payload's (any route whose data holds
 * `course.chapters`), or an action's answered with the course (`{ data: { course } }`).
 */
export function courseChapters(value: unknown): { id: string; done: boolean }[] | undefined {
  if (!value || typeof value !== "object") return undefined;
  for (const route of [value, ...Object.values(value as Record<string, unknown>)]) {
    const data = (route as { data?: { course?: { chapters?: unknown } } } | null)?.data;
    const chapters = data?.course?.chapters;
    if (Array.isArray(chapters)) {
      return chapters.map((c: { id: string; done: boolean }) => ({ id: c.id, done: c.done }));
    }
  }
  return undefined;
}

/**
 * True when a decoded single-fetch action payload is the course action's
 * success: `{ data: { course, fresh } }` (or `{ data: null }`), never a refusal
 * (`{ fieldErrors, formError, values }`, app/lib/form-answer.ts).
 */
export function isActionSuccess(value: unknown): boolean {
  if (!value || typeof value !== "object" || !("data" in value)) return false;
  const data = (value as { data: unknown }).data;
  if (data == null) return true;
  if (typeof data !== "object") return false;
  const { formError, fieldErrors } = data as { formError?: unknown; fieldErrors?: object };
  return formError == null && Object.keys(fieldErrors ?? {}).length === 0;
}

const chromiumHeaders: [string, string][] = [
  ["accept", "*/*"],
  ["accept-encoding", "gzip, deflate, br, zstd"],
  ["accept-language", "en-US,en;q=0.9"],
  ["referer", "{origin}/course/{course}?chapter={chapter}"],
  ["sec-fetch-dest", "empty"],
  ["sec-fetch-mode", "cors"],
  ["sec-fetch-site", "same-origin"],
  [
    "user-agent",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36",
  ],
  ["sec-ch-ua", '"Not:A-Brand";v="8", "Chromium";v="156"'],
  ["sec-ch-ua-mobile", "?0"],
  ["sec-ch-ua-platform", '"Linux"'],
];

/** Recorded from Chromium 156 on React Router 7.18 single fetch: the action POST, answered with the course (decision 051). */
export function builtInTemplate(why: string): WriteTemplate {
  return {
    source: `built-in (${why})`,
    requests: [
      {
        method: "POST",
        url: "{origin}/course/{course}.data?chapter={chapter}",
        headers: [
          ...chromiumHeaders,
          ["content-type", "application/x-www-form-urlencoded;charset=UTF-8"],
          ["origin", "{origin}"],
        ],
        body: "chapterId={chapter}&done={done}",
      },
    ],
  };
}

/** One line per request, for the report. */
export function describeTemplate(template: WriteTemplate): string[] {
  return template.requests.map(
    (r) =>
      `${r.method} ${r.url.replace("{origin}", "")}${r.body ? `  body: ${r.body}` : ""}` +
      `  (${r.headers.map(([name]) => name).join(", ")}, cookie)`,
  );
}
