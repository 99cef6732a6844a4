/**
 * The answer to a method a route does not take: 405 with Allow. The Hono shell
 * gives it to GET and HEAD on the routes whose policy lists their `methods`
 * (app/route-policies.ts).
 */
export function methodNotAllowed(allowed: readonly string[]): Response {
  return new Response(`Method not allowed: this address only takes ${allowed.join(", ")}.`, {
    status: 405,
    headers: { Allow: allowed.join(", "), "Content-Type": "text/plain; charset=utf-8" },
  });
}

/**
 * The loader of a resource route that only takes POST (uploads, webhooks): a
 * GET or HEAD is answered 405 with Allow, instead of React Router's 400 for a
 * route without a loader (which it also logs as an error). Such a route is
 * declared `methods: ["POST"]` in app/route-policies.ts (a test checks both).
 */
export function postOnly(): Response {
  return methodNotAllowed(["POST"]);
}
