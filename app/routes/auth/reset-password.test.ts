import { describe, expect, it } from "vitest";
import { createTestApp } from "~/test/app-handler";
import { origin } from "~/test/helpers";

const { app } = await createTestApp();

describe("/reset-password", () => {
  it("is never kept by a cache: the page, its data request and the form's answer", async () => {
    const answers = [
      await app.fetch(new Request(`${origin}/reset-password?token=made-up-token`)),
      await app.fetch(new Request(`${origin}/reset-password`)),
      await app.fetch(new Request(`${origin}/reset-password.data?token=made-up-token`)),
      await app.fetch(
        new Request(`${origin}/reset-password`, {
          method: "POST",
          headers: { origin, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            token: "made-up-token",
            password: "a new long password 1",
            confirmPassword: "a new long password 1",
          }),
        }),
      ),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 400]);
    for (const answer of answers) expect(answer.headers.get("cache-control")).toBe("no-store");
  });
});
