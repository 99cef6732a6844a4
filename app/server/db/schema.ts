import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { applicationStatuses } from "../../lib/application-status";

// Better Auth's own tables (user, session, account, verification), with the
// product's `is_admin` flag on the user. Column names follow Better Auth's
// field names; see https://www.better-auth.com/docs/concepts/database.

/** A point in time: every time column is `timestamp with time zone`. */
const instant = (name: string) => timestamp(name, { withTimezone: true });

/** When the row was made and last changed; both default to the time of the insert. */
const timestamps = () => ({
  createdAt: instant("created_at").notNull().defaultNow(),
  updatedAt: instant("updated_at").notNull().defaultNow(),
});

const cascade = { onDelete: "cascade" } as const;

/** Better Auth's tables: its text id, the given columns, and the two timestamps. */
const betterAuthColumns = <T extends Record<string, unknown>>(columns: T) => ({
  id: text("id").primaryKey(),
  ...columns,
  ...timestamps(),
});

/** The member a row belongs to, and the course: deleting either deletes the row. */
const userIdColumn = () =>
  text("user_id")
    .notNull()
    .references(() => user.id, cascade);
/** The index `{table}_user_id_idx` on a table's user_id: the rows of one member. */
const indexByUser = (table: string) => (t: { userId: AnyPgColumn }) => [
  index(`${table}_user_id_idx`).on(t.userId),
];
const courseIdColumn = () =>
  uuid("course_id")
    .notNull()
    .references(() => course.id, cascade);

export const user = pgTable(
  "user",
  betterAuthColumns({
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    isAdmin: boolean("is_admin").notNull().default(false),
    /** Better Auth's twoFactor plugin: true once a TOTP secret is confirmed with a code. */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  }),
  (t) => [index("user_created_at_idx").on(t.createdAt)],
);

export const session = pgTable(
  "session",
  betterAuthColumns({
    expiresAt: instant("expires_at").notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: userIdColumn(),
    /**
     * When the user last proved who they are in this session (password or
     * two-factor code, guards.server.ts requireRecentProof); null: at its sign-in
     * (created_at).
     */
    provedAt: instant("proved_at"),
    /** An admin session's last request, kept to the minute (session.server.ts); null for others. */
    lastSeenAt: instant("last_seen_at"),
  }),
  indexByUser("session"),
);

export const account = pgTable(
  "account",
  betterAuthColumns({
    userId: userIdColumn(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: instant("access_token_expires_at"),
    refreshTokenExpiresAt: instant("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
  }),
  indexByUser("account"),
);

/**
 * Better Auth's one-time values, by identifier: password reset and
 * set-password tokens (the identifier holds the token's SHA-256, never the
 * token: app/server/auth/password-reset.server.ts), each with its expiry.
 */
export const verification = pgTable(
  "verification",
  betterAuthColumns({
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: instant("expires_at").notNull(),
  }),
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

/**
 * Better Auth's twoFactor plugin: the user's TOTP secret and recovery codes,
 * both encrypted with the auth secret. `verified` is false between "enable"
 * and the first correct code.
 */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: userIdColumn(),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: instant("locked_until"),
    /** The last TOTP time step (Unix time / 30 s) accepted: a code is accepted once (two-factor.server.ts). */
    lastTotpStep: bigint("last_totp_step", { mode: "number" }),
  },
  (t) => [uniqueIndex("two_factor_user_id_idx").on(t.userId)],
);

/**
 * The client addresses (rate-limit keys: IPv4, or an IPv6 /64) each account
 * has signed in from, with the last time. Failed sign-ins from these do not
 * count against the account's own limit (rate-limit.server.ts), so strangers
 * guessing from elsewhere never lock the member out; kept in the database so
 * a restart or another server process knows them too.
 */
export const signInAddress = pgTable(
  "sign_in_address",
  {
    userId: userIdColumn(),
    address: text("address").notNull(),
    lastSignInAt: instant("last_sign_in_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] })],
);

export const course = pgTable(
  "course",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** Off: a draft, which only admins see (and preview). */
    published: boolean("published").notNull().default(true),
    /** The admin's order; the dashboard lists courses by it. */
    sortOrder: integer("sort_order").notNull().default(0),
    /** An uploaded image's URL (/uploads/...), shown on the dashboard card. */
    coverImageUrl: text("cover_image_url"),
    coverAlt: text("cover_alt").notNull().default(""),
    ...timestamps(),
  },
  (t) => [index("course_sort_idx").on(t.sortOrder, t.createdAt)],
);

export const chapter = pgTable(
  "chapter",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    courseId: courseIdColumn(),
    title: text("title").notNull(),
    /** Sanitized when written; never rendered unsanitized. */
    contentHtml: text("content_html").notNull().default(""),
    sortOrder: integer("sort_order").notNull(),
    /** Off: a draft, which only admins see (and preview). */
    published: boolean("published").notNull().default(true),
    ...timestamps(),
  },
  // The unique (course_id, sort_order) constraint is DEFERRABLE, so a swap can pass through a
  // duplicate inside its transaction; it is declared in drizzle/0002_courses.sql.
  (t) => [index("chapter_course_sort_idx").on(t.courseId, t.sortOrder)],
);

/**
 * What each product opens (docs/product.md, Products and what they open): a
 * course belongs to every product listed for it here, and a member opens it
 * by holding one of them (access.server.ts). A course listed for none is
 * opened by admins only.
 */
export const productCourse = pgTable(
  "product_course",
  {
    product: text("product").notNull(),
    courseId: courseIdColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.product, t.courseId] }),
    // The catalogue reads it whole; the access rule looks a course up by its id.
    index("product_course_course_idx").on(t.courseId),
    check(
      "product_course_product_check",
      sql`${t.product} in ('lifetime-access','bump-vip','white-label','custom-saas')`,
    ),
  ],
);

