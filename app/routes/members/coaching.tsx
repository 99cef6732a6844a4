import { useEffect, useRef } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { formatWhen } from "~/components/admin/console";
import { FormError, fieldErrorsOf, Notice } from "~/components/form-answer";
import { primaryButton, TextAreaField } from "~/components/ui";
import { hostingChoices, type IntakeForm, intakeSchema, statusNames } from "~/lib/coaching-forms";
import { isFormAnswer } from "~/lib/form-answer";
import { requireMember } from "~/server/auth/guards.server";
import {
  type BuildOrder,
  buildOrdersOf,
  submitIntake,
  visionDocumentFor,
} from "~/server/coaching/applications.server";
import { getDb } from "~/server/db/db.server";
import { checkForm, readForm, redirectWithNotice, takeNotice } from "~/server/forms.server";
import { saveDocument, UploadError } from "~/server/uploads/store.server";
import type { Route } from "./+types/coaching";

export const meta: Route.MetaFunction = () => [{ title: "Your Custom SaaS Build | AI Labs" }];

const typed = ["purchaseId", "availability", "techEnvironment", "hosting", "contentPlan"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireMember(request);
  const orders = await buildOrdersOf(await getDb(), user.id);
  // Not a buyer: the offer.
  if (orders.length === 0) throw redirect("/custom-saas-upsell");
  const { notice, headers } = takeNotice(request);
  return data({ orders, notice }, { headers });
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireMember(request);
  const form = await readForm(request);
  const checked = checkForm(form, intakeSchema, typed);
  if (!checked.ok) {
    return checked.refuse(400, {
      fieldErrors: checked.fieldErrors,
      formError: "Some answers need attention: see the messages below. Nothing was sent.",
    });
  }
  const db = await getDb();
  const input = checked.data;
  const order = (await buildOrdersOf(db, user.id)).find((o) => o.purchaseId === input.purchaseId);
  if (!order) return checked.refuse(404, { formError: "That order is not one of yours." });
  const vision = await visionOf(form, order, user);
  if ("error" in vision) {
    return checked.refuse(vision.status, {
      fieldErrors: { vision: vision.error },
      formError: `${vision.error} Nothing was sent.`,
    });
  }
  await submitIntake(db, user.id, input, vision);
  return redirectWithNotice(
    "/coaching",
    `Thank you: the intake form for order ${order.orderNumber} is with the team. We reply within 24 hours.`,
  );
}

/** The vision document sent with the form, stored; or the one sent before when none is attached. */
async function visionOf(
  form: FormData,
  order: BuildOrder,
  user: { id: string; isAdmin: boolean },
): Promise<{ file: string; name: string } | { error: string; status: number }> {
  const file = form.get("vision");
  if (file instanceof File && file.size > 0) {
    try {
      const saved = await saveDocument(new Uint8Array(await file.arrayBuffer()));
      return { file: saved.name, name: file.name.slice(0, 200) || "vision document" };
    } catch (error) {
      if (error instanceof UploadError) return { error: error.message, status: error.status };
      throw error;
    }
  }
  const before = order.intake
    ? await visionDocumentFor(await getDb(), user, order.purchaseId)
    : undefined;
  if (before) return before;
  return {
    error: "Attach your vision document: a PDF, Word or text file of at most 5 MB.",
    status: 400,
  };
}

export default function Coaching({ loaderData, actionData }: Route.ComponentProps) {
  const { orders, notice } = loaderData;
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Your Custom SaaS Build</h1>
      <p className="mt-2 text-slate-600">
        Quote your order number when you contact the team. Send the intake form below so your
        consultation starts from your plan; you can come back and change it at any time.
      </p>
      <Notice notice={notice} />
      {orders.map((order) => (
        <OrderSection key={order.purchaseId} order={order} answer={actionData} />
      ))}
    </main>
  );
}

