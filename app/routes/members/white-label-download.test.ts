import { describe, expect, it } from "vitest";
import { appRequest, createUser, redirectTarget, run } from "~/test/helpers";
import * as wlRoute from "./white-label-download";

describe("the white-label downloads", () => {
  it("send a member without the package to its offer, and a visitor to sign in", async () => {
    const member = await createUser({ paid: true });
    const get = (cookie?: string) =>
      run(() =>
        wlRoute.loader({
          request: appRequest("/white-label/download/email-writer.zip", { cookie }),
          params: { file: "email-writer.zip" },
          context: {},
        } as never),
      );
    expect(redirectTarget(await get(member.cookie))).toBe("/white-label-upsell");
    expect(redirectTarget(await get())).toBe("/login");
  });
});