/**
 * A file a product opens (docs/product.md, Products and what they open),
 * uploaded by the owner on /admin/products and kept in the uploads store under
 * `stored_name`; served at /files/{id} to holders of the product and admins.
 */
export const productFile = pgTable(
  "product_file",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    product: text("product").notNull(),
    /** The name the owner's file had, which a download is saved as. */
    name: text("name").notNull(),
    storedName: text("stored_name").notNull().unique(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A product's files in the order they were added; a member's list reads the products held.
    index("product_file_product_idx").on(t.product, t.createdAt),
    check(
      "product_file_product_check",
      sql`${t.product} in ('lifetime-access','bump-vip','white-label','custom-saas')`,
    ),
  ],
);

/** A member's finished chapters. */
export const chapterProgress = pgTable(
  "chapter_progress",
  {
    userId: userIdColumn(),
    chapterId: uuid("chapter_id")
      .notNull()
      .references(() => chapter.id, { onDelete: "cascade" }),
    courseId: courseIdColumn(),
    completedAt: instant("completed_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.chapterId] }),
    index("chapter_progress_user_course_idx").on(t.userId, t.courseId),
  ],
);

/**
 * How many chapters each member has marked done, in every course, drafts
 * included: kept by triggers on chapter_progress in the transaction of every
 * write to it (migration 0032, decision 044), so the console's progress
 * figures over every member read one row per member instead of counting
 * every mark.
 */
export const memberProgress = pgTable("member_progress", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, cascade),
  marks: integer("marks").notNull(),
});

/**
 * What each member has paid, less what was refunded to them, in cents: the
 * sum of their purchases' amounts less the sum of their refunds' (refund.user_id,
 * decision 041). Kept by triggers on purchase and refund in the transaction of
 * every write to them (migration 0034, decision 046), so the members list
 * sorts by spend and shows it reading one row per member instead of every
 * purchase and refund.
 */
export const memberSpend = pgTable("member_spend", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, cascade),
  cents: bigint("cents", { mode: "number" }).notNull(),
});

/**
 * The members who hold each product by the access rule (access.server.ts:
 * a purchase of it that is completed, not revoked by the owner, and whose
 * address is proved when it waits for that), with how many such purchases
 * they have (a member holds the product while it is over 0). Kept by triggers
 * on purchase and on the account's address proof, in the transaction of every
 * write (migration 0035, decision 047), so the console's counts and filters of
 * holders read one row per holder instead of testing every purchase.
 */
export const memberHolding = pgTable(
  "member_holding",
  {
    product: text("product").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, cascade),
    purchases: integer("purchases").notNull(),
  },
  (t) => [primaryKey({ columns: [t.product, t.userId] })],
);

