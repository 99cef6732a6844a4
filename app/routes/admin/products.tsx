import { data, Form, Link, useNavigation } from "react-router";
import { AdminPageErrorBoundary } from "~/components/admin/confirm-its-you";
import { ConsoleHeading } from "~/components/admin/console";
import { FormError, Notice } from "~/components/form-answer";
import { primaryButton } from "~/components/ui";
import { type FunnelProductKey, formatUsd, funnelProducts } from "~/config/site";
import { productCoursesSchema } from "~/lib/admin-forms";
import { isFormAnswer } from "~/lib/form-answer";
import { adminActor } from "~/server/admin/audit.server";
import { readProducts, setProductCourses } from "~/server/admin/products.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import {
  checkForm,
  firstError,
  readForm,
  redirectWithNotice,
  takeNotice,
} from "~/server/forms.server";
import { currentOfferSettings } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/products";

export const meta: Route.MetaFunction = () => [{ title: "Products | AI Labs" }];

/** A product's price as every page shows it: the plan's from the offer settings, the add-ons' from the funnel. */
function priceOf(key: FunnelProductKey): number {
  return key === "lifetime-access"
    ? currentOfferSettings().planPriceCents
    : funnelProducts[key].amountCents;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = await readProducts(await getDb());
  const { notice, headers } = takeNotice(request);
  const products = page.products.map((p) => ({ ...p, priceCents: priceOf(p.key) }));
  return data({ products, courses: page.courses, notice }, { headers });
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  // Each ticked course is a `course` field: the list is read whole, then checked with the product.
  const checked = checkForm(form, productCoursesSchema);
  const courses = productCoursesSchema.shape.courses.safeParse(form.getAll("course"));
  if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors));
  if (!courses.success) {
    return checked.refuse(400, {
      formError: "A course chosen is not one of the list. Nothing was saved.",
    });
  }
  const { product } = checked.data;
  const opens = await setProductCourses(await getDb(), adminActor(admin), product, courses.data);
  const name = funnelProducts[product].name;
  return redirectWithNotice(
    "/admin/products",
    `Saved: ${name} now opens ${opens === 1 ? "1 course" : `${opens} courses`}.`,
  );
}

export const ErrorBoundary = AdminPageErrorBoundary;

export default function Products({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const savingProduct =
    navigation.state === "submitting" ? String(navigation.formData?.get("product") ?? "") : null;
  const refused = isFormAnswer(actionData) ? actionData : undefined;
  const { products, courses } = loaderData;
  return (
    <main>
      <ConsoleHeading title="Products">
        What each product the funnel sells opens. A member opens a course when they hold a product
        that opens it; a course no product opens is for admins only. The members&apos; area itself
        (dashboard, tools, bonuses) comes with Lifetime Access.
      </ConsoleHeading>
      <Notice notice={loaderData.notice} />
      <div className="mt-4 empty:hidden">
        <FormError answer={refused} />
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        {products.map((product) => {
          const saving = savingProduct === product.key;
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
                {formatUsd(product.priceCents)}
                {product.key === "lifetime-access" ? (
                  <>
                    {" "}
                    (set in{" "}
                    <Link to="/admin/settings" className="text-indigo-700 underline">
                      Offer settings
                    </Link>
                    )
                  </>
                ) : null}
                {" · "}
                {product.offerPath ? (
                  <>
                    offered on{" "}
                    <Link to={product.offerPath} className="text-indigo-700 underline">
                      {product.offerPath}
                    </Link>
                  </>
                ) : (
                  "offered at checkout with Lifetime Access"
                )}
              </p>
              <Form method="post" className="mt-4" aria-busy={saving}>
                <input type="hidden" name="product" value={product.key} />
                <fieldset>
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
                              defaultChecked={product.courseIds.includes(course.id)}
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
