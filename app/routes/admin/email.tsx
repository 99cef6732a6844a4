import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useFetcher, useNavigation } from "react-router";
import { AdminPageErrorBoundary } from "~/components/admin/confirm-its-you";
import {
  Cell,
  ConsoleHeading,
  DataTable,
  EmptyState,
  fieldClass,
  formatWhen,
  secondaryButton,
} from "~/components/admin/console";
import { useConfirm } from "~/components/admin/dialog";
import { LabelledInput } from "~/components/admin/labelled-input";
import { MemberFilterFields } from "~/components/admin/member-filters";
import type { EditorHandle } from "~/components/admin/rich-text-editor";
import { RichTextField } from "~/components/admin/rich-text-field";
import { useUnsavedChangesGuard } from "~/components/admin/unsaved-changes";
import { FormError, Notice } from "~/components/form-answer";
import { ErrorBox, primaryButton } from "~/components/ui";
import { funnelProductKeys } from "~/config/site";
import {
  audienceSchema,
  audienceSearch,
  broadcastFormSchema,
  sequenceStepSchema,
} from "~/lib/admin-forms";
import { type FormAnswer, isFormAnswer } from "~/lib/form-answer";
import { launchInstant } from "~/lib/offer";
import { z } from "~/lib/zod";
import { adminActor } from "~/server/admin/audit.server";
import {
  type BroadcastSummary,
  cancelScheduled,
  countAudience,
  createBroadcast,
  listBroadcasts,
  listSequence,
  marketingContext,
  marketingMessage,
  type SequenceStep,
  sendTestBroadcast,
  updateSequenceStep,
} from "~/server/admin/broadcasts.server";
import { consoleRequest } from "~/server/admin/console.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { sanitizeChapterHtml } from "~/server/content/sanitize.server";
import { getDb } from "~/server/db/db.server";
import { course } from "~/server/db/schema";
import { getEnv } from "~/server/env.server";
import {
  checkForm,
  firstError,
  readForm,
  redirectWithNotice,
  takeNotice,
} from "~/server/forms.server";
import { currentOfferSettings, productName } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/email";

export const meta: Route.MetaFunction = () => [{ title: "E-mail | AI Labs" }];

/** "1 member", "2,000 members". */
const members = (n: number) => `${n.toLocaleString("en-US")} member${n === 1 ? "" : "s"}`;

export async function loader({ request }: Route.LoaderArgs) {
  const { query: audience, db } = await consoleRequest(request, audienceSchema);
  const env = getEnv();
  const [count, broadcasts, welcome, courses] = await Promise.all([
    countAudience(db, audience),
    listBroadcasts(db, env.emailMaxAttempts),
    listSequence(db, env.emailMaxAttempts, "welcome"),
    db
      .select({ id: course.id, title: course.title })
      .from(course)
      .orderBy(course.sortOrder, course.createdAt),
  ]);
  const products = funnelProductKeys.map((key) => ({ key, name: productName(key) }));
  const { notice, headers } = takeNotice(request);
  return data(
    {
      audience,
      count,
      broadcasts,
      welcome,
      courses,
      products,
      timeZone: currentOfferSettings().launchTimeZone,
      ratePerMinute: env.emailRatePerMinute,
      notice,
    },
    { headers },
  );
}