/** The chapter a member last opened in each course, to resume there. */
export const courseVisit = pgTable(
  "course_visit",
  {
    userId: userIdColumn(),
    courseId: courseIdColumn(),
    chapterId: uuid("chapter_id").references(() => chapter.id, { onDelete: "set null" }),
    visitedAt: instant("visited_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId] })],
);

/** Ideas a member kept from the idea generator. */
export const savedIdea = pgTable(
  "saved_idea",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: userIdColumn(),
    title: text("title").notNull(),
    /** The idea as the generator made it (~/lib/ideas SaasIdea). */
    idea: jsonb("idea").notNull(),
    createdAt: instant("created_at").notNull().defaultNow(),
  },
  (t) => [index("saved_idea_user_idx").on(t.userId, t.createdAt)],
);

export const purchaseProviders = ["test", "stripe", "warriorplus", "manual"] as const;
export type PurchaseProvider = (typeof purchaseProviders)[number];
export const purchaseStatuses = ["completed", "refunded"] as const;
export type PurchaseStatus = (typeof purchaseStatuses)[number];

export const purchase = pgTable(
  "purchase",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: userIdColumn(),
    provider: text("provider", { enum: purchaseProviders }).notNull(),
    providerRef: text("provider_ref").notNull(),
    product: text("product").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: purchaseStatuses }).notNull().default("completed"),
    createdAt: instant("created_at").notNull().defaultNow(),
    refundedAt: instant("refunded_at"),
    /**
     * When the owner ended the access this purchase gave ("Revoke access"):
     * it no longer counts for access, and nothing was refunded (the money
     * figures keep it as a sale). Null: it gives access as its status says.
     */
    accessRevokedAt: instant("access_revoked_at"),
    /**
     * A marketplace sale credited to an account whose owner had not proved the
     * address: it grants access only once the address is proved
     * (user.email_verified, set by using a reset or set-password link).
     * docs/decisions/023-marketplace-sales-and-the-plan-price.md
     */
    awaitsAddressProof: boolean("awaits_address_proof").notNull().default(false),
    /**
     * The order number the buyer and the owner quote (AIL-7K3Q9): given by the
     * database from a sequence, scrambled so that numbers in a row do not look
     * it (drizzle/0016).
     */
    orderNumber: text("order_number")
      .notNull()
      .default(sql`purchase_order_number(nextval('purchase_order_seq'))`),
    /**
     * The order this purchase was added to: the plan's purchase, for the order
     * bump bought with it and the upsells accepted after it (one-click, or a
     * Checkout Session when the bank asks). At most one purchase of a product per
     * order (purchase_first_purchase_product_idx). Null: an order of its own.
     */
    firstPurchaseId: uuid("first_purchase_id").references((): AnyPgColumn => purchase.id, {
      onDelete: "set null",
    }),
    /** The coupon the buyer took at our checkout (its code), or null. */
    couponCode: text("coupon_code"),
    /**
     * What the provider kept of the payment, where it says (Stripe's fee, from
     * the charge's balance transaction, on the payment's own purchase), or null.
     */
    feeCents: integer("fee_cents"),
    /** The UTC day of created_at, kept by the database: the sales figures group by it. */
    createdDay: date("created_day", { mode: "string" }).generatedAlwaysAs(
      sql`(created_at at time zone 'UTC')::date`,
    ),
  },
  (t) => [
    uniqueIndex("purchase_provider_ref_idx").on(t.provider, t.providerRef),
    uniqueIndex("purchase_order_number_idx").on(t.orderNumber),
    // Serves hasPaidAccess: "a completed purchase of this user".
    index("purchase_user_status_idx").on(t.userId, t.status),
    // Serves the sales figures for a date range (/admin/sales).
    index("purchase_created_at_idx").on(t.createdAt),
    // Serves the refunds of a date range, counted on the day they were made.
    index("purchase_refunded_at_idx").on(t.refundedAt).where(sql`${t.refundedAt} is not null`),
    // Nothing is charged twice: one purchase of each product per order.
    uniqueIndex("purchase_first_purchase_product_idx")
      .on(t.firstPurchaseId, t.product)
      .where(sql`${t.firstPurchaseId} is not null`),
    check(
      "purchase_provider_check",
      sql`${t.provider} in ('test','stripe','warriorplus','manual')`,
    ),
    check("purchase_status_check", sql`${t.status} in ('completed','refunded')`),
    check("purchase_amount_check", sql`${t.amountCents} >= 0`),
  ],
);

/**
 * A Custom SaaS buyer's intake form, one per purchase (docs/product.md,
 * Custom SaaS build), and where the owner's team is with it.
 */
