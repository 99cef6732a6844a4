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

export const auditQuerySchema = z.object({
  actor: optionalText(254),
  kind: optionalText(64),
  page: page.default(1),
});

export const memberAccessFilters = ["all", "admin", "member", "refunded", "none"] as const;
export type MemberAccessFilter = (typeof memberAccessFilters)[number];

export const membersQuerySchema = z.object({
  q: optionalText(200),
  access: z.enum(memberAccessFilters).catch("all").default("all"),
  page: page.default(1),
});

export const memberActions = [
  "grant",
  "revoke",
  "make-admin",
  "remove-admin",
  "sign-out",
  "password-link",
] as const;
export type MemberAction = (typeof memberActions)[number];

export const memberActionSchema = z.object({
  intent: z.enum(memberActions, "Unknown action"),
  confirm: z.literal("yes", "Please confirm this action first"),
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
});

/** The kinds of audit log entry (app/server/admin/audit.server.ts), by area, for the log's filter. */
export const auditKinds = [
  "course.create",
  "course.update",
  "course.delete",
  "chapter.create",
  "chapter.update",
  "chapter.delete",
  "chapter.move",
  "member.grant",
  "member.revoke",
  "member.make-admin",
  "member.remove-admin",
  "member.sign-out",
  "member.password-link",
  "payment.attach",
  "payment.dismiss",
  "settings.update",
  "cli.command",
] as const;
export type AuditKind = (typeof auditKinds)[number];

/** Accounts per page on /admin/members. */
export const membersPageSize = 50;

/** A day as the date inputs send it (YYYY-MM-DD); anything else counts as not given. */
const optionalDay = z.iso.date().nullable().catch(null).default(null);

/** /admin/funnel: the date range, both ends included; missing ends take the last 30 days. */
export const funnelQuerySchema = z.object({
  from: optionalDay,
  to: optionalDay,
});
