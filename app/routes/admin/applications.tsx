import { data, Form, Link, useNavigation } from "react-router";
import { AdminPageErrorBoundary } from "~/components/admin/confirm-its-you";
import { ConsoleHeading, EmptyState, fieldClass, formatWhen } from "~/components/admin/console";
import { FormError, Notice } from "~/components/form-answer";
import { primaryButton } from "~/components/ui";
import { applicationStatuses } from "~/lib/application-status";
import { applicationUpdateSchema, hostingChoices, statusNames } from "~/lib/coaching-forms";
import { isFormAnswer } from "~/lib/form-answer";
import { adminActor } from "~/server/admin/audit.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { type BuildRow, listBuilds, updateBuild } from "~/server/coaching/applications.server";
import { getDb } from "~/server/db/db.server";
import { firstError, readCheckedForm, redirectWithNotice, takeNotice } from "~/server/forms.server";
import type { Route } from "./+types/applications";

export const meta: Route.MetaFunction = () => [{ title: "Custom SaaS builds | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const builds = await listBuilds(await getDb());
  const { notice, headers } = takeNotice(request);
  return data({ builds, notice }, { headers });
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const checked = await readCheckedForm(request, applicationUpdateSchema, ["purchaseId", "notes"]);
  if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors));
  if (!(await updateBuild(await getDb(), adminActor(admin), checked.data))) {
    return checked.refuse(404, { formError: "That build has no intake form yet." });
  }
  return redirectWithNotice(
    "/admin/applications",
    `Saved: the build is now "${statusNames[checked.data.status]}".`,
  );
}

export const ErrorBoundary = AdminPageErrorBoundary;

export default function Applications({ loaderData, actionData }: Route.ComponentProps) {
  const { builds, notice } = loaderData;
  return (
    <main>
      <ConsoleHeading title="Custom SaaS builds">
        Every Custom SaaS purchase, newest first: the buyer&apos;s intake form, where the build is,
        and your private notes (the buyer never sees them).
      </ConsoleHeading>
      <Notice notice={notice} />
      {builds.length === 0 ? (
        <div className="mt-6">
          <EmptyState>No Custom SaaS build has been sold yet.</EmptyState>
        </div>
      ) : (
        <ul className="mt-6 space-y-6">
          {builds.map((build) => (
            <li key={build.purchaseId}>
              <BuildCard build={build} answer={actionData} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

function BuildCard({ build, answer }: { build: BuildRow; answer: unknown }) {
  const navigation = useNavigation();
  const refused =
    isFormAnswer(answer) && answer.values.purchaseId === build.purchaseId ? answer : undefined;
  const saving =
    navigation.state === "submitting" &&
    navigation.formData?.get("purchaseId") === build.purchaseId;
  const intake = build.intake;
  const headingId = `build-${build.purchaseId}`;
  const id = (name: string) => `${name}-${build.purchaseId}`;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          Order {build.orderNumber}
        </h2>
        <span className="rounded bg-slate-100 px-2 py-0.5 text-sm font-medium text-slate-800">
          {build.refunded ? "Refunded" : intake ? statusNames[intake.status] : "No intake form yet"}
        </span>
      </div>
      <p className="mt-1 text-sm break-words text-slate-600">
        <Link to={`/admin/members/${build.buyer.id}`} className="text-indigo-700 underline">
          {build.buyer.name}
        </Link>{" "}
        ({build.buyer.email}), bought {formatWhen(build.boughtAt)}
        {intake ? `, form sent ${formatWhen(intake.submittedAt)}` : ""}
      </p>
      {intake ? (
        <>
          <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
            <dt className="font-medium text-slate-700">Vision document</dt>
            <dd>
              <a
                href={`/coaching/vision/${build.purchaseId}`}
                className="break-all text-indigo-700 underline"
              >
                {intake.visionName}
              </a>
            </dd>
            <dt className="font-medium text-slate-700">Availability</dt>
            <dd className="whitespace-pre-line break-words text-slate-800">
              {intake.availability}
            </dd>
            <dt className="font-medium text-slate-700">Technical environment</dt>
            <dd className="whitespace-pre-line break-words text-slate-800">
              {intake.techEnvironment || "—"}
            </dd>
            <dt className="font-medium text-slate-700">Hosting</dt>
            <dd className="text-slate-800">
              {hostingChoices[intake.hosting as keyof typeof hostingChoices] ?? intake.hosting}
            </dd>
            <dt className="font-medium text-slate-700">Content plan</dt>
            <dd className="whitespace-pre-line break-words text-slate-800">{intake.contentPlan}</dd>
          </dl>
          <div className="mt-4 empty:hidden">
            <FormError answer={refused} />
          </div>
          {/* A new key once the saved values change (here or in another tab): the form shows them. */}
          <Form
            key={`${intake.status}:${intake.notes}`}
            method="post"
            className="mt-4 grid gap-4 sm:grid-cols-2"
            aria-busy={saving}
          >
            <input type="hidden" name="purchaseId" value={build.purchaseId} />
            <div>
              <label htmlFor={id("status")} className="block text-sm font-medium text-slate-700">
                Status
              </label>
              <select
                id={id("status")}
                name="status"
                defaultValue={intake.status}
                className={fieldClass}
              >
                {applicationStatuses.map((s) => (
                  <option key={s} value={s}>
                    {statusNames[s]}
                  </option>
                ))}
              </select>
            </div>
            <div className="sm:col-span-2">
              <label htmlFor={id("notes")} className="block text-sm font-medium text-slate-700">
                Private notes
              </label>
              <textarea
                id={id("notes")}
                name="notes"
                rows={3}
                defaultValue={refused?.values.notes ?? intake.notes}
                className={fieldClass}
              />
            </div>
            <div>
              <button
                type="submit"
                disabled={saving}
                className={`${primaryButton} sm:w-auto`}
                aria-describedby={headingId}
              >
                {saving ? "Saving…" : "Save"}
              </button>
            </div>
          </Form>
        </>
      ) : (
        <p className="mt-4 text-sm text-slate-600">
          The buyer has not sent the intake form yet (at /coaching, linked from their dashboard and
          the thank-you page).
        </p>
      )}
    </section>
  );
}