export const coachingApplication = pgTable(
  "coaching_application",
  {
    purchaseId: uuid("purchase_id")
      .primaryKey()
      .references(() => purchase.id, cascade),
    userId: userIdColumn(),
    /** The vision document's stored name (store.server.ts) and the name it was uploaded with. */
    visionFile: text("vision_file").notNull(),
    visionName: text("vision_name").notNull(),
    availability: text("availability").notNull(),
    techEnvironment: text("tech_environment").notNull().default(""),
    hosting: text("hosting").notNull(),
    contentPlan: text("content_plan").notNull(),
    status: text("status", { enum: applicationStatuses }).notNull().default("new"),
    /** The owner's own notes: never shown to the buyer. */
    notes: text("notes").notNull().default(""),
    submittedAt: instant("submitted_at").notNull().defaultNow(),
    updatedAt: instant("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("coaching_application_status_idx").on(t.status, t.submittedAt),
    index("coaching_application_user_idx").on(t.userId),
    check(
      "coaching_application_status_check",
      sql`${t.status} in ('new','consultation-booked','in-development','launched','support')`,
    ),
  ],
);

/**
 * The money figures of each UTC day, by product, provider and currency: the
 * purchases made that day (how many, how many of them are refunded now, what
 * they came to) and the refunds made that day (how many, how much). Kept by
 * statement triggers on purchase and refund in the transaction of every write
 * to them (migration 0033, decision 045), so the sales figures of a range read
 * a few rows a day instead of every purchase and refund in it.
 */
export const salesDay = pgTable(
  "sales_day",
  {
    day: date("day", { mode: "string" }).notNull(),
    product: text("product").notNull(),
    provider: text("provider").notNull(),
    currency: text("currency").notNull(),
    purchases: integer("purchases").notNull(),
    refunded: integer("refunded").notNull(),
    grossCents: bigint("gross_cents", { mode: "number" }).notNull(),
    refunds: integer("refunds").notNull(),
    refundsCents: bigint("refunds_cents", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.product, t.provider, t.currency] })],
);

/**
 * Money paid back on a purchase: one row per refund, on the day it was made
 * (the sales figures count refunds by this day). A refund from the console
 * writes its row with the provider's refund id (unique: a refund is recorded
 * once); a purchase that becomes refunded any other way (a provider's refund
 * notification, a lost dispute) gets a row for what was not yet paid back,
 * written by the database itself (drizzle/0025): the rows of a refunded
 * purchase always add up to its amount. docs/decisions/036-refunds-as-rows.md
 */
export const refund = pgTable(
  "refund",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    purchaseId: uuid("purchase_id")
      .notNull()
      .references(() => purchase.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    createdAt: instant("created_at").notNull().defaultNow(),
    /** The provider's id of this refund (Stripe's re_…), when the console made it. */
    providerRef: text("provider_ref"),
    /**
     * The console's idempotency key of this refund (also sent to Stripe): a
     * form sent twice (a double click, a reload) refunds once.
     */
    requestKey: text("request_key"),
    /** The UTC day of created_at, kept by the database: the refund figures group by it. */
    createdDay: date("created_day", { mode: "string" }).generatedAlwaysAs(
      sql`(created_at at time zone 'UTC')::date`,
    ),
    /**
     * The refunded purchase's buyer, product, provider and currency, copied by the
     * database as the row is written (a trigger; a purchase never changes them): the
     * refund figures group by them without reading the purchases back.
     */
    userId: text("user_id").notNull(),
    product: text("product").notNull(),
    provider: text("provider").notNull(),
    currency: text("currency").notNull(),
  },
  (t) => [
    index("refund_purchase_idx").on(t.purchaseId),
    index("refund_created_at_idx").on(t.createdAt),
    uniqueIndex("refund_provider_ref_idx")
      .on(t.providerRef)
      .where(sql`${t.providerRef} is not null`),
    uniqueIndex("refund_request_key_idx").on(t.requestKey).where(sql`${t.requestKey} is not null`),
    check("refund_amount_check", sql`${t.amountCents} > 0`),
  ],
);

/**
 * A refund or lost dispute that arrived before the payment it revokes (providers
 * deliver out of order). fulfilPurchase records such a payment as refunded.
 * See docs/decisions/004-stripe.md.
 */
