import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminPageErrorBoundary } from "~/components/admin/confirm-its-you";
import { ConsoleHeading } from "~/components/admin/console";
import { FormError, Notice } from "~/components/form-answer";
import { primaryButton, secondaryButton, TextField } from "~/components/ui";
import { type FunnelProductKey, formatUsd } from "~/config/site";
import {
  productFileAddSchema,
  productFileRemoveSchema,
  productFormSchema,
} from "~/lib/admin-forms";
import { fileSize } from "~/lib/file-size";
import { type FormAnswer, isFormAnswer } from "~/lib/form-answer";
import { productNameIn, productNameKeys, productPrice, productPriceKeys } from "~/lib/offer";
import { toDollars } from "~/lib/offer-settings-form";
import { adminActor } from "~/server/admin/audit.server";
import {
  addProductFile,
  readProducts,
  removeProductFileRow,
  setProductCourses,
} from "~/server/admin/products.server";
import { requireAdmin, requireRecentProof } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import {
  checkForm,
  firstError,
  readForm,
  redirectWithNotice,
  takeNotice,
} from "~/server/forms.server";
import { refreshOfferSettingsEverywhere } from "~/server/process-messages.server";
import {
  productName,
  readOfferSettings,
  writeOfferSettings,
} from "~/server/settings/offer-settings.server";
import { removeProductFile, saveProductFile, UploadError } from "~/server/uploads/store.server";
import type { Route } from "./+types/products";

export const meta: Route.MetaFunction = () => [{ title: "Products | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = await getDb();
  const [page, { settings }] = await Promise.all([readProducts(db), readOfferSettings(db)]);
  const { notice, headers } = takeNotice(request);
  const products = page.products.map((p) => {
    const { priceCents, regularPriceCents } = productPrice(settings, p.key);
    return {
      ...p,
      name: productNameIn(settings, p.key),
      values: {
        name: productNameIn(settings, p.key),
        price: toDollars(priceCents),
        regularPrice: regularPriceCents === null ? null : toDollars(regularPriceCents),
      },
    };
  });
  return data({ products, courses: page.courses, notice }, { headers });
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  // A file added, like a chapter's image, needs no new proof: "Confirm it's you" could not
  // send the chosen file again.
  if (intent === "add-file") return addFile(form, adminActor(admin));
  // A product's price is what every page shows and the checkout charges, and a file removed
  // is taken from every holder: only with a recent proof.
  await requireRecentProof(request, admin, form);
  if (intent === "remove-file") return removeFile(form, adminActor(admin));
  // Each ticked course is a `course` field: the list is read whole, then checked with the product.
  const ticked = form.getAll("course").map(String);
  const checked = checkForm(form, productFormSchema, "all");
  const courses = productFormSchema.shape.courses.safeParse(ticked);
  if (!checked.ok) {
    const count = Object.keys(checked.fieldErrors).length;
    if (checked.fieldErrors.product) return checked.refuse(400, firstError(checked.fieldErrors));
    return checked.refuse(
      400,
      {
        fieldErrors: checked.fieldErrors,
        formError: `${count === 1 ? "One field needs" : `${count} fields need`} attention: see the messages below. Nothing was saved.`,
      },
      { extra: { ticked } },
    );
  }
  if (!courses.success) {
    return checked.refuse(
      400,
      { formError: "A course chosen is not one of the list. Nothing was saved." },
      { extra: { ticked } },
    );
  }
  const { product, name, price, regularPrice } = checked.data;
  const db = await getDb();
  const actor = adminActor(admin);
  const keys = productPriceKeys[product];
  // The name, the price and the courses together, or none of them.
  const { priced, opens } = await db.transaction(async (tx) => ({
    priced: await writeOfferSettings(tx, actor, {
      [productNameKeys[product]]: name,
      [keys.price]: price,
      ...(keys.regular === null || regularPrice === undefined
        ? {}
        : { [keys.regular]: regularPrice }),
    }),
    opens: await setProductCourses(tx, actor, product, courses.data),
  }));
  // This server's processes show the new name and price now; other servers within a few seconds.
  if (priced.length > 0) await refreshOfferSettingsEverywhere(db);
  return redirectWithNotice(
    "/admin/products",
    `Saved: ${name} sells at ${formatUsd(price)} and opens ${opens === 1 ? "1 course" : `${opens} courses`}.`,
  );
}

type Actor = ReturnType<typeof adminActor>;

/** A file the owner uploaded for a product: stored, then listed as one it opens. */
async function addFile(form: FormData, actor: Actor) {
  const checked = checkForm(form, productFileAddSchema, ["product", "intent"]);
  if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors));
  const refuse = (status: number, message: string) =>
    checked.refuse(status, {
      fieldErrors: { file: message },
      formError: `${message} Nothing was added.`,
    });
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return refuse(400, "Choose a file to add.");
  let stored: { name: string; type: string };
  try {
    stored = await saveProductFile(new Uint8Array(await file.arrayBuffer()));
  } catch (error) {
    if (error instanceof UploadError) return refuse(error.status, error.message);
    throw error;
  }
  const { product } = checked.data;
  // The name it had on the owner's computer, printable characters only.
  const name =
    [...file.name]
      .filter((c) => c >= " " && c !== "\u007f")
      .join("")
      .trim()
      .slice(0, 200) || "file";
  try {
    await addProductFile(await getDb(), actor, product, {
      name,
      storedName: stored.name,
      contentType: stored.type,
      sizeBytes: file.size,
    });
  } catch (error) {
    await removeProductFile(stored.name);
    throw error;
  }
  return redirectWithNotice("/admin/products", `Added ${name} to ${productName(product)}.`);
}

