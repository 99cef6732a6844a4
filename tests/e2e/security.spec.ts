import { expect, test } from "@playwright/test";
import { test as withAdmin } from "./helpers";

test.describe("request checks", () => {
  test("a cross-site POST is refused with 403", async ({ request, baseURL }) => {
    const form = { email: "someone@example.com", password: "whatever-password" };
    const evil = await request.post("/login", {
      form,
      headers: { Origin: "https://evil.example" },
    });
    expect(evil.status()).toBe(403);

    // The same request from the site itself reaches the login action (wrong credentials: 400).
    const own = await request.post("/login", { form, headers: { Origin: baseURL as string } });
    expect(own.status()).toBe(400);
  });

  test("a body over 1 MB is refused with 413", async ({ request, baseURL }) => {
    const big = await request.post("/login", {
      headers: {
        Origin: baseURL as string,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      data: `email=a%40example.com&password=${"x".repeat(1024 * 1024)}`,
    });
    expect(big.status()).toBe(413);
  });

  test("a body that is not a form is refused with 415, not 500", async ({ request, baseURL }) => {
    const json = await request.post("/login", {
      headers: { Origin: baseURL as string, "Content-Type": "application/json" },
      data: JSON.stringify({ email: "a@example.com", password: "whatever-password" }),
    });
    expect(json.status()).toBe(415);
    expect(await json.text()).toContain("Send the form as application/x-www-form-urlencoded");
  });

  test("a GET to a POST-only address is answered 405 with Allow", async ({ request }) => {
    for (const path of ["/api/uploads", "/api/webhooks/stripe", "/api/webhooks/warriorplus"]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(405);
      expect(res.headers().allow, path).toBe("POST");
    }
  });
});

withAdmin(
  "a POST without an Origin header is refused, even with an admin's cookie",
  async ({ adminApi }) => {
    const title = `No origin ${crypto.randomUUID().slice(0, 8)}`;
    const bare = await adminApi.request.post("/admin/courses", {
      form: { intent: "create-course", title },
      maxRedirects: 0,
    });
    expect(bare.status()).toBe(403);
    const panel = await (await adminApi.request.get("/admin/courses")).text();
    expect(panel).not.toContain(title);
    // The same post as the admin panel sends it (with Origin) goes through.
    expect((await adminApi.post({ intent: "create-course", title })).status()).toBe(302);
  },
);
