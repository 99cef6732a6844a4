import { expect, test } from "@playwright/test";

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

  test("a body over 1 MB is refused with 413", async ({ request }) => {
    const big = await request.post("/login", {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      data: `email=a%40example.com&password=${"x".repeat(1024 * 1024)}`,
    });
    expect(big.status()).toBe(413);
  });
});
