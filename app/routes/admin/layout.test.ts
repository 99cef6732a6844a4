import { describe, expect, it } from "vitest";
import { sessionCookieName } from "~/server/auth/cookies.server";
import { appRequest, createUser, run, withEnv } from "~/test/helpers";
import * as layout from "./layout";

function load(cookie: string) {
  return run(() =>
    layout.loader({ request: appRequest("/admin", { cookie }), params: {}, context: {} } as never),
  );
}

describe("admin layout: the e-mail notice", () => {
  it("on a real deployment (https) without SMTP_URL, every admin page says e-mail is not sent", async () => {
    const admin = await createUser({ isAdmin: true });
    // The same session under the https cookie name, as the browser sends it there.
    const secureCookie = admin.cookie.replace(sessionCookieName(false), sessionCookieName(true));
    const https = { publicOrigin: "https://shop.example", requireAdminTwoFactor: false };

    expect(await withEnv({ ...https, smtpUrl: undefined }, () => load(secureCookie))).toEqual({
      mailOff: true,
    });
    expect(
      await withEnv({ ...https, smtpUrl: "smtps://u:p@smtp.example:465" }, () =>
        load(secureCookie),
      ),
    ).toEqual({ mailOff: false });
    // On localhost the log is the expected mailbox: no notice.
    expect(await withEnv({ smtpUrl: undefined }, () => load(admin.cookie))).toEqual({
      mailOff: false,
    });
  });
});
