import { type FunnelProductKey, funnelProductKeys } from "~/config/site";
import { productPriceKeys } from "./offer";
import { dollars } from "./offer-settings-form";
import { z } from "./zod";

// The owner's console: query strings and forms, one schema each, shared by
// the browser and the server. A bad query string falls back to the defaults
// rather than failing the page.

const page = z.coerce.number().int().min(1).max(100_000).catch(1);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((v) => v || null)
    .nullable()
    .catch(null)
    .default(null);

/** A day as YYYY-MM-DD (UTC); anything else is no day. */
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && dayOf(new Date(`${v}T00:00:00Z`)) === v,
  )
  .nullable()
  .catch(null)
  .default(null);

/** Accounts per page on /admin/members. */
export const membersPageSize = 50;

export const auditQuerySchema = z.object({
  actor: optionalText(254),
  kind: optionalText(64),
  page: page.default(1),
});

export const memberAccessFilters = ["all", "admin", "member", "refunded", "none"] as const;
export type MemberAccessFilter = (typeof memberAccessFilters)[number];

/** How a member has paid: the providers a purchase can come from. */
export const memberProviders = ["stripe", "warriorplus", "test", "manual"] as const;
export type MemberProvider = (typeof memberProviders)[number];

/** Progress through the published chapters (of one course, or of every course). */
export const memberProgressFilters = ["all", "not-started", "in-progress", "finished"] as const;

/** Whether a member has been seen: a session or a chapter opened. */
export const memberSeenFilters = ["all", "never"] as const;

/** The columns /admin/members sorts by. */
export const memberSorts = [
  "name",
  "email",
  "joined",
  "access",
  "progress",
  "spend",
  "active",
] as const;
export type MemberSort = (typeof memberSorts)[number];

export const membersQuerySchema = z.object({
  q: optionalText(200),
  access: z.enum(memberAccessFilters).catch("all").default("all"),
  /** Holds this product (a purchase of it that counts by the access rule). */
  product: z.enum(funnelProductKeys).nullable().catch(null).default(null),
  /** Has a purchase from this provider. */
  provider: z.enum(memberProviders).nullable().catch(null).default(null),
  joinedFrom: isoDay,
  joinedTo: isoDay,
  progress: z.enum(memberProgressFilters).catch("all").default("all"),
  /** The course the progress filter is about; none: every published course. */
  course: z.uuid().nullable().catch(null).default(null),
  /** Can open this course (holds a product that opens it, or is an admin). */
  opens: z.uuid().nullable().catch(null).default(null),
  /** "never": no session and no chapter opened (never signed in, as far as is kept). */
  seen: z.enum(memberSeenFilters).catch("all").default("all"),
  sort: z.enum(memberSorts).catch("joined").default("joined"),
  dir: z.enum(["asc", "desc"]).catch("desc").default("desc"),
  page: page.default(1),
});
export type MembersQuery = z.output<typeof membersQuerySchema>;

/** Every account, newest first, the first page. */
export const membersQueryDefaults: MembersQuery = membersQuerySchema.parse({});

/** The query string of a members query, without its defaults (links, the CSV). */
export function membersSearch(query: MembersQuery, change: Partial<MembersQuery> = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...change })) {
    if (value !== null && value !== membersQueryDefaults[key as keyof MembersQuery]) {
      search.set(key, String(value));
    }
  }
  return search;
}

/** Who a broadcast goes to: the members list's search and filters (its order and page aside). */
export const audienceSchema = membersQuerySchema.omit({ sort: true, dir: true, page: true });
export type Audience = z.output<typeof audienceSchema>;

/** The query string of an audience (the members list's, for "E-mail these members"). */
export function audienceSearch(audience: Audience): URLSearchParams {
  return membersSearch({ ...membersQueryDefaults, ...audience });
}

/** The longest broadcast body, as stored HTML. */
export const broadcastBodyMaxLength = 200_000;

/** What a marketing e-mail says: a broadcast's and a sequence step's. */
const messageFields = {
  subject: z
    .string()
    .trim()
    .min(1, "Write a subject")
    .max(200, "A subject is at most 200 characters"),
  body: z
    .string()
    .trim()
    .min(1, "Write the message")
    .max(broadcastBodyMaxLength, "The message is too long"),
};

