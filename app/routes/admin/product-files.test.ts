import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as account from "~/routes/members/account";
import * as productFile from "~/routes/members/product-file";
import { getDb } from "~/server/db/db.server";
import { auditLog, productFile as productFileTable } from "~/server/db/schema";
import { getEnv } from "~/server/env.server";
import { fulfilPurchase, revokePurchase } from "~/server/payments/purchases.server";
import { productName } from "~/server/settings/offer-settings.server";
import { appRequest, createUser, redirectTarget, run } from "~/test/helpers";
import * as products from "./products";

/** The form that adds a file to a product, as the browser sends it: multipart. */
function addFile(cookie: string, product: string, bytes: Uint8Array<ArrayBuffer>, name: string) {
  const form = new FormData();
  form.set("intent", "add-file");
  form.set("product", product);
  form.set("file", new File([bytes], name));
  const request = appRequest("/admin/products", { cookie });
  return run(() =>
    products.action({
      request: new Request(request.url, { method: "POST", headers: request.headers, body: form }),
      params: {},
      context: {},
    } as never),
  );
}

const removeFile = (cookie: string, product: string, fileId: string) =>
  run(() =>
    products.action({
      request: appRequest("/admin/products", {
        cookie,
        form: { intent: "remove-file", product, fileId },
      }),
      params: {},
      context: {},
    } as never),
  );

const download = (cookie: string, id: string) =>
  run(() =>
    productFile.loader({
      request: appRequest(`/files/${id}`, { cookie }),
      params: { fileId: id },
      context: {},
    } as never),
  );

type Downloads = { product: string; name: string; files: { id: string; name: string }[] }[];

async function downloadsOf(cookie: string): Promise<Downloads> {
  const answer = (await account.loader({
    request: appRequest("/account", { cookie }),
    params: {},
    context: {},
  } as never)) as unknown as { data: { downloads: Downloads } };
  return answer.data.downloads;
}

/** A ZIP archive's first bytes: what the uploads store recognises a ZIP by. */
const zip = (text: string) =>
  new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new TextEncoder().encode(text)]);