export const purchaseRevocation = pgTable(
  "purchase_revocation",
  {
    provider: text("provider", { enum: purchaseProviders }).notNull(),
    providerRef: text("provider_ref").notNull(),
    revokedAt: instant("revoked_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerRef] })],
);

export const paymentIssueReasons = ["not-the-plan", "unknown-user", "already-bought"] as const;
export type PaymentIssueReason = (typeof paymentIssueReasons)[number];

/**
 * A paid payment that granted nothing and needs the operator: a Checkout
 * Session for something other than the plan, one whose
 * client_reference_id names no user, or an upsell paid again for an order
 * that already holds it (two tabs: one-click and a Checkout Session). The webhook acknowledges it (Stripe
 * stops retrying) and records it here once; `npm run cli -- payments issues`
 * lists the open ones.
 */
export const paymentIssue = pgTable(
  "payment_issue",
  {
    provider: text("provider", { enum: purchaseProviders }).notNull(),
    /** The Checkout Session's id. */
    providerRef: text("provider_ref").notNull(),
    reason: text("reason", { enum: paymentIssueReasons }).notNull(),
    /** The client_reference_id the session carried, if any. */
    userRef: text("user_ref"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    createdAt: instant("created_at").notNull().defaultNow(),
    resolvedAt: instant("resolved_at"),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerRef] }),
    check(
      "payment_issue_reason_check",
      sql`${t.reason} in ('not-the-plan','unknown-user','already-bought')`,
    ),
  ],
);

export const stripeCustomer = pgTable("stripe_customer", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  customerId: text("customer_id").notNull().unique(),
});