const cancelSchema = z.object({ intent: z.literal("cancel"), broadcastId: z.uuid() });

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const db = await getDb();
  const back = `/admin/email`;
  if (form.get("intent") === "cancel") {
    const checked = checkForm(form, cancelSchema);
    if (!checked.ok) return checked.refuse(400, { formError: "No such broadcast." });
    if (!(await cancelScheduled(db, adminActor(admin), checked.data.broadcastId))) {
      return checked.refuse(409, { formError: "That broadcast has been sent already." });
    }
    return redirectWithNotice(back, "The scheduled broadcast was cancelled: nothing was sent.");
  }
  if (form.get("intent") === "save-step") {
    const step = checkForm(form, sequenceStepSchema, ["day", "subject", "body"]);
    if (!step.ok) return step.refuse(400, firstError(step.fieldErrors));
    const { stepId, day, subject, body, active } = step.data;
    const bodyHtml = sanitizeChapterHtml(body);
    if (!bodyHtml) return step.refuse(400, { formError: "Write the message" });
    const saved = await updateSequenceStep(db, adminActor(admin), {
      id: stepId,
      day,
      subject,
      bodyHtml,
      active: active === "on",
    });
    if (!saved) return step.refuse(404, { formError: "No such step." });
    return redirectWithNotice(back, `Saved the welcome e-mail of day ${day}.`);
  }
  const checked = checkForm(form, broadcastFormSchema, ["subject", "body", "sendAt"]);
  if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors));
  const { intent, subject, sendAt } = checked.data;
  const bodyHtml = sanitizeChapterHtml(checked.data.body);
  if (!bodyHtml) return checked.refuse(400, { formError: "Write the message" });
  const audience = audienceSchema.parse(Object.fromEntries(form));
  const context = marketingContext(getEnv());
  if (intent === "preview") {
    const { message } = marketingMessage(context, {
      subject,
      bodyHtml,
      userId: admin.id,
      broadcastId: null,
    });
    return { preview: { html: message.html, text: message.text } };
  }
  if (intent === "test") {
    await sendTestBroadcast(db, context, admin, { subject, bodyHtml });
    return { sent: `A test was sent to ${admin.email}.` };
  }
  let scheduledFor: Date | null = null;
  if (intent === "schedule") {
    const zone = currentOfferSettings().launchTimeZone;
    const at = sendAt ? new Date(launchInstant(sendAt, zone)) : new Date(Number.NaN);
    if (Number.isNaN(at.getTime())) {
      return checked.refuse(400, firstError({ sendAt: "Choose the day and time to send it" }));
    }
    if (at.getTime() <= Date.now()) {
      return checked.refuse(400, firstError({ sendAt: "Choose a time in the future" }));
    }
    scheduledFor = at;
  }
  const done = await createBroadcast(db, adminActor(admin), {
    subject,
    bodyHtml,
    audience,
    scheduledFor,
  });
  return redirectWithNotice(
    back,
    scheduledFor
      ? `"${subject}" is scheduled for ${formatWhen(scheduledFor)}.`
      : `"${subject}" is on its way to ${members(done.recipients ?? 0)}.`,
  );
}

export const ErrorBoundary = AdminPageErrorBoundary;

type LoaderData = Route.ComponentProps["loaderData"];

export default function Email({ loaderData, actionData }: Route.ComponentProps) {
  const { audience, count, broadcasts, courses, products, notice, ratePerMinute } = loaderData;
  const navigation = useNavigation();
  const counting =
    navigation.state === "loading" && navigation.location.pathname === "/admin/email";
  return (
    <main>
      <ConsoleHeading title="E-mail">
        Write to your members: everyone, holders of a product, by progress in a course, those who
        never paid or never signed in. Sent at most {ratePerMinute.toLocaleString("en-US")} a
        minute, after receipts and password e-mails.
      </ConsoleHeading>
      <Notice notice={notice} />
      <FormError answer={actionData} />
      <section aria-labelledby="audience-heading" className="mt-6">
        <h2 id="audience-heading" className="text-xl font-semibold">
          Who gets it
        </h2>
        <Form method="get" className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <MemberFilterFields
            filters={audience}
            products={products}
            courses={courses}
            idPrefix="audience"
          />
          <div className="flex items-end sm:col-span-2">
            <button type="submit" className={secondaryButton} disabled={counting}>
              {counting ? "Counting…" : "Count recipients"}
            </button>
          </div>
        </Form>
        <p className="mt-3 text-slate-800" role="status" aria-live="polite">
          <strong>{members(count.recipients)}</strong> will get it
          {count.leftOut > 0
            ? ` (${count.leftOut.toLocaleString("en-US")} left out: unsubscribed or undeliverable)`
            : ""}
          .{" "}
          <Link
            to={`/admin/members?${audienceSearch(audience)}`}
            className="text-indigo-700 underline"
          >
            See them in Members
          </Link>
        </p>
      </section>
      {/* A new form once a broadcast is sent or scheduled. */}
      <Compose key={broadcasts[0]?.id ?? "none"} loaderData={loaderData} />
      <Broadcasts broadcasts={broadcasts} />
      <WelcomeSequence steps={loaderData.welcome} />
    </main>
  );
}

