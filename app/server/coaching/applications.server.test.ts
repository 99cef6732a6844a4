import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as coachingRoute from "~/routes/members/coaching";
import * as visionRoute from "~/routes/members/coaching-vision";
import { appRequest, cookieHeader, createUser, redirectTarget, run } from "~/test/helpers";
import { adminActor } from "../admin/audit.server";
import { getDb } from "../db/db.server";
import { fulfilPurchase, revokePurchase } from "../payments/purchases.server";
import { buildOrdersOf, listBuilds, updateBuild } from "./applications.server";

const pdf = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

async function buyBuild(userId: string) {
  return fulfilPurchase(await getDb(), {
    userId,
    provider: "warriorplus",
    providerRef: randomUUID(),
    product: "custom-saas",
    amountCents: 99700,
    currency: "usd",
  });
}

/** The intake form as the browser sends it: multipart, with the vision document. */
function intakeRequest(
  cookie: string,
  fields: Record<string, string>,
  file?: Uint8Array<ArrayBuffer>,
  name = "vision.pdf",
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("vision", new File([file], name, { type: "application/pdf" }));
  const request = appRequest("/coaching", { cookie });
  return new Request(request.url, { method: "POST", headers: request.headers, body: form });
}

const send = (request: Request) =>
  run(() => coachingRoute.action({ request, params: {}, context: {} } as never));

type Refusal = {
  init: { status: number };
  data: { formError: string; fieldErrors: Record<string, string> };
};

describe("the Custom SaaS intake form", () => {
  it("a buyer sends it with a vision document, sees it under their order number, and the owner moves it on", async () => {
    const buyer = await createUser({ paid: true });
    const build = await buyBuild(buyer.id);
    const db = await getDb();
    const [order] = await buildOrdersOf(db, buyer.id);
    expect(order).toMatchObject({ purchaseId: build.id, intake: null });
    expect(order?.orderNumber).toMatch(/^AIL-[0-9A-HJKMNP-TV-Z]{5}$/);

    const fields = {
      purchaseId: build.id,
      availability: "Weekdays 9-12, Europe/Berlin",
      techEnvironment: "",
      hosting: "managed",
      contentPlan: "Fifty prompts for estate agents",
    };
    const sent = await send(intakeRequest(buyer.cookie, fields, pdf, "My vision.pdf"));
    expect(redirectTarget(sent)).toBe("/coaching");
    const flash = cookieHeader((sent as Response).headers);
    const page = (await run(() =>
      coachingRoute.loader({
        request: appRequest("/coaching", { cookie: `${buyer.cookie}; ${flash}` }),
        params: {},
        context: {},
      } as never),
    )) as {
      data: { notice: string; orders: { intake: { status: string; visionName: string } }[] };
    };
    expect(page.data.notice).toBe(
      `Thank you: the intake form for order ${order?.orderNumber} is with the team. We reply within 24 hours.`,
    );
    expect(page.data.orders[0]?.intake).toMatchObject({
      status: "new",
      visionName: "My vision.pdf",
    });

    // The document, to the buyer and the owner only.
    const owner = await createUser({ isAdmin: true });
    const download = (cookie: string) =>
      run(() =>
        visionRoute.loader({
          request: appRequest(`/coaching/vision/${build.id}`, { cookie }),
          params: { purchaseId: build.id },
          context: {},
        } as never),
      ) as Promise<Response>;
    const mine = await download(buyer.cookie);
    expect(mine.status).toBe(200);
    expect(new Uint8Array(await mine.arrayBuffer())).toEqual(pdf);
    expect(mine.headers.get("content-disposition")).toBe('attachment; filename="My vision.pdf"');
    expect((await download(owner.cookie)).status).toBe(200);
    const stranger = await createUser({ paid: true });
    expect((await download(stranger.cookie)).status).toBe(404);

    // Sent again without a file: the document stays, the answers change, the status stays.
    expect(
      await updateBuild(db, adminActor(owner), {
        purchaseId: build.id,
        status: "consultation-booked",
        notes: "Call booked for Tuesday",
      }),
    ).toBe(true);
    const again = await send(
      intakeRequest(buyer.cookie, { ...fields, availability: "Afternoons" }),
    );
    expect(redirectTarget(again)).toBe("/coaching");
    const row = (await listBuilds(db)).find((b) => b.purchaseId === build.id);
    expect(row?.intake).toMatchObject({
      availability: "Afternoons",
      visionName: "My vision.pdf",
      status: "consultation-booked",
      notes: "Call booked for Tuesday",
    });
    expect(row?.buyer.id).toBe(buyer.id);
  });

  it("refuses a missing document, a file that is not a document, bad answers, and someone else's order", async () => {
    const buyer = await createUser({ paid: true });
    const build = await buyBuild(buyer.id);
    const fields = {
      purchaseId: build.id,
      availability: "Mornings",
      hosting: "managed",
      contentPlan: "Prompts",
    };
    const noFile = (await send(intakeRequest(buyer.cookie, fields))) as Refusal;
    expect(noFile.init.status).toBe(400);
    expect(noFile.data.fieldErrors.vision).toBe(
      "Attach your vision document: a PDF, Word or text file of at most 5 MB.",
    );
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const image = (await send(intakeRequest(buyer.cookie, fields, png, "a.png"))) as Refusal;
    expect(image.init.status).toBe(415);
    expect(image.data.fieldErrors.vision).toBe(
      "Upload a PDF, a Word document (.docx) or a text file.",
    );
    const blank = (await send(
      intakeRequest(buyer.cookie, { ...fields, availability: " ", hosting: "moon" }, pdf),
    )) as Refusal;
    expect(blank.init.status).toBe(400);
    expect(blank.data.fieldErrors).toMatchObject({
      availability: "Say when you are available for the consultation.",
      hosting: "Choose where the app should be hosted.",
    });
    const other = await createUser({ paid: true });
    const notYours = (await send(intakeRequest(other.cookie, fields, pdf))) as Refusal;
    expect(notYours.init.status).toBe(404);
    expect(notYours.data.formError).toBe("That order is not one of yours.");
    expect(
      (await listBuilds(await getDb())).find((b) => b.purchaseId === build.id)?.intake,
    ).toBeNull();
  });

  it("is only for buyers of a build that counts: others are sent to the offer", async () => {
    const member = await createUser({ paid: true });
    const load = (cookie: string) =>
      run(() =>
        coachingRoute.loader({
          request: appRequest("/coaching", { cookie }),
          params: {},
          context: {},
        } as never),
      );
    expect(redirectTarget(await load(member.cookie))).toBe("/custom-saas-upsell");
    const refunded = await buyBuild(member.id);
    await revokePurchase(await getDb(), {
      provider: "warriorplus",
      providerRef: refunded.providerRef,
    });
    expect(redirectTarget(await load(member.cookie))).toBe("/custom-saas-upsell");
    // The owner sees the refunded sale as refunded.
    const row = (await listBuilds(await getDb())).find((b) => b.purchaseId === refunded.id);
    expect(row?.refunded).toBe(true);
  });
});