export const webhookEvent = pgTable(
  "webhook_event",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    receivedAt: instant("received_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("webhook_event_provider_event_idx").on(t.provider, t.eventId)],
);

export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: instant("created_at").notNull().defaultNow(),
    sentAt: instant("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Not tried again before this time: the exponential backoff after a failure. */
    nextAttemptAt: instant("next_attempt_at").notNull().defaultNow(),
    /**
     * A broadcast's message: its subject and bodies are the broadcast's, made
     * for the account `userId` when it is sent (empty here). Marketing: sent
     * at EMAIL_RATE_PER_MINUTE, after every transactional message due, and
     * never to an address that unsubscribed or is undeliverable.
     */
    broadcastId: uuid("broadcast_id").references(() => broadcast.id, cascade),
    userId: text("user_id").references(() => user.id, cascade),
    /** Not sent, and never will be: "unsubscribed" or "undeliverable" when its turn came. */
    skipped: text("skipped"),
  },
  (t) => [
    index("email_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null and ${t.skipped} is null and ${t.broadcastId} is null`),
    index("email_outbox_marketing_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null and ${t.skipped} is null and ${t.broadcastId} is not null`),
    index("email_outbox_broadcast_idx").on(t.broadcastId),
    index("email_outbox_user_id_idx").on(t.userId),
  ],
);

/**
 * A message the owner writes to many members (/admin/email). Its audience is
 * a members-list filter (the student list's own query), read when it is
 * queued: one outbox row per recipient, in one statement.
 */
export const broadcast = pgTable(
  "broadcast",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subject: text("subject").notNull(),
    /** Sanitized like a chapter's (content/sanitize.server.ts). */
    bodyHtml: text("body_html").notNull(),
    /** The members-list filter (MembersQuery without page and order) it goes to. */
    audience: jsonb("audience").notNull(),
    /** When it is queued; null: it was queued when it was sent. */
    scheduledFor: instant("scheduled_for"),
    /** When its recipients were put in the outbox; null: still scheduled. */
    queuedAt: instant("queued_at"),
    recipients: integer("recipients"),
    createdBy: text("created_by").notNull(),
    /**
     * A step of a sequence instead ("welcome": started by a purchase of the
     * plan): sent to one member `sequenceDay` days after it starts, while
     * `active`. A step's audience, schedule and recipients are unused.
     */
    sequence: text("sequence"),
    sequenceDay: integer("sequence_day"),
    active: boolean("active").notNull().default(true),
    /**
     * The chapter it announces (a tick box on publishing one): unique, so a
     * chapter is announced once however often its form is sent.
     */
    chapterId: uuid("chapter_id").references(() => chapter.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [uniqueIndex("broadcast_chapter_id_idx").on(t.chapterId)],
);

/**
 * Whether an account takes marketing e-mail (broadcasts, sequences). No row:
 * it does. Receipts, password and login e-mails are sent regardless.
 */
export const emailPreference = pgTable("email_preference", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, cascade),
  /** Unsubscribed from marketing e-mail (the link in every one, or its List-Unsubscribe). */
  unsubscribedAt: instant("unsubscribed_at"),
  /** The broadcast whose link it unsubscribed from, for that broadcast's figures. */
  unsubscribedFrom: uuid("unsubscribed_from").references(() => broadcast.id, {
    onDelete: "set null",
  }),
  /** The SMTP server refused the address permanently (5xx); the owner can clear it. */
  undeliverableAt: instant("undeliverable_at"),
  undeliverableReason: text("undeliverable_reason"),
  updatedAt: instant("updated_at").notNull().defaultNow(),
});

/** Pending checkouts of the built-in test provider (used when Stripe is not configured). */
export const testCheckout = pgTable("test_checkout", {
  id: uuid("id").primaryKey().defaultRandom(),
  userId: userIdColumn(),
  product: text("product").notNull(),
  /** What the buyer pays: the price less the coupon's saving, if one was taken. */
  amountCents: integer("amount_cents").notNull(),
  currency: text("currency").notNull(),
  /** The coupon taken at the checkout (its code), or null. */
  couponCode: text("coupon_code"),
  /** The VIP Upgrade ticked on the plan page: its price, paid as its own purchase; null: not taken. */
  bumpCents: integer("bump_cents"),
  /** An upsell's checkout: the plan purchase (the order) it is added to; null: an order of its own. */
  firstPurchaseId: uuid("first_purchase_id").references(() => purchase.id, {
    onDelete: "set null",
  }),
  createdAt: instant("created_at").notNull().defaultNow(),
});

/**
 * The version of what a member's pages show, per dependency: `user:{id}` (the
 * account, its sessions, purchases, two-factor, progress and resume points)
 * and `shared` (what every member sees: courses and chapters). Bumped by triggers in the transaction of every
 * write to those tables (drizzle/0006_page_version.sql), whoever writes: this
 * server, another one, the CLI or psql. The member page cache keeps a page for
 * the versions it was rendered under (docs/decisions/009-page-cache-by-dependency.md).
 */
export const pageVersion = pgTable("page_version", {
  key: text("key").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(1),
});

/**
 * Who did what, when: every admin action (courses, chapters, members,
 * settings) and every operator CLI command (app/server/admin/audit.server.ts).
 * The actor is kept by id and by e-mail (or `cli:{os user}`), with no foreign
 * key: the record outlives the account.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: instant("at").notNull().defaultNow(),
    /** The order entries were written in: ties entries of the same instant. */
    seq: bigint("seq", { mode: "number" }).notNull().generatedByDefaultAsIdentity(),
    actorId: text("actor_id"),
    actor: text("actor").notNull(),
    /** What was done, as `area.verb`: course.create, member.grant, settings.update, cli.access-grant… */
    kind: text("kind").notNull(),
    /** What it was done to: a course's title, a member's e-mail… */
    target: text("target"),
    detail: text("detail"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at),
    index("audit_log_actor_at_idx").on(t.actor, t.at),
    index("audit_log_kind_at_idx").on(t.kind, t.at),
  ],
);

/**
 * The offer's settings the owner edits on /admin/settings (prices, coupon,
 * launch date, marketplace links…): one row, its value checked by the
 * settings schema when read and written; missing keys take the defaults.
 */
export const offerSettings = pgTable(
  "offer_settings",
  {
    id: integer("id").primaryKey().default(1),
    value: jsonb("value").notNull(),
    updatedAt: instant("updated_at").notNull().defaultNow(),
  },
  (t) => [check("offer_settings_one_row", sql`${t.id} = 1`)],
);

/**
 * Views of the funnel's public pages per day, counted only for visitors who
 * accepted analytical cookies; summed in memory and added in batches.
 */
export const pageView = pgTable(
  "page_view",
  {
    day: date("day", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.path] })],
);

/** The first time a member opened each chapter: where students stop (/admin/learning). */
export const chapterView = pgTable(
  "chapter_view",
  {
    userId: userIdColumn(),
    chapterId: uuid("chapter_id")
      .notNull()
      .references(() => chapter.id, cascade),
    courseId: courseIdColumn(),
    firstAt: instant("first_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.chapterId] }),
    index("chapter_view_chapter_idx").on(t.chapterId),
    // Serves "who started each course" (/admin/learning): an index-only scan.
    index("chapter_view_course_user_idx").on(t.courseId, t.userId),
  ],
);