type ComposeAnswer = FormAnswer | { preview: { html: string; text: string } } | { sent: string };

function Compose({ loaderData }: { loaderData: LoaderData }) {
  const { audience, count, timeZone } = loaderData;
  const fetcher = useFetcher<ComposeAnswer>();
  const editor = useRef<EditorHandle>(null);
  const [subject, setSubject] = useState("");
  const [sendAt, setSendAt] = useState("");
  const [contentChanged, setContentChanged] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmDialog, ask] = useConfirm();
  const guard = useUnsavedChangesGuard(subject !== "" || contentChanged);
  const { allowLeaving } = guard;
  const busy = fetcher.state !== "idle";
  const answer = fetcher.data;
  const preview = answer && "preview" in answer ? answer.preview : null;
  const sent = answer && "sent" in answer ? answer.sent : null;

  useEffect(() => {
    if (fetcher.state !== "idle" || !answer) return;
    setError(isFormAnswer(answer) ? answer.formError : null);
    if (isFormAnswer(answer)) allowLeaving(false);
  }, [answer, fetcher.state, allowLeaving]);

  async function submit(intent: "preview" | "test" | "send" | "schedule") {
    const body = editor.current?.getHtml() ?? "";
    if (!subject.trim()) return setError("Write a subject");
    if (!body) return setError("Write the message");
    if (intent === "schedule" && !sendAt) return setError("Choose the day and time to send it");
    setError(null);
    if (intent === "send" || intent === "schedule") {
      const ok = await ask({
        title: intent === "send" ? "Send this e-mail now?" : "Schedule this e-mail?",
        message:
          intent === "send"
            ? `"${subject.trim()}" goes to ${members(count.recipients)} now. It cannot be called back.`
            : `"${subject.trim()}" goes on ${sendAt.replace("T", " at ")} (${timeZone} time) to the members who match then.`,
        confirmLabel: intent === "send" ? "Send now" : "Schedule",
        danger: false,
      });
      if (!ok) return;
      allowLeaving();
    }
    const fields: Record<string, string> = { intent, subject, body, sendAt };
    for (const [key, value] of audienceSearch(audience)) fields[key] = value;
    fetcher.submit(fields, { method: "post", action: "/admin/email" });
  }

  return (
    <section
      aria-labelledby="compose-heading"
      className="mt-8 space-y-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <h2 id="compose-heading" className="text-xl font-semibold">
        New broadcast
      </h2>
      {error ? <ErrorBox>{error}</ErrorBox> : null}
      <div role="status" aria-live="polite">
        {sent ? (
          <p className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-800">
            {sent}
          </p>
        ) : null}
      </div>
      <LabelledInput
        label="Subject"
        value={subject}
        onChange={(e) => setSubject(e.target.value)}
        maxLength={200}
        required
      />
      <RichTextField
        label="Message"
        placeholder="Write the message…"
        ref={editor}
        initialHtml=""
        onError={setError}
        onChange={() => setContentChanged(true)}
        hint={
          <p className="mt-1 text-sm text-slate-600">
            Your name, postal address and an unsubscribe link are added under it (Settings).
          </p>
        }
      />
      <div className="flex flex-wrap gap-3">
        <SecondaryButton busy={busy} onClick={() => submit("preview")}>
          Preview
        </SecondaryButton>
        <SecondaryButton busy={busy} onClick={() => submit("test")}>
          Send a test to me
        </SecondaryButton>
        <button
          type="button"
          className={`${primaryButton} sm:w-auto`}
          disabled={busy || count.recipients === 0}
          onClick={() => submit("send")}
        >
          {busy ? "Working…" : `Send now to ${members(count.recipients)}`}
        </button>
      </div>
      <div className="flex flex-wrap items-end gap-3 border-t border-slate-200 pt-4">
        <div>
          <label htmlFor="send-at" className="block text-sm font-medium text-slate-700">
            Or send on ({timeZone} time)
          </label>
          <input
            id="send-at"
            type="datetime-local"
            value={sendAt}
            onChange={(e) => setSendAt(e.target.value)}
            className={fieldClass}
          />
        </div>
        <SecondaryButton busy={busy} onClick={() => submit("schedule")}>
          Schedule
        </SecondaryButton>
      </div>
      {preview ? (
        <section aria-labelledby="preview-heading">
          <h3 id="preview-heading" className="font-semibold">
            Preview, as a member gets it
          </h3>
          <div
            className="mt-2 overflow-x-auto rounded-md border border-slate-300 bg-white p-4 text-slate-800 [&_a]:underline [&_p]:mb-3"
            // The body was sanitized by the action (sanitizeChapterHtml); the rest is our template.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server.
            dangerouslySetInnerHTML={{ __html: preview.html }}
          />
          <details className="mt-2">
            <summary className="cursor-pointer text-sm font-medium text-slate-700">
              Plain-text part
            </summary>
            <pre className="mt-2 whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 text-sm">
              {preview.text}
            </pre>
          </details>
        </section>
      ) : null}
      {confirmDialog}
      {guard.dialog}
    </section>
  );
}