describe("a product's files", () => {
  it("the owner adds a file to a product; its holders download it from their account, others are sent to its offer, and a refund closes it", async () => {
    const owner = await createUser({ isAdmin: true });
    const holder = await createUser({ paid: true });
    const other = await createUser({ paid: true });
    const db = await getDb();
    const bought = await fulfilPurchase(db, {
      userId: holder.id,
      provider: "warriorplus",
      providerRef: `wp-${randomUUID()}`,
      product: "white-label",
      amountCents: 3700,
      currency: "usd",
    });

    const name = `brand-kit-${randomUUID().slice(0, 8)}.zip`;
    const added = await addFile(owner.cookie, "white-label", zip("the kit"), name);
    expect(redirectTarget(added)).toBe("/admin/products");
    const [row] = await db.select().from(productFileTable).where(eq(productFileTable.name, name));
    expect(row).toMatchObject({
      product: "white-label",
      contentType: "application/zip",
      sizeBytes: 11,
    });
    const id = row?.id ?? "";
    const [logged] = await db
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, owner.id), eq(auditLog.kind, "product.update")));
    expect(logged?.detail).toBe(`File added: ${name}`);

    // The owner's page lists it under the product.
    const page = (await products.loader({
      request: appRequest("/admin/products", { cookie: owner.cookie }),
      params: {},
      context: {},
    } as never)) as unknown as { data: { products: { key: string; files: { id: string }[] }[] } };
    expect(
      page.data.products.find((p) => p.key === "white-label")?.files.map((f) => f.id),
    ).toContain(id);

    // Its holder sees it on their account page and downloads it as an attachment.
    const listed = (await downloadsOf(holder.cookie)).find((g) => g.product === "white-label");
    expect(listed?.name).toBe(productName("white-label"));
    expect(listed?.files.map((f) => f.id)).toContain(id);
    const file = (await download(holder.cookie, id)) as Response;
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/zip");
    expect(file.headers.get("content-disposition")).toBe(
      `attachment; filename="${name.replace(/\.zip$/, "")}.zip"`,
    );
    expect(file.headers.get("cache-control")).toBe("private, no-store");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(zip("the kit"));

    // A member without the package: not on their account page, and sent to its offer.
    expect((await downloadsOf(other.cookie)).some((g) => g.product === "white-label")).toBe(false);
    expect(redirectTarget(await download(other.cookie, id))).toBe("/white-label-upsell");
    // An admin opens every file.
    expect(((await download(owner.cookie, id)) as Response).status).toBe(200);
    // An id that is no file.
    expect(((await download(holder.cookie, randomUUID())) as Response).status).toBe(404);
    expect(((await download(holder.cookie, "not-an-id")) as Response).status).toBe(404);

    // A refund of the package closes its files, and only them.
    await revokePurchase(db, { provider: "warriorplus", providerRef: bought.providerRef });
    expect(redirectTarget(await download(holder.cookie, id))).toBe("/white-label-upsell");
    expect((await downloadsOf(holder.cookie)).some((g) => g.product === "white-label")).toBe(false);

    // Removed: gone from the database and the store, and logged.
    expect(redirectTarget(await removeFile(owner.cookie, "white-label", id))).toBe(
      "/admin/products",
    );
    expect(await db.select().from(productFileTable).where(eq(productFileTable.id, id))).toEqual([]);
    expect(existsSync(path.join(getEnv().dataDir, "uploads", row?.storedName ?? ""))).toBe(false);
    expect(((await download(owner.cookie, id)) as Response).status).toBe(404);
  });

  it("refuses an empty file, a kind it does not take and a file of another product, with a message, nothing stored", async () => {
    const owner = await createUser({ isAdmin: true });
    const db = await getDb();
    type Refusal = {
      init: { status: number };
      data: {
        formError: string;
        fieldErrors: Record<string, string>;
        values: Record<string, string>;
      };
    };
    const empty = (await addFile(owner.cookie, "bump-vip", new Uint8Array(0), "a.zip")) as Refusal;
    expect(empty.init.status).toBe(400);
    expect(empty.data.fieldErrors.file).toBe("Choose a file to add.");
    expect(empty.data.values.product).toBe("bump-vip");
    const program = (await addFile(
      owner.cookie,
      "bump-vip",
      new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03]),
      "setup.exe",
    )) as Refusal;
    expect(program.init.status).toBe(415);
    expect(program.data.fieldErrors.file).toBe(
      "Upload a ZIP archive, a PDF, a Word document, a text file or an image.",
    );
    expect(program.data.formError).toMatch(/Nothing was added\.$/);
    expect(
      await db.select().from(productFileTable).where(eq(productFileTable.name, "setup.exe")),
    ).toEqual([]);

    // A file of the VIP Upgrade cannot be removed as the package's.
    const name = `kit-${randomUUID().slice(0, 8)}.txt`;
    await addFile(owner.cookie, "bump-vip", new TextEncoder().encode("read me"), name);
    const [row] = await db.select().from(productFileTable).where(eq(productFileTable.name, name));
    expect(row?.contentType).toBe("text/plain; charset=utf-8");
    const wrong = (await removeFile(owner.cookie, "white-label", row?.id ?? "")) as Refusal;
    expect(wrong.init.status).toBe(404);
    expect(wrong.data.formError).toBe("That file is not one of this product's.");
    const badId = (await removeFile(owner.cookie, "bump-vip", "nope")) as Refusal;
    expect(badId.init.status).toBe(400);
    // A member cannot add one.
    const member = await createUser({ paid: true });
    expect(redirectTarget(await addFile(member.cookie, "bump-vip", zip("x"), "x.zip"))).toBe(
      "/dashboard",
    );
    await removeFile(owner.cookie, "bump-vip", row?.id ?? "");
  });
});
