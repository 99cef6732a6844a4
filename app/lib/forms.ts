import type { FieldErrors } from "./form-answer";
import { planOffers } from "./offer";
import { passwordMaxLength } from "./password-rule";
import { currentPassword, newPassword } from "./password-schemas";
import { z } from "./zod";

export type { FieldErrors, FormAnswer } from "./form-answer";

// One schema per form, shared by the browser (early feedback) and the action (the real check).

/** An e-mail address as accounts keep it: lower case. */
export const email = z
  .email("Please enter a valid email address")
  .max(254)
  .transform((v) => v.toLowerCase());

/** A person's name as the account keeps it. */
export const fullName = z
  .string()
  .trim()
  .min(1, "Please enter your full name")
  .max(100, "Name is too long");

export const signupSchema = z.object({
  name: fullName,
  email,
  password: newPassword,
});

export const loginSchema = z.object({
  email,
  password: currentPassword,
  /** The token of a one-time sign-in link (/login?link=…), when the page was opened from one. */
  link: z.string().max(200).optional(),
});

export const forgotPasswordSchema = z.object({
  email,
});

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1, "This link is incomplete. Request a new one.").max(200),
    password: newPassword,
    confirmPassword: z.string().max(passwordMaxLength),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "The passwords do not match",
  });

export const checkoutSchema = z.object({
  productId: z.string().min(1).max(64),
  /** The coupon typed at the checkout, if any (applyCoupon decides whether it is taken). */
  coupon: z.string().trim().max(64, "That coupon code is not valid.").default(""),
  /** Which sales page's price (the plan's, or /ailabs-offer2's): planOffers. */
  offer: z.enum(planOffers).default("plan"),
  /** The order bump's box, ticked ("yes") or not sent. */
  bump: z.literal("yes").optional(),
});

/** The test checkout's Pay and Cancel buttons. */
export const testCheckoutSchema = z.object({
  intent: z.enum(["pay", "cancel"]).default("pay"),
});

/** An upsell's "Yes, Upgrade My Order". */
export const upsellSchema = z.object({ intent: z.literal("buy") });

/** "Mark as complete" and its undo on a chapter. */
export const chapterDoneSchema = z.object({
  chapterId: z.string().max(64),
  done: z.enum(["true", "false"]).transform((v) => v === "true"),
  /** The chapter to open next (Mark as complete moves on). */
  next: z.uuid().optional(),
});

/** PostgreSQL cannot store a NUL in text, and no field has a use for one. */
export const nulCharacterMessage = "This field contains a NUL character, which is not allowed";

/**
 * Parses a form with a schema: the data, or the first error message of each
 * field. A field holding a NUL character is refused whatever the schema says,
 * so no action passes one on to the database.
 */
export function parseForm<T extends z.ZodType>(
  schema: T,
  form: FormData,
): { ok: true; data: z.output<T> } | { ok: false; fieldErrors: FieldErrors } {
  const values: Record<string, unknown> = {};
  const withNul: string[] = [];
  for (const [key, value] of form) {
    if (typeof value !== "string") continue;
    values[key] = value;
    if (value.includes("\u0000")) withNul.push(key);
  }
  const parsed = schema.safeParse(values);
  if (parsed.success && withNul.length === 0) return { ok: true, data: parsed.data };
  const fieldErrors: FieldErrors = {};
  for (const key of withNul) fieldErrors[key] = nulCharacterMessage;
  for (const issue of parsed.error?.issues ?? []) {
    const key = String(issue.path[0] ?? "form");
    fieldErrors[key] ??= issue.message;
  }
  return { ok: false, fieldErrors };
}

export const chapterTitleRequired = "Please enter a title for the chapter";

/**
 * The Published switch: a hidden "off" before the checkbox's "on", so the last
 * value sent is the switch's state. A post without either (an older form, a
 * script) publishes, as creating a course did before drafts existed.
 */
const published = z
  .enum(["on", "off"])
  .default("on")
  .transform((v) => v === "on");

/** An image stored by /api/uploads (app/server/uploads/store.server.ts), or none. */
export const uploadedImageUrl = /^\/uploads\/[0-9a-f-]{36}\.(?:png|gif|jpg|bmp|ico)$/;

export const coverAltRequired = "Please describe the cover image for people who cannot see it";

const courseFields = z.object({
  title: z
    .string()
    .trim()
    .min(1, "Please enter a title for the course")
    .max(200, "Title is too long"),
  description: z.string().trim().max(5000, "Description is too long").default(""),
  published,
  coverImageUrl: z
    .string()
    .trim()
    .regex(uploadedImageUrl, "The cover must be an image uploaded here")
    .or(z.literal(""))
    .default(""),
  coverAlt: z.string().trim().max(300, "The description of the cover is too long").default(""),
});

/** A cover needs its text alternative. */
const coverDescribed: [
  (v: { coverImageUrl: string; coverAlt: string }) => boolean,
  { path: string[]; message: string },
] = [
  (v) => !v.coverImageUrl || v.coverAlt !== "",
  { path: ["coverAlt"], message: coverAltRequired },
];

export const chapterSchema = z.object({
  title: z.string().trim().min(1, chapterTitleRequired).max(200, "Title is too long"),
  // The whole request is capped at 1 MB by the HTTP shell; images are uploaded, not inlined.
  content: z.string().max(900_000, "The chapter is too long").default(""),
  published,
});

const id = z.uuid();
const direction = z.enum(["up", "down"]);

export const announceNeedsPublished = "Publish the chapter to announce it";

/** The tick box "E-mail the members…": present ("on") to announce the chapter once saved. */
const announced = {
  announce: z
    .literal("on")
    .optional()
    .transform((v) => v === "on"),
};

/** A chapter is announced only as it is published. */
const announcePublished: [
  (v: { announce: boolean; published: boolean }) => boolean,
  { path: string[]; message: string },
] = [(v) => !v.announce || v.published, { path: ["announce"], message: announceNeedsPublished }];

/** Every admin panel action, by intent. */
export const adminActionSchema = z.discriminatedUnion("intent", [
  courseFields.extend({ intent: z.literal("create-course") }).refine(...coverDescribed),
  courseFields
    .extend({ intent: z.literal("update-course"), courseId: id })
    .refine(...coverDescribed),
  z.object({
    intent: z.literal("delete-course"),
    courseId: id,
    expanded: id.optional().or(z.literal("")),
  }),
  z.object({ intent: z.literal("move-course"), courseId: id, direction }),
  chapterSchema
    .extend({ intent: z.literal("create-chapter"), courseId: id, ...announced })
    .refine(...announcePublished),
  chapterSchema
    .extend({ intent: z.literal("update-chapter"), courseId: id, chapterId: id, ...announced })
    .refine(...announcePublished),
  z.object({ intent: z.literal("delete-chapter"), courseId: id, chapterId: id }),
  z.object({ intent: z.literal("move-chapter"), courseId: id, chapterId: id, direction }),
  z.object({
    intent: z.literal("reorder-chapters"),
    courseId: id,
    /** Every chapter of the course, in the new order, separated by commas. */
    chapterIds: z
      .string()
      .max(40_000)
      .transform((v) => v.split(",").filter(Boolean))
      .pipe(z.array(id).min(1, "No chapters to reorder")),
  }),
]);

export type AdminAction = z.infer<typeof adminActionSchema>;