/** A broadcast from /admin/email: what it says, and whether it is a test, sent now or scheduled. */
export const broadcastFormSchema = z.object({
  intent: z.enum(["test", "preview", "send", "schedule"], "Unknown action"),
  ...messageFields,
  /** A local date and time (datetime-local) in the launch's time zone; only for "schedule". */
  sendAt: z.string().trim().max(32).optional(),
});

/** A sequence's step edited on /admin/email. */
export const sequenceStepSchema = z.object({
  intent: z.literal("save-step"),
  stepId: z.uuid("No such step"),
  day: z.coerce
    .number("Enter the day as a number")
    .int("Enter a whole number of days")
    .min(0, "The day is 0 or more")
    .max(365, "At most 365 days after the purchase"),
  ...messageFields,
  active: z.enum(["on", "off"]).default("off"),
});

/** Grant or revoke one product for the members ticked on /admin/members; shown again to confirm. */
export const bulkAccessSchema = z.object({
  intent: z.enum(["bulk-grant", "bulk-revoke"], "Unknown action"),
  product: z.enum(funnelProductKeys, "Choose a product"),
  confirm: z.literal("yes").optional(),
});
export const bulkMembersSchema = z
  .array(z.uuid("No such member"))
  .min(1, "Tick at least one member first")
  .max(membersPageSize, `At most ${membersPageSize} members at once`);

export const memberActions = [
  "grant",
  "revoke",
  "make-admin",
  "remove-admin",
  "sign-out",
  "password-link",
  "clear-undeliverable",
] as const;
export type MemberAction = (typeof memberActions)[number];

export const memberActionSchema = z.object({
  intent: z.enum(memberActions, "Unknown action"),
  confirm: z.literal("yes", "Please confirm this action first"),
});

/** A refund from a member's page: how much of which purchase, confirmed. */
export const refundFormSchema = z.object({
  intent: z.literal("refund"),
  purchaseId: z.uuid("No such purchase"),
  amount: dollars("the amount to refund").refine((c) => c > 0, "Enter an amount above $0"),
  refundedBefore: z.coerce.number().int().min(0),
  confirm: z.literal("yes", "Please confirm the refund first"),
});

export const paymentIssueActionSchema = z.object({
  intent: z.enum(["attach", "dismiss"], "Unknown action"),
  provider: z.string().min(1).max(32),
  providerRef: z.string().min(1).max(255),
  email: z
    .string()
    .trim()
    .max(254)
    .transform((v) => v.toLowerCase())
    .optional(),
  /** What the payment paid for, as the owner says. */
  product: z
    .enum(funnelProductKeys as [FunnelProductKey, ...FunnelProductKey[]], {
      message: "Choose one of the products.",
    })
    .default("lifetime-access"),
  /** Attach even though the account already holds the product. */
  anyway: z.literal("yes").optional(),
});

/** The kinds of audit log entry (app/server/admin/audit.server.ts), by area, for the log's filter. */
export const auditKinds = [
  "course.create",
  "course.update",
  "course.delete",
  "course.move",
  "chapter.create",
  "chapter.update",
  "chapter.delete",
  "chapter.move",
  "chapter.reorder",
  "member.grant",
  "member.revoke",
  "member.make-admin",
  "member.remove-admin",
  "member.sign-out",
  "member.password-link",
  "member.clear-undeliverable",
  "purchase.refund",
  "payment.attach",
  "payment.dismiss",
  "email.broadcast",
  "email.schedule",
  "email.cancel",
  "email.sequence",
  "settings.update",
  "application.update",
  "product.update",
  "cli.command",
  // Security events of any account (audit.server.ts recordSecurityEvent): never a password or code.
  "security.sign-in",
  "security.sign-in-failed",
  "security.two-factor-failed",
  "security.two-factor-on",
  "security.two-factor-off",
  "security.recovery-codes",
  "security.password-change",
  "security.email-change",
  "security.account-deleted",
  "security.confirm",
  "security.confirm-failed",
] as const;
export type AuditKind = (typeof auditKinds)[number];

