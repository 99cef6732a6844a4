import { describe, expect, it } from "vitest";
import * as uploadFile from "~/routes/api/upload-file";
import * as uploads from "~/routes/api/uploads";
import { createUser, origin, redirectTarget, run } from "~/test/helpers";
import { maxUploadBytes, readImage, saveImage, sniffImage } from "./store.server";

const png = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
]);
const gif = new TextEncoder().encode("GIF89a\x01\x00\x01\x00");
const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);
const bmp = Uint8Array.from([0x42, 0x4d, ...new Array(40).fill(0)]);
const ico = Uint8Array.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0]);

function uploadRequest(bytes: Uint8Array<ArrayBuffer>, name: string, cookie?: string) {
  const body = new FormData();
  body.append("file", new File([bytes], name));
  const headers = new Headers({ origin });
  if (cookie) headers.set("cookie", cookie);
  return new Request(`${origin}/api/uploads`, { method: "POST", headers, body });
}

async function upload(bytes: Uint8Array<ArrayBuffer>, name: string, cookie?: string) {
  const result = (await run(() =>
    uploads.action({
      request: uploadRequest(bytes, name, cookie),
      params: {},
      context: {},
    } as never),
  )) as {
    init: { status: number };
    data: { url?: string; formError?: string };
  };
  return { status: result.init.status, ...result.data };
}

describe("image store", () => {
  it("recognises the picker's five types from their bytes", () => {
    expect([png, gif, jpeg, bmp, ico].map((b) => sniffImage(b)?.type)).toEqual([
      "image/png",
      "image/gif",
      "image/jpeg",
      "image/bmp",
      "image/x-icon",
    ]);
    expect(sniffImage(new TextEncoder().encode("<svg onload=alert(1)>"))).toBeUndefined();
  });

  it("stores and reads back an image by URL", async () => {
    const { url, type } = await saveImage(png);
    expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    expect(type).toBe("image/png");
    const read = await readImage(url.slice("/uploads/".length));
    expect(read?.bytes).toEqual(png);
  });

  it("refuses path tricks when reading", async () => {
    const tricks = [
      "../auth-secret",
      "..%2Fauth-secret",
      "x.png",
      "00000000-0000-4000-8000-000000000000.svg",
    ];
    for (const name of tricks) {
      expect(await readImage(name)).toBeUndefined();
    }
  });
});

describe("POST /api/uploads", () => {
  it("takes an admin's image whatever its name says, typed by its bytes", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    const result = await upload(gif, "photo.png", cookie);
    expect(result.status).toBe(201);
    expect(result.url).toMatch(/\.gif$/);
  });

  it("refuses a script named like an image (415), an empty file (400) and a file over 5 MB (413)", async () => {
    const { cookie } = await createUser({ isAdmin: true });
    expect(
      (await upload(new TextEncoder().encode("<script>alert(1)</script>"), "x.png", cookie)).status,
    ).toBe(415);
    expect((await upload(new Uint8Array(0), "x.png", cookie)).status).toBe(400);
    const big = new Uint8Array(maxUploadBytes + 1);
    big.set(png);
    expect((await upload(big, "big.png", cookie)).status).toBe(413);
  });

  it("refuses visitors (401) and members who are not admins (403)", async () => {
    expect((await upload(png, "a.png")).status).toBe(401);
    const member = await createUser({ paid: true });
    expect((await upload(png, "a.png", member.cookie)).status).toBe(403);
  });
});

describe("GET /uploads/{name}", () => {
  it("serves members the image with its type, and sends visitors to /login", async () => {
    const { url } = await saveImage(jpeg);
    const name = url.slice("/uploads/".length);
    const member = await createUser({ paid: true });
    const request = (cookie?: string) => {
      const headers = new Headers();
      if (cookie) headers.set("cookie", cookie);
      return new Request(`${origin}${url}`, { headers });
    };
    const res = (await run(() =>
      uploadFile.loader({
        request: request(member.cookie),
        params: { name },
        context: {},
      } as never),
    )) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const visitor = await run(() =>
      uploadFile.loader({ request: request(), params: { name }, context: {} } as never),
    );
    expect(redirectTarget(visitor)).toBe("/login");
  });
});
