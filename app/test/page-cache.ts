import { isPrefetch } from "~/route-policies";
import { cachedPageHeaders, type PageCache } from "../server/http/page-cache.server";

/**
 * A Request through `cache.page`, answered as a Response with the kept page's
 * own headers: for tests that follow a member page through writes without a
 * server (the server writes it on node:http, pageCacheAnswer).
 */
export async function respond(
  cache: PageCache,
  request: Request,
  render: () => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  const got = await cache.page(
    {
      path: url.pathname,
      search: url.search,
      cookie: request.headers.get("cookie"),
      prefetch: isPrefetch(request.headers),
    },
    render,
  );
  if (got === undefined) return render();
  if (got instanceof Response) return got;
  if (request.headers.get("if-none-match") === got.bytes.etag) {
    return new Response(null, { status: 304, headers: cachedPageHeaders(got, undefined) });
  }
  const body = await cache.encoded(got, request.headers.get("accept-encoding"));
  return new Response(body.body, { headers: cachedPageHeaders(got, body) });
}
