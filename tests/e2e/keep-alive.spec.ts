import { Agent, request } from "node:http";
import { expect, test } from "@playwright/test";

// A proxy (deploy/haproxy.cfg) keeps idle connections to the server and sends
// its next request on one. Node closes an idle connection after 5 s unless told
// otherwise; a POST the proxy sent on a connection closed in that instant would
// fail, as the proxy does not send a POST again.

function get(url: string, agent: Agent): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("an idle kept-alive connection stays open well past Node's 5 s, for the proxy's next request", async ({
  baseURL,
}) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    expect(await get(`${baseURL}/healthz`, agent)).toEqual({ status: 200, reused: false });
    await new Promise((resolve) => setTimeout(resolve, 7000));
    // Still open: the same connection carries the next request.
    expect(await get(`${baseURL}/healthz`, agent)).toEqual({ status: 200, reused: true });
  } finally {
    agent.destroy();
  }
});
