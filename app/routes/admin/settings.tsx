import { type ReactNode, useEffect, useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import { AdminPageErrorBoundary } from "~/components/admin/confirm-its-you";
import { ConsoleHeading, fieldClass, formatWhen } from "~/components/admin/console";
import { FormError, fieldErrorsOf, Notice } from "~/components/form-answer";
import { primaryButton } from "~/components/ui";
import { isFormAnswer } from "~/lib/form-answer";
import {
  formValues,
  type OfferSettingsForm,
  offerSettingsFormSchema,
} from "~/lib/offer-settings-form";
import { adminActor } from "~/server/admin/audit.server";
import { requireAdmin, requireRecentProof } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import { checkForm, readForm, redirectWithNotice, takeNotice } from "~/server/forms.server";
import { refreshOfferSettingsEverywhere } from "~/server/process-messages.server";
import { readOfferSettings, writeOfferSettings } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Offer settings | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { settings, updatedAt } = await readOfferSettings(await getDb());
  const { notice, headers } = takeNotice(request);
  return data({ values: formValues(settings), updatedAt, notice }, { headers });
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  // The offer's prices and links: only with a recent proof.
  await requireRecentProof(request, admin, form);
  // What the admin typed comes back with the messages, so nothing is lost.
  const checked = checkForm(form, offerSettingsFormSchema, "all");
  if (!checked.ok) {
    const count = Object.keys(checked.fieldErrors).length;
    const formError = `${count === 1 ? "One field needs" : `${count} fields need`} attention: see the messages below. Nothing was saved.`;
    return checked.refuse(400, { fieldErrors: checked.fieldErrors, formError });
  }
  const db = await getDb();
  const changed = await writeOfferSettings(db, adminActor(admin), checked.data);
  // This server's processes take the change now (their public pages are rendered again
  // before the answer); other servers within a few seconds (watchOfferSettings).
  await refreshOfferSettingsEverywhere(db);
  return redirectWithNotice(
    "/admin/settings",
    changed.length === 0
      ? "Nothing changed."
      : `Saved (${changed.length} ${changed.length === 1 ? "field" : "fields"} changed). The public pages show the new values now.`,
  );
}

/** "Confirm it's you" when the last proof is too old; other errors as everywhere. */
export const ErrorBoundary = AdminPageErrorBoundary;

type Field = {
  name: keyof OfferSettingsForm;
  label: string;
  hint?: string;
  type?: "text" | "url" | "email" | "date" | "datetime-local";
  inputMode?: "decimal" | "numeric";
  autoComplete?: "off" | "email" | "organization" | "street-address";
  /** Several lines (a postal address): a text area of this many rows. */
  rows?: number;
  /** One of a few values: a select of these. */
  options?: readonly { value: string; label: string }[];
};

const groups: { legend: string; fields: Field[] }[] = [
  {
    legend: "Prices",
    fields: [
      {
        name: "offer2Price",
        label: "Second sales page price (US$)",
        hint: "The price on /ailabs-offer2, the marketplace's front end. Each product's own price is on Products.",
        inputMode: "decimal",
      },
    ],
  },
  {
    legend: "Coupon",
    fields: [
      { name: "couponCode", label: "Coupon code", hint: "Shown on both sales pages." },
      {
        name: "couponSaving",
        label: "Coupon saving (US$)",
        hint: "What the coupon takes off, at this site's checkout (never more than the price) and as the sales pages say. Set the marketplace's own coupon there.",
        inputMode: "decimal",
      },
      {
        name: "couponEndsOn",
        label: "Coupon last day",
        hint: "The checkout takes the coupon until this day ends in the launch time zone. Leave it empty for no end.",
        type: "date",
      },
    ],
  },
  {
    legend: "Custom SaaS build",
    fields: [
      {
        name: "coachingClientCap",
        label: "Clients at a time",
        hint: "The spots /custom-saas-upsell counts down from the builds sold; it stops selling when none are left.",
        inputMode: "numeric",
      },
    ],
  },
  {
    legend: "Launch and contest",
    fields: [
      { name: "launchAt", label: "Launch date and time", type: "datetime-local" },
      {
        name: "launchTimeZone",
        label: "Launch time zone",
        hint: "A time zone name, such as America/Chicago, Europe/London or UTC.",
      },
      { name: "contestStart", label: "Contest first day", type: "date" },
      {
        name: "contestEnd",
        label: "Contest last day",
        hint: "Winners are announced on this day.",
        type: "date",
      },
    ],
  },
  {
    legend: "Where buyers pay",
    fields: [
      {
        name: "sellIn",
        label: "Buy buttons lead to",
        hint: "The buy buttons of the landing page, both sales pages and both upsells. This site's checkout needs Stripe or the test checkout; without either they lead to the marketplace.",
        options: [
          { value: "product", label: "This site's checkout" },
          { value: "marketplace", label: "The marketplace links" },
        ],
      },
      {
        name: "customSaasPayment",
        label: "The Custom SaaS build is paid",
        hint: "On this site's checkout, after the plan: with the card of the plan's order in one click, or at a checkout page where the card is entered again.",
        options: [
          { value: "one-click", label: "In one click" },
          { value: "checkout", label: "At a checkout page" },
        ],
      },
    ],
  },
  {
    legend: "Marketplace links",
    fields: [
      { name: "mainOfferUrl", label: "Main offer buy link", type: "url", hint: "https:// only." },
      { name: "whiteLabelUrl", label: "White label buy link", type: "url" },
      { name: "customSaasUrl", label: "Custom SaaS buy link", type: "url" },
    ],
  },
  {
    legend: "Community and support",
    fields: [
      {
        name: "discordInviteUrl",
        label: "Discord invite link",
        type: "url",
        hint: "On the members' bonuses page. Empty: the DISCORD_INVITE_URL setting, if any.",
      },
      { name: "supportEmail", label: "Support e-mail", type: "email", autoComplete: "email" },
    ],
  },
  {
    legend: "Receipts",
    fields: [
      {
        name: "sellerName",
        label: "Seller's name",
        hint: "The business every receipt names as the seller.",
        autoComplete: "organization",
      },
      {
        name: "sellerAddress",
        label: "Seller's postal address",
        hint: "One line each: street, town and postcode, country.",
        autoComplete: "street-address",
        rows: 4,
      },
    ],
  },
];