function OrderSection({ order, answer }: { order: BuildOrder; answer: unknown }) {
  const navigation = useNavigation();
  const mine = (a: unknown) =>
    isFormAnswer(a) && a.values.purchaseId === order.purchaseId ? a : undefined;
  const refused = mine(answer);
  const sending =
    navigation.state === "submitting" &&
    navigation.formData?.get("purchaseId") === order.purchaseId;
  const errors = refused ? fieldErrorsOf(refused) : {};
  const intake = order.intake;
  const value = (name: keyof IntakeForm): string =>
    refused?.values[name] ?? (intake ? String(intake[name as keyof typeof intake] ?? "") : "");
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (refused) {
      formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
    }
  }, [refused]);
  const headingId = `order-${order.purchaseId}`;
  return (
    <section
      aria-labelledby={headingId}
      className="mt-8 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id={headingId} className="text-xl font-semibold">
        Order {order.orderNumber}
      </h2>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">Bought</dt>
        <dd className="text-slate-600">{formatWhen(order.boughtAt)}</dd>
        <dt className="font-medium text-slate-700">Status</dt>
        <dd className="text-slate-600">
          {intake ? statusNames[intake.status] : "Waiting for your intake form"}
        </dd>
        {intake ? (
          <>
            <dt className="font-medium text-slate-700">Form sent</dt>
            <dd className="text-slate-600">{formatWhen(intake.submittedAt)}</dd>
          </>
        ) : null}
      </dl>
      <div className="mt-4 empty:hidden">
        <FormError answer={refused} />
      </div>
      {/* A new key once the form is sent again: it shows what was saved. */}
      <Form
        key={intake ? String(intake.submittedAt) : "new"}
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        className="mt-6 space-y-5"
        aria-busy={sending}
        aria-label={`Intake form for order ${order.orderNumber}`}
        noValidate
      >
        <input type="hidden" name="purchaseId" value={order.purchaseId} />
        <div>
          <label
            htmlFor={`vision-${order.purchaseId}`}
            className="block text-sm font-medium text-slate-700"
          >
            Vision document
          </label>
          <input
            id={`vision-${order.purchaseId}`}
            name="vision"
            type="file"
            accept=".pdf,.docx,.txt,.md,application/pdf,text/plain"
            aria-invalid={errors.vision ? true : undefined}
            aria-describedby={`vision-${order.purchaseId}-hint${errors.vision ? ` vision-${order.purchaseId}-error` : ""}`}
            className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-md file:border-0 file:bg-indigo-50 file:px-4 file:py-2 file:font-semibold file:text-indigo-700 hover:file:bg-indigo-100"
          />
          <p id={`vision-${order.purchaseId}-hint`} className="mt-1 text-sm text-slate-600">
            One or two pages: what the app does, for whom, and how it earns. PDF, Word (.docx) or
            text, at most 5 MB.
            {intake ? (
              <>
                {" "}
                Sent:{" "}
                <a
                  href={`/coaching/vision/${order.purchaseId}`}
                  className="text-indigo-700 underline"
                >
                  {intake.visionName}
                </a>
                ; choose a file only to replace it.
              </>
            ) : null}
          </p>
          {errors.vision ? (
            <p id={`vision-${order.purchaseId}-error`} className="mt-1 text-sm text-red-700">
              {errors.vision}
            </p>
          ) : null}
        </div>
        <TextAreaField
          label="When are you available?"
          name="availability"
          id={`availability-${order.purchaseId}`}
          rows={3}
          defaultValue={value("availability")}
          error={errors.availability}
          hint="Days and times for the consultation call, with your time zone."
        />
        <TextAreaField
          label="Technical environment (optional)"
          name="techEnvironment"
          id={`tech-${order.purchaseId}`}
          rows={3}
          defaultValue={value("techEnvironment")}
          error={errors.techEnvironment}
          hint="Tools, accounts, domains or code you already have."
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Hosting preference</legend>
          <div className="mt-2 space-y-2">
            {Object.entries(hostingChoices).map(([key, label]) => (
              <label key={key} className="flex min-h-11 items-center gap-3">
                <input
                  type="radio"
                  name="hosting"
                  value={key}
                  defaultChecked={value("hosting") === key}
                  aria-invalid={errors.hosting ? true : undefined}
                  className="h-5 w-5 border-slate-300 text-indigo-600 focus:ring-indigo-500"
                />
                {label}
              </label>
            ))}
          </div>
          {errors.hosting ? <p className="mt-1 text-sm text-red-700">{errors.hosting}</p> : null}
        </fieldset>
        <TextAreaField
          label="Content plan"
          name="contentPlan"
          id={`content-${order.purchaseId}`}
          rows={5}
          defaultValue={value("contentPlan")}
          error={errors.contentPlan}
          hint="What content, data or prompts the app starts with, and who provides them."
        />
        <button type="submit" disabled={sending} className={`${primaryButton} sm:w-auto`}>
          {sending ? "Sending…" : intake ? "Update the intake form" : "Send the intake form"}
        </button>
      </Form>
    </section>
  );
}