const productKey = z.enum(funnelProductKeys as [FunnelProductKey, ...FunnelProductKey[]], {
  message: "Choose one of the products.",
});

/**
 * A product on /admin/products: which product, its price and struck-through price
 * (none for the VIP Upgrade, which has no page of its own), and every course ticked
 * (`course`, repeated).
 */
export const productFormSchema = z
  .object({
    product: productKey,
    name: z
      .string("Please enter the product's name")
      .trim()
      .min(1, "Please enter the product's name")
      .max(80, "Use at most 80 characters"),
    price: dollars("the price").refine((c) => c > 0, "The price must be above $0"),
    regularPrice: dollars("the struck-through price").optional(),
    courses: z
      .array(z.uuid({ message: "Not a course." }))
      .max(1000)
      .default([]),
  })
  .superRefine((v, ctx) => {
    if (productPriceKeys[v.product].regular === null) return;
    if (v.regularPrice === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["regularPrice"],
        message: "Please enter the struck-through price",
      });
    } else if (v.regularPrice <= v.price) {
      ctx.addIssue({
        code: "custom",
        path: ["regularPrice"],
        message: "The struck-through price must be above the price",
      });
    }
  });

/** Adding a file to what a product opens (the file itself is checked by the uploads store). */
export const productFileAddSchema = z.object({
  intent: z.literal("add-file"),
  product: productKey,
});

/** Removing a file from what a product opens. */
export const productFileRemoveSchema = z.object({
  intent: z.literal("remove-file"),
  product: productKey,
  fileId: z.uuid({ message: "Not a file of this product." }),
});

/** A product's form fields as the inputs show them. */
export type ProductForm = { name: string; price: string; regularPrice: string };

/** A day as the date inputs send it (YYYY-MM-DD); anything else counts as not given. */
const optionalDay = z.iso.date().nullable().catch(null).default(null);

/** /admin/funnel: the date range, both ends included; missing ends take the last 30 days. */
export const funnelQuerySchema = z.object({
  from: optionalDay,
  to: optionalDay,
});

/** /admin, the launch dashboard: a period (today by default), or a chosen range of days. */
export const dashboardQuerySchema = z.object({
  period: z.enum(["today", "week", "launch", "month", "range"]).catch("today").default("today"),
  from: optionalDay,
  to: optionalDay,
});
export type DashboardQuery = z.output<typeof dashboardQuerySchema>;

// Sales (/admin/sales and /admin/sales.csv): a range of UTC days, both ends
// included, this month by default; revenue by day, week or month.

export const salesUnits = ["day", "week", "month"] as const;
export type SalesUnit = (typeof salesUnits)[number];

export const salesQuerySchema = z.object({
  from: isoDay,
  to: isoDay,
  unit: z.enum(salesUnits).nullable().catch(null).default(null),
});
export type SalesQuery = z.output<typeof salesQuerySchema>;

/** At most ten years in one range. */
export const salesMaxDays = 3660;

export type SalesRange = { from: string; to: string; unit: SalesUnit };

/** A date as YYYY-MM-DD in UTC. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The range a query string asks for. A missing, malformed or reversed end,
 * or a range longer than salesMaxDays, falls back to this month (UTC);
 * without `to`, a range ends today. Without a unit: days up to three months,
 * weeks up to two years, months beyond.
 */
export function salesRange(query: SalesQuery, now = new Date()): SalesRange {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  let from = query.from ?? dayOf(first);
  let to = query.to ?? (query.from ? dayOf(now) : dayOf(last));
  let days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days < 1 || days > salesMaxDays) {
    from = dayOf(first);
    to = dayOf(last);
    days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  }
  const unit = query.unit ?? (days <= 93 ? "day" : days <= 732 ? "week" : "month");
  return { from, to, unit };
}

/** Learning (/admin/learning): `?fresh=1` counts again now rather than showing the figures of the last minute. */
export const learningQuerySchema = z.object({
  fresh: z
    .literal("1")
    .transform(() => true)
    .catch(false)
    .default(false),
});