/** A file a product no longer opens: its row, then the stored file. */
async function removeFile(form: FormData, actor: Actor) {
  const checked = checkForm(form, productFileRemoveSchema, ["product", "intent", "fileId"]);
  if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors));
  const { product, fileId } = checked.data;
  const removed = await removeProductFileRow(await getDb(), actor, product, fileId);
  if (!removed)
    return checked.refuse(404, { formError: "That file is not one of this product's." });
  await removeProductFile(removed.storedName);
  return redirectWithNotice(
    "/admin/products",
    `Removed ${removed.name} from ${productName(product)}.`,
  );
}

export const ErrorBoundary = AdminPageErrorBoundary;

/** Where each product's price is shown. */
const priceHints: Record<FunnelProductKey, string> = {
  "lifetime-access": "The landing page, the first sales page and the checkout.",
  "bump-vip": "The plan page's order bump and the affiliates' funnel.",
  "white-label": "/white-label-upsell and /upgrades.",
  "custom-saas": "/custom-saas-upsell and /upgrades.",
};

/**
 * A field of a product's form: after a refused save of this product, what was
 * typed and its message; else the saved value. Prices take decimals.
 */
function ProductField({
  productKey,
  name,
  label,
  hint,
  saved,
  typed,
}: {
  productKey: string;
  name: "name" | "price" | "regularPrice";
  label: string;
  hint: string;
  saved: string;
  typed: FormAnswer | undefined;
}) {
  return (
    <TextField
      id={`${productKey}-${name === "regularPrice" ? "regular-price" : name}`}
      name={name}
      label={label}
      inputMode={name === "name" ? undefined : "decimal"}
      autoComplete="off"
      hint={hint}
      defaultValue={typed?.values[name] ?? saved}
      error={typed?.fieldErrors[name]}
    />
  );
}