function SettingField({
  field,
  value,
  error,
}: {
  field: Field;
  value: string;
  error: string | undefined;
}) {
  const id = `setting-${field.name}`;
  const describedBy = [field.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].join(" ").trim();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {field.label}
      </label>
      {field.options ? (
        <select
          id={id}
          name={field.name}
          defaultValue={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={`${fieldClass} aria-invalid:border-red-500`}
        >
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : field.rows ? (
        <textarea
          id={id}
          name={field.name}
          rows={field.rows}
          autoComplete={field.autoComplete ?? "off"}
          defaultValue={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={`${fieldClass} aria-invalid:border-red-500`}
        />
      ) : (
        <input
          id={id}
          name={field.name}
          // Text for prices and links: the schema's messages, not the browser's, explain a mistake.
          type={field.type === "url" || field.type === "email" ? "text" : (field.type ?? "text")}
          inputMode={
            field.type === "url" ? "url" : field.type === "email" ? "email" : field.inputMode
          }
          autoComplete={field.autoComplete ?? "off"}
          defaultValue={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={`${fieldClass} aria-invalid:border-red-500`}
        />
      )}
      {field.hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {field.hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <legend className="px-1 text-lg font-semibold">{legend}</legend>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formMethod === "POST";
  const failed = isFormAnswer(actionData) ? actionData : undefined;
  const values: Partial<OfferSettingsForm> = { ...loaderData.values, ...failed?.values };
  const errors = fieldErrorsOf(actionData);
  const formRef = useRef<HTMLFormElement>(null);
  // After a refused save, the keyboard goes to the first field to fix.
  useEffect(() => {
    if (failed) formRef.current?.querySelector<HTMLInputElement>("[aria-invalid=true]")?.focus();
  }, [failed]);
  return (
    <main>
      <ConsoleHeading title="Offer settings">
        Prices, coupon, launch dates, buy links and contacts the public pages and the checkout show.
        Last saved: {loaderData.updatedAt ? formatWhen(loaderData.updatedAt) : "never (defaults)"}.
      </ConsoleHeading>
      <Notice notice={loaderData.notice} />
      <div className="mt-4 empty:hidden">
        <FormError answer={actionData} />
      </div>
      {/* A new key after a save shows the saved values; after an error the typed ones stay. */}
      <Form
        ref={formRef}
        method="post"
        key={loaderData.updatedAt?.toString() ?? "defaults"}
        className="mt-6 space-y-6"
        aria-busy={saving}
        noValidate
      >
        {groups.map((group) => (
          <Group key={group.legend} legend={group.legend}>
            {group.fields.map((field) => (
              <SettingField
                key={field.name}
                field={field}
                value={values[field.name] ?? ""}
                error={errors[field.name]}
              />
            ))}
          </Group>
        ))}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={saving} className={`${primaryButton} sm:w-auto`}>
            {saving ? "Saving…" : "Save settings"}
          </button>
          {saving ? (
            <span role="status" className="text-sm text-slate-600">
              Saving and updating the public pages…
            </span>
          ) : null}
        </div>
      </Form>
    </main>
  );
}