function Broadcasts({ broadcasts }: { broadcasts: BroadcastSummary[] }) {
  return (
    <section aria-labelledby="broadcasts-heading" className="mt-10">
      <h2 id="broadcasts-heading" className="text-xl font-semibold">
        Broadcasts
      </h2>
      {broadcasts.length === 0 ? (
        <div className="mt-3">
          <EmptyState>No broadcast yet.</EmptyState>
        </div>
      ) : (
        <DataTable
          caption="Broadcasts"
          head={["Subject", "When", "Queued", "Sent", "Failed", "Not sent", "Unsubscribed", ""]}
        >
          {broadcasts.map((b) => (
            <tr key={b.id}>
              <Cell wrap>
                <span className="font-medium">{b.subject}</span>
                <span className="block text-xs text-slate-500">by {b.createdBy}</span>
              </Cell>
              <Cell>
                {b.queuedAt ? formatWhen(b.queuedAt) : `Scheduled: ${formatWhen(b.scheduledFor)}`}
              </Cell>
              <Cell>{b.recipients === null ? "—" : b.recipients.toLocaleString("en-US")}</Cell>
              <Cell>{b.sent.toLocaleString("en-US")}</Cell>
              <Cell>{b.failed.toLocaleString("en-US")}</Cell>
              <Cell>{b.skipped.toLocaleString("en-US")}</Cell>
              <Cell>{b.unsubscribed.toLocaleString("en-US")}</Cell>
              <Cell>
                {b.queuedAt ? null : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="cancel" />
                    <input type="hidden" name="broadcastId" value={b.id} />
                    <button type="submit" className={secondaryButton}>
                      Cancel<span className="sr-only"> “{b.subject}”</span>
                    </button>
                  </Form>
                )}
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

function WelcomeSequence({ steps }: { steps: SequenceStep[] }) {
  const [editing, setEditing] = useState<string | null>(null);
  const step = steps.find((s) => s.id === editing);
  return (
    <section aria-labelledby="welcome-heading" className="mt-10">
      <h2 id="welcome-heading" className="text-xl font-semibold">
        Welcome sequence
      </h2>
      <p className="mt-1 text-slate-600">
        Sent to each buyer of the plan, counted from the day they bought. A step stops for a member
        who unsubscribed or was refunded by then.
      </p>
      {steps.length === 0 ? (
        <div className="mt-3">
          <EmptyState>No welcome e-mail.</EmptyState>
        </div>
      ) : (
        <DataTable
          caption="Welcome sequence"
          head={["Day", "Subject", "Sent", "Not sent", "Unsubscribed", "Status", ""]}
        >
          {steps.map((s) => (
            <tr key={s.id}>
              <Cell>{s.day}</Cell>
              <Cell wrap>{s.subject}</Cell>
              <Cell>{s.sent.toLocaleString("en-US")}</Cell>
              <Cell>{s.skipped.toLocaleString("en-US")}</Cell>
              <Cell>{s.unsubscribed.toLocaleString("en-US")}</Cell>
              <Cell>{s.active ? "On" : "Off"}</Cell>
              <Cell>
                <button
                  type="button"
                  className={secondaryButton}
                  aria-expanded={editing === s.id}
                  onClick={() => setEditing(editing === s.id ? null : s.id)}
                >
                  Edit<span className="sr-only"> day {s.day}</span>
                </button>
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
      {step ? <StepForm key={step.id} step={step} onClose={() => setEditing(null)} /> : null}
    </section>
  );
}

function StepForm({ step, onClose }: { step: SequenceStep; onClose: () => void }) {
  const fetcher = useFetcher<FormAnswer>();
  const editor = useRef<EditorHandle>(null);
  const [day, setDay] = useState(String(step.day));
  const [subject, setSubject] = useState(step.subject);
  const [active, setActive] = useState(step.active);
  const [error, setError] = useState<string | null>(null);
  const busy = fetcher.state !== "idle";
  const submitted = useRef(false);

  useEffect(() => {
    if (fetcher.state !== "idle" || !submitted.current) return;
    submitted.current = false;
    // A refusal stays on the form; a save redirects, and the page says so.
    if (isFormAnswer(fetcher.data)) setError(fetcher.data.formError);
    else onClose();
  }, [fetcher.state, fetcher.data, onClose]);

  function save(event: React.FormEvent) {
    event.preventDefault();
    const body = editor.current?.getHtml() ?? step.bodyHtml;
    if (!subject.trim()) return setError("Write a subject");
    if (!body) return setError("Write the message");
    setError(null);
    submitted.current = true;
    fetcher.submit(
      {
        intent: "save-step",
        stepId: step.id,
        day,
        subject,
        body,
        active: active ? "on" : "off",
      },
      { method: "post", action: "/admin/email" },
    );
  }

  return (
    <form
      onSubmit={save}
      aria-labelledby="step-heading"
      className="mt-4 space-y-4 rounded-lg border border-indigo-200 bg-indigo-50/40 p-4"
    >
      <h3 id="step-heading" className="font-semibold">
        Edit the e-mail of day {step.day}
      </h3>
      {error ? <ErrorBox>{error}</ErrorBox> : null}
      <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
        <LabelledInput
          label="Day"
          type="number"
          min={0}
          max={365}
          inputMode="numeric"
          value={day}
          onChange={(e) => setDay(e.target.value)}
          required
        />
        <LabelledInput
          label="Subject"
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          maxLength={200}
          required
        />
      </div>
      <RichTextField
        label="Message"
        placeholder="Write the message…"
        ref={editor}
        initialHtml={step.bodyHtml}
        onError={setError}
      />
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          checked={active}
          onChange={(e) => setActive(e.target.checked)}
          className="h-5 w-5 rounded border-slate-400"
        />
        Send this e-mail
      </label>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={busy}>
          {busy ? "Saving…" : "Save e-mail"}
        </button>
        <button type="button" className={secondaryButton} onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A secondary action of the compose form: disabled while an action is under way. */
function SecondaryButton({
  busy,
  onClick,
  children,
}: {
  busy: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button type="button" className={secondaryButton} disabled={busy} onClick={onClick}>
      {children}
    </button>
  );
}