export default function Products({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  // What is being sent: which product, and which of its forms (a save has no intent).
  const sending =
    navigation.state === "submitting"
      ? {
          product: String(navigation.formData?.get("product") ?? ""),
          intent: String(navigation.formData?.get("intent") ?? "save"),
          fileId: String(navigation.formData?.get("fileId") ?? ""),
        }
      : null;
  const refused = isFormAnswer(actionData) ? actionData : undefined;
  const tickedAgain = (actionData as { ticked?: string[] } | undefined)?.ticked ?? [];
  const { products, courses } = loaderData;
  const main = useRef<HTMLElement>(null);
  // A refused save: the first field with a message takes the focus.
  useEffect(() => {
    if (refused) main.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refused]);
  return (
    <main ref={main}>
      <ConsoleHeading title="Products">
        What each product the funnel sells costs and opens. Its price here is the one every page
        shows, and Lifetime Access&apos;s and the VIP Upgrade&apos;s are what this site&apos;s
        checkout charges; the marketplace charges what is set there, so change a price there too. A
        member opens a course when they hold a product that opens it; a course no product opens is
        for admins only. The members&apos; area itself (dashboard, tools, bonuses) comes with
        Lifetime Access.
      </ConsoleHeading>
      {/* A refused save: its message only, not the last save's. */}
      <Notice notice={refused ? null : loaderData.notice} />
      <div className="mt-4 empty:hidden">
        <FormError answer={refused} />
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        {products.map((product) => {
          const mine = sending?.product === product.key ? sending : null;
          const saving = mine?.intent === "save";
          // The refused save of this product: its messages and what was typed.
          const typed = refused?.values.product === product.key ? refused : undefined;
          const headingId = `product-${product.key}`;
          return (
            <section
              key={product.key}
              aria-labelledby={headingId}
              className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
            >
              <h2 id={headingId} className="text-lg font-semibold">
                {product.name}
              </h2>
              <p className="mt-1 text-sm text-slate-600">
                {product.offerPath ? (
                  <>
                    Offered on{" "}
                    <Link to={product.offerPath} className="text-indigo-700 underline">
                      {product.offerPath}
                    </Link>
                  </>
                ) : (
                  "Offered at checkout with Lifetime Access"
                )}
              </p>
              <Form method="post" className="mt-4" aria-busy={saving}>
                <input type="hidden" name="product" value={product.key} />
                <ProductField
                  productKey={product.key}
                  name="name"
                  label="Name"
                  hint="As pages, receipts and e-mails name it."
                  saved={product.values.name}
                  typed={typed}
                />
                <div className="mt-4 grid gap-4 sm:grid-cols-2">
                  <ProductField
                    productKey={product.key}
                    name="price"
                    label="Price (US$)"
                    hint={priceHints[product.key]}
                    saved={product.values.price}
                    typed={typed}
                  />
                  {product.values.regularPrice === null ? null : (
                    <ProductField
                      productKey={product.key}
                      name="regularPrice"
                      label="Struck-through price (US$)"
                      hint="Shown crossed out beside the price."
                      saved={product.values.regularPrice}
                      typed={typed}
                    />
                  )}
                </div>
                <fieldset className="mt-5">
                  <legend className="text-sm font-medium text-slate-700">
                    Opens these courses
                  </legend>
                  {courses.length === 0 ? (
                    <p className="mt-2 text-sm text-slate-600">There are no courses yet.</p>
                  ) : (
                    <ul className="mt-2 space-y-1">
                      {courses.map((course) => {
                        const id = `${product.key}-${course.id}`;
                        return (
                          <li key={course.id} className="flex items-start gap-2">
                            <input
                              id={id}
                              type="checkbox"
                              name="course"
                              value={course.id}
                              defaultChecked={(typed ? tickedAgain : product.courseIds).includes(
                                course.id,
                              )}
                              className="mt-1 h-5 w-5 shrink-0 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500"
                            />
                            <label htmlFor={id} className="min-w-0 py-0.5 break-words">
                              {course.title}
                              {course.published ? null : (
                                <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">
                                  Draft
                                </span>
                              )}
                            </label>
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </fieldset>
                <button
                  type="submit"
                  disabled={saving}
                  className={`${primaryButton} mt-4 sm:w-auto`}
                  aria-describedby={headingId}
                >
                  {saving ? "Saving…" : "Save"}
                </button>
              </Form>
              <ProductFiles
                product={product.key}
                name={product.name}
                files={product.files}
                sending={mine}
                error={typed?.fieldErrors.file}
              />
            </section>
          );
        })}
      </div>
    </main>
  );
}

/** The files a product opens: each downloadable and removable, and a form to add one. */
function ProductFiles({
  product,
  name,
  files,
  sending,
  error,
}: {
  product: FunnelProductKey;
  name: string;
  files: { id: string; name: string; sizeBytes: number }[];
  sending: { intent: string; fileId: string } | null;
  error: string | undefined;
}) {
  const headingId = `${product}-files`;
  const inputId = `${product}-file`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const adding = sending?.intent === "add-file";
  return (
    <section aria-labelledby={headingId} className="mt-6 border-t border-slate-200 pt-4">
      <h3 id={headingId} className="text-sm font-medium text-slate-700">
        Opens these files
      </h3>
      {files.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No files yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {files.map((file) => {
            const removing = sending?.intent === "remove-file" && sending.fileId === file.id;
            return (
              <li key={file.id} className="flex flex-wrap items-center justify-between gap-2 py-1">
                <span className="min-w-0 break-words">
                  <a href={`/files/${file.id}`} className="text-indigo-700 underline">
                    {file.name}
                  </a>{" "}
                  <span className="text-sm whitespace-nowrap text-slate-500">
                    {fileSize(file.sizeBytes)}
                  </span>
                </span>
                <Form method="post">
                  <input type="hidden" name="product" value={product} />
                  <input type="hidden" name="intent" value="remove-file" />
                  <input type="hidden" name="fileId" value={file.id} />
                  <button
                    type="submit"
                    disabled={removing}
                    aria-label={`Remove ${file.name} from ${name}`}
                    className="min-h-11 rounded px-3 text-sm font-semibold text-red-700 underline hover:bg-red-50"
                  >
                    {removing ? "Removing…" : "Remove"}
                  </button>
                </Form>
              </li>
            );
          })}
        </ul>
      )}
      {/* A new form once the list changes: the file just added is no longer chosen. */}
      <Form
        key={files.map((f) => f.id).join()}
        method="post"
        encType="multipart/form-data"
        className="mt-3"
        aria-busy={adding}
      >
        <input type="hidden" name="product" value={product} />
        <input type="hidden" name="intent" value="add-file" />
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
          Add a file
        </label>
        <input
          id={inputId}
          type="file"
          name="file"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          className="mt-1 block w-full text-sm file:mr-3 file:min-h-11 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:font-semibold"
        />
        {error ? (
          <p id={errorId} className="mt-1 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          A ZIP archive, PDF, Word document, text file or image of at most 25 MB. Holders of {name}{" "}
          download it from their account page.
        </p>
        <button type="submit" disabled={adding} className={`${secondaryButton} mt-2 sm:w-auto`}>
          {adding ? "Uploading…" : "Add file"}
        </button>
      </Form>
    </section>
  );
}
