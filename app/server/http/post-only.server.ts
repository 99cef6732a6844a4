/**
 * The loader of a resource route that only takes POST (uploads, webhooks): a
 * GET or HEAD is answered 405 with Allow, instead of React Router's 400 for a
 * route without a loader (which it also logs as an error).
 */
export function postOnly(): Response {
  return new Response("Method not allowed: this address only takes POST.", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" },
  });
}
