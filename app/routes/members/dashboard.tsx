import { data, Link, useSearchParams } from "react-router";
import { CourseCard } from "~/components/members/course-card";
import { requireMember } from "~/server/auth/guards.server";
import { dashboardCourses } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import type { Route } from "./+types/dashboard";
import { dashboardNotice } from "./notices";

export const meta: Route.MetaFunction = () => [{ title: "Training Area | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireMember(request);
  const result = await dashboardCourses(await getDb(), user.id);
  // A failed list must not be kept by the member page cache: a refresh tries again.
  return result.failed ? data(result, { headers: { "Cache-Control": "no-store" } }) : result;
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { courses, failed, products } = loaderData;
  const notice = dashboardNotice(useSearchParams()[0]);
  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Training Area</h1>
      <p className="mt-2 text-slate-600">Pick a course and start where you left off.</p>
      {notice ? (
        <p
          role="alert"
          className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4 font-semibold text-amber-900"
        >
          {notice}
        </p>
      ) : null}
      {products.includes("custom-saas") ? (
        <section
          aria-labelledby="build-heading"
          className="mt-6 flex flex-wrap items-center justify-between gap-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4"
        >
          <div>
            <h2 id="build-heading" className="font-semibold text-emerald-950">
              Your Custom SaaS Build
            </h2>
            <p className="mt-1 text-sm text-emerald-900">
              Your order number, the intake form and where your build is.
            </p>
          </div>
          <Link
            to="/coaching"
            className="inline-flex min-h-11 items-center rounded-md bg-emerald-700 px-4 py-2 font-semibold text-white hover:bg-emerald-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 focus-visible:ring-offset-2"
          >
            Open your build
          </Link>
        </section>
      ) : null}
      {failed ? (
        <div
          role="alert"
          className="mt-8 rounded-lg border border-red-300 bg-red-50 p-6 text-center"
        >
          <p className="font-semibold text-red-800">Error loading courses</p>
          <p className="mt-1 text-red-700">Please try refreshing the page.</p>
        </div>
      ) : courses.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600">
          No courses have been published yet.
        </p>
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {courses.map((c) => (
            <li key={c.id}>
              <CourseCard course={c} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
