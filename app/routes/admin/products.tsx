import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminPageErrorBoundary } from "~/components/admin/confirm-its-you";
import { ConsoleHeading } from "~/components/admin/console";
import { FormError, Notice } from "~/components/form-answer";
import { primaryButton, TextField } from "~/components/ui";
import { type FunnelProductKey, formatUsd, funnelProducts } from "~/config/site";
import { productFormSchema } from "~/lib/admin-forms";
import { isFormAnswer } from "~/lib/form-answer";
import { productPrice, productPriceKeys } from "~/lib/offer";
import { toDollars } from "~/lib/offer-settings-form";
import { adminActor } from "~/server/admin/audit.server";
import { readProducts, setProductCourses } from "~/server/admin/products.server";
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
import { readOfferSettings, writeOfferSettings } from "~/server/settings/offer-settings.server";
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
      values: {
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
  // A product's price is what every page shows and the checkout charges: only with a recent proof.
  await requireRecentProof(request, admin, form);
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
  const { product, price, regularPrice } = checked.data;
  const db = await getDb();
  const actor = adminActor(admin);
  const keys = productPriceKeys[product];
  // The price and the courses together, or neither.
  const { priced, opens } = await db.transaction(async (tx) => ({
    priced: await writeOfferSettings(tx, actor, {
      [keys.price]: price,
      ...(keys.regular === null || regularPrice === undefined
        ? {}
        : { [keys.regular]: regularPrice }),
    }),
    opens: await setProductCourses(tx, actor, product, courses.data),
  }));
  // This server's processes show the new price now; other servers within a few seconds.
  if (priced.length > 0) await refreshOfferSettingsEverywhere(db);
  return redirectWithNotice(
    "/admin/products",
    `Saved: ${funnelProducts[product].name} sells at ${formatUsd(price)} and opens ${opens === 1 ? "1 course" : `${opens} courses`}.`,
  );
}

export const ErrorBoundary = AdminPageErrorBoundary;

/** Where each product's price is shown. */
const priceHints: Record<FunnelProductKey, string> = {
  "lifetime-access": "The landing page, the first sales page and the checkout.",
  "bump-vip": "The affiliates' funnel; sold on the marketplace's checkout.",
  "white-label": "/white-label-upsell and /upgrades.",
  "custom-saas": "/custom-saas-upsell and /upgrades.",
};

export default function Products({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const savingProduct =
    navigation.state === "submitting" ? String(navigation.formData?.get("product") ?? "") : null;
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
        shows, and Lifetime Access&apos;s is what the checkout charges; the marketplace charges what
        is set there, so change a price there too. A member opens a course when they hold a product
        that opens it; a course no product opens is for admins only. The members&apos; area itself
        (dashboard, tools, bonuses) comes with Lifetime Access.
      </ConsoleHeading>
      {/* A refused save: its message only, not the last save's. */}
      <Notice notice={refused ? null : loaderData.notice} />
      <div className="mt-4 empty:hidden">
        <FormError answer={refused} />
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        {products.map((product) => {
          const saving = savingProduct === product.key;
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
                <div className="grid gap-4 sm:grid-cols-2">
                  <TextField
                    id={`${product.key}-price`}
                    name="price"
                    label="Price (US$)"
                    inputMode="decimal"
                    autoComplete="off"
                    hint={priceHints[product.key]}
                    defaultValue={typed?.values.price ?? product.values.price}
                    error={typed?.fieldErrors.price}
                  />
                  {product.values.regularPrice === null ? null : (
                    <TextField
                      id={`${product.key}-regular-price`}
                      name="regularPrice"
                      label="Struck-through price (US$)"
                      inputMode="decimal"
                      autoComplete="off"
                      hint="Shown crossed out beside the price."
                      defaultValue={typed?.values.regularPrice ?? product.values.regularPrice}
                      error={typed?.fieldErrors.regularPrice}
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
            </section>
          );
        })}
      </div>
    </main>
  );
}
