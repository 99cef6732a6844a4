import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import type { StripeConfig } from "~/server/payments/stripe.server";
import { origin } from "./helpers";

/** A request the product sent to the stand-in, its form body flattened as the SDK encodes it. */
export type RecordedRequest = { method: string; path: string; params: Record<string, string> };

type Session = Record<string, unknown> & { id: string };

/**
 * A local HTTP server speaking the few endpoints of Stripe's API the product
 * uses (POST /v1/customers, GET /v1/prices/:id, POST /v1/checkout/sessions
 * with lines of a price or price_data and a promotion code among its discounts,
 * GET /v1/checkout/sessions/:id, with expand[]=line_items, POST /v1/coupons,
 * GET and POST /v1/promotion_codes, POST /v1/promotion_codes/:id, POST
 * /v1/payment_intents confirmed off-session with a saved card, GET
 * /v1/payment_intents/:id, POST and GET /v1/refunds, GET
 * /v1/balance_transactions/:id), recording what it was sent. A POST with an
 * Idempotency-Key seen before answers what the first answered, as Stripe does.
 * The plan's Price costs 2500 cents and belongs to the Product `planProduct`.
 */
export type StripeStandIn = {
  config: StripeConfig;
  requests: RecordedRequest[];
  /** The next session creation answers this status with a Stripe error. */
  failNextSession: (status: number) => void;
  /** The next session created has no url. */
  omitNextUrl: () => void;
  /**
   * Makes a session Stripe knows, as if created elsewhere in the account
   * (a Payment Link, another integration): its one line item is `priceId`.
   */
  addSession: (session: Session, priceId: string, unitAmount?: number) => Session;
  /** The promotion codes made (active or not), with their coupons. */
  promotionCodes: () => PromotionCode[];
  /**
   * Marks a session paid, as Stripe does when the customer pays, with a Payment
   * Intent that holds the card paid with (`card`: its test payment method; one
   * whose bank asks for authentication on every off-session charge, or declines).
   */
  paySession: (sessionId: string, paymentIntent?: string, card?: TestCard) => Session;
  /** The Payment Intents Stripe holds: those that paid sessions and those created. */
  paymentIntents: () => PaymentIntent[];
  /** The refunds made (POST /v1/refunds, or refundInDashboard), oldest first. */
  refunds: () => Refund[];
  /** A refund made in the Stripe dashboard, not through the API: no metadata. */
  refundInDashboard: (paymentIntent: string, amount: number) => Refund;
  /**
   * Gives a Payment Intent's charge its balance transaction with Stripe's fee
   * (GET /v1/balance_transactions/:id, and the intent's expanded latest_charge).
   * Returns the balance transaction's id.
   */
  chargeFee: (paymentIntent: string, feeCents: number) => string;
  close: () => Promise<void>;
};

export const randomId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** The plan's Price in the stand-in, and its Product. */
export const planPrice = {
  id: "price_test_lifetime",
  object: "price",
  product: "prod_test_lifetime",
  unit_amount: 2500,
  currency: "usd",
};

type Price = { id: string; product: string; unit_amount: number; currency: string };

/** Stripe's test payment methods: a card that pays, one whose bank asks, one declined. */
export const testCards = {
  visa: "pm_card_visa",
  authenticationRequired: "pm_card_authenticationRequired",
  declined: "pm_card_chargeDeclined",
} as const;
export type TestCard = (typeof testCards)[keyof typeof testCards];

export type PaymentIntent = {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  status: string;
  setup_future_usage: string | null;
  off_session?: boolean;
  metadata: Record<string, string>;
  /** Its charge, as `expand[]=latest_charge.balance_transaction` gives it (chargeFee). */
  latest_charge?: { id: string; object: "charge"; balance_transaction: unknown } | null;
};

export type Refund = {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  status: string;
  metadata: Record<string, string>;
};

type Coupon = {
  id: string;
  object: "coupon";
  amount_off: number | null;
  currency: string | null;
  duration: string;
  name: string | null;
  valid: boolean;
};

export type PromotionCode = {
  id: string;
  object: "promotion_code";
  code: string;
  active: boolean;
  expires_at: number | null;
  promotion: { type: "coupon"; coupon: string | Coupon };
};

/** A price of the stand-in by id: the plan's, or one of another product. */
const priceOf = (id: string, unitAmount?: number): Price =>
  id === planPrice.id
    ? { ...planPrice, unit_amount: unitAmount ?? planPrice.unit_amount }
    : { id, product: "prod_other", unit_amount: unitAmount ?? 2500, currency: "usd" };

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, Session>();
  const coupons = new Map<string, Coupon>();
  const promotionCodes = new Map<string, PromotionCode>();
  const intents = new Map<string, PaymentIntent>();
  /** What each Payment Intent has had refunded, and the refunds made. */
  const refunded = new Map<string, number>();
  const refundsMade: Refund[] = [];
  /** The balance transactions of charges given a fee (chargeFee). */
  const transactions = new Map<string, { id: string; object: string; fee: number }>();
  /** What a POST with an Idempotency-Key answered first: the same again for a repeat. */
  const answered = new Map<string, { status: number; body: unknown }>();
  let failStatus: number | undefined;
  let omitUrl = false;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json", "Request-Id": randomId("req") });
    res.end(JSON.stringify(body));
  };
  const stripeError = (res: ServerResponse, status: number, message: string) =>
    send(res, status, {
      error: { type: status >= 500 ? "api_error" : "invalid_request_error", message },
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://stand-in");
    const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
    const params = Object.fromEntries([...form, ...url.searchParams]);
    const method = req.method ?? "GET";
    requests.push({ method, path: url.pathname, params });
    const key = req.headers["idempotency-key"];
    const replay = method === "POST" && typeof key === "string" ? answered.get(key) : undefined;
    if (replay) return send(res, replay.status, replay.body);
    if (method === "POST" && url.pathname === "/v1/payment_intents") {
      const [status, body] = createIntent(params);
      if (typeof key === "string") answered.set(key, { status, body });
      return send(res, status, body);
    }
    const transaction = url.pathname.match(/^\/v1\/balance_transactions\/([^/]+)$/);
    if (method === "GET" && transaction?.[1]) {
      const known = transactions.get(decodeURIComponent(transaction[1]));
      if (!known) return stripeError(res, 404, "No such balance_transaction");
      return send(res, 200, known);
    }
    if (method === "GET" && url.pathname === "/v1/refunds") {
      const data = refundsMade.filter((r) => r.payment_intent === params.payment_intent);
      return send(res, 200, { object: "list", data, has_more: false, url: "/v1/refunds" });
    }
    if (method === "POST" && url.pathname === "/v1/refunds") {
      const [status, body] = createRefund(params);
      if (typeof key === "string") answered.set(key, { status, body });
      return send(res, status, body);
    }
    const intent = url.pathname.match(/^\/v1\/payment_intents\/([^/]+)$/);
    if (method === "GET" && intent?.[1]) {
      const known = intents.get(decodeURIComponent(intent[1]));
      if (!known) return stripeError(res, 404, "No such payment_intent");
      return send(res, 200, known);
    }

    if (method === "POST" && url.pathname === "/v1/customers") {
      return send(res, 200, {
        id: randomId("cus"),
        object: "customer",
        email: params.email ?? null,
        metadata: metadataOf(params),
      });
    }
    const price = url.pathname.match(/^\/v1\/prices\/([^/]+)$/);
    if (method === "GET" && price?.[1]) {
      const id = decodeURIComponent(price[1]);
      if (id !== planPrice.id) return stripeError(res, 404, `No such price: '${id}'`);
      return send(res, 200, planPrice);
    }
    if (method === "POST" && url.pathname === "/v1/coupons") {
      const coupon: Coupon = {
        id: randomId("coupon"),
        object: "coupon",
        amount_off: params.amount_off ? Number(params.amount_off) : null,
        currency: params.currency ?? null,
        duration: params.duration ?? "once",
        name: params.name ?? null,
        valid: true,
      };
      coupons.set(coupon.id, coupon);
      if (typeof key === "string") answered.set(key, { status: 200, body: coupon });
      return send(res, 200, coupon);
    }
    if (method === "POST" && url.pathname === "/v1/promotion_codes") {
      const code = params.code ?? "";
      const couponId = params["promotion[coupon]"] ?? "";
      if (!coupons.has(couponId)) return stripeError(res, 400, `No such coupon: '${couponId}'`);
      if ([...promotionCodes.values()].some((p) => p.active && p.code === code)) {
        return stripeError(res, 400, "An active promotion code with `code` already exists.");
      }
      const promo: PromotionCode = {
        id: randomId("promo"),
        object: "promotion_code",
        code,
        active: true,
        expires_at: params.expires_at ? Number(params.expires_at) : null,
        promotion: { type: "coupon", coupon: couponId },
      };
      promotionCodes.set(promo.id, promo);
      return send(res, 200, promo);
    }
    const promoUpdate = url.pathname.match(/^\/v1\/promotion_codes\/([^/]+)$/);
    if (method === "POST" && promoUpdate?.[1]) {
      const promo = promotionCodes.get(decodeURIComponent(promoUpdate[1]));
      if (!promo) return stripeError(res, 404, "No such promotion code");
      if (params.active !== undefined) promo.active = params.active === "true";
      return send(res, 200, promo);
    }
    if (method === "GET" && url.pathname === "/v1/promotion_codes") {
      const expand = Object.values(params).includes("data.promotion.coupon");
      const data = [...promotionCodes.values()]
        .filter(
          (p) => params.code === undefined || p.code.toUpperCase() === params.code.toUpperCase(),
        )
        .filter((p) => params.active === undefined || p.active === (params.active === "true"))
        .map((p) => withCoupon(p, expand));
      return send(res, 200, { object: "list", url: "/v1/promotion_codes", has_more: false, data });
    }
    if (method === "POST" && url.pathname === "/v1/checkout/sessions") {
      if (failStatus) {
        const status = failStatus;
        failStatus = undefined;
        return stripeError(res, status, "No such price: 'price_test_lifetime'");
      }
      const id = randomId("cs_test");
      // Each line: a Price by id, or price_data of a Product (or of product_data: a new one).
      const bought: Price[] = [];
      for (let i = 0; ; i++) {
        const data = `line_items[${i}][price_data]`;
        const priceId = params[`line_items[${i}][price]`];
        if (params[`${data}[unit_amount]`]) {
          bought.push({
            id: randomId("price"),
            product: params[`${data}[product]`] ?? randomId("prod"),
            unit_amount: Number(params[`${data}[unit_amount]`]),
            currency: params[`${data}[currency]`] ?? "",
          });
        } else if (priceId) {
          bought.push(priceOf(priceId));
        } else {
          break;
        }
      }
      if (params["discounts[0][promotion_code]"] && params.allow_promotion_codes) {
        return stripeError(
          res,
          400,
          "You may only specify one of these parameters: allow_promotion_codes, discounts.",
        );
      }
      const promo = promotionCodes.get(params["discounts[0][promotion_code]"] ?? "");
      if (params["discounts[0][promotion_code]"] && !promo?.active) {
        return stripeError(res, 400, "This promotion code is not active.");
      }
      const couponOf = promo ? coupons.get(String(promo.promotion.coupon)) : undefined;
      const subtotal = bought.reduce((sum, price) => sum + price.unit_amount, 0);
      const discount = Math.min(subtotal, couponOf?.amount_off ?? 0);
      const session: Session = {
        id,
        object: "checkout.session",
        mode: params.mode,
        url: omitUrl ? null : `https://checkout.stripe.test/c/pay/${id}`,
        client_reference_id: params.client_reference_id ?? null,
        customer: params.customer ?? null,
        metadata: metadataOf(params),
        status: "open",
        payment_status: "unpaid",
        payment_intent: null,
        amount_subtotal: subtotal,
        amount_total: subtotal - discount,
        total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: 0 },
        discounts: promo ? [{ coupon: null, promotion_code: promo.id }] : [],
        payment_intent_data: {
          setup_future_usage: params["payment_intent_data[setup_future_usage]"] ?? null,
        },
        currency: "usd",
        line_items: lineItems(bought, discount),
      };
      omitUrl = false;
      sessions.set(id, session);
      return send(res, 200, session);
    }
    const retrieve = url.pathname.match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
    if (method === "GET" && retrieve?.[1]) {
      const session = sessions.get(decodeURIComponent(retrieve[1]));
      if (!session) return stripeError(res, 404, "No such checkout.session");
      const expand = Object.entries(params).filter(([key]) => /^expand\[\d*\]$/.test(key));
      if (!expand.some(([, value]) => value === "line_items")) {
        const { line_items: _, ...plain } = session;
        return send(res, 200, plain);
      }
      return send(res, 200, session);
    }
    return stripeError(res, 404, `Unrecognized request URL (${method}: ${url.pathname})`);
  };

  /**
   * A Payment Intent confirmed at once with a saved card (off_session): it
   * succeeds, or Stripe answers 402 with the card error (authentication_required
   * and the intent, or card_declined).
   */
  /**
   * A refund of a succeeded Payment Intent, of `amount` (default: what is left),
   * refused as Stripe refuses it when more than is left is asked back.
   */
  function createRefund(params: Record<string, string>): [number, unknown] {
    const paid = intents.get(params.payment_intent ?? "");
    if (paid?.status !== "succeeded") {
      return [400, { error: { type: "invalid_request_error", message: "No such payment_intent" } }];
    }
    const before = refunded.get(paid.id) ?? 0;
    const left = paid.amount_received - before;
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!(amount > 0) || amount > left) {
      const message = `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`;
      return [400, { error: { type: "invalid_request_error", message } }];
    }
    refunded.set(paid.id, before + amount);
    const made: Refund = {
      id: randomId("re"),
      object: "refund",
      amount,
      currency: paid.currency,
      payment_intent: paid.id,
      status: "succeeded",
      metadata: metadataOf(params),
    };
    refundsMade.push(made);
    return [200, made];
  }

  function createIntent(params: Record<string, string>): [number, unknown] {
    const paymentMethod = params.payment_method ?? null;
    const intent: PaymentIntent = {
      id: randomId("pi"),
      object: "payment_intent",
      amount: Number(params.amount),
      amount_received: 0,
      currency: params.currency ?? "usd",
      customer: params.customer ?? null,
      payment_method: paymentMethod,
      status: "requires_payment_method",
      setup_future_usage: null,
      off_session: params.off_session === "true",
      metadata: metadataOf(params),
    };
    intents.set(intent.id, intent);
    const refusal = (code: string, message: string): [number, unknown] => [
      402,
      { error: { type: "card_error", code, message, payment_intent: intent } },
    ];
    if (params.confirm !== "true") return [200, intent];
    if (paymentMethod === testCards.authenticationRequired) {
      return refusal("authentication_required", "This payment requires authentication.");
    }
    if (paymentMethod === testCards.declined || !paymentMethod) {
      return refusal("card_declined", "Your card was declined.");
    }
    Object.assign(intent, { status: "succeeded", amount_received: intent.amount });
    return [200, intent];
  }

  /** A promotion code with its coupon expanded, or as its id. */
  function withCoupon(promo: PromotionCode, expand: boolean): PromotionCode {
    const coupon = coupons.get(String(promo.promotion.coupon));
    return expand && coupon ? { ...promo, promotion: { type: "coupon", coupon } } : promo;
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => stripeError(res, 500, String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    config: {
      secretKey: "sk_test_standin",
      priceId: "price_test_lifetime",
      webhookSecret: "whsec_test_standin",
      apiUrl: `http://127.0.0.1:${port}`,
    },
    requests,
    failNextSession: (status) => {
      failStatus = status;
    },
    omitNextUrl: () => {
      omitUrl = true;
    },
    addSession: (session, priceId, unitAmount) => {
      const known = { ...session, line_items: lineItems([priceOf(priceId, unitAmount)]) };
      sessions.set(session.id, known);
      return known;
    },
    promotionCodes: () => [...promotionCodes.values()].map((p) => withCoupon(p, true)),
    paySession: (sessionId, paymentIntent = randomId("pi"), card = testCards.visa) => {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        payment_intent: paymentIntent,
      });
      const kept = (
        session.payment_intent_data as { setup_future_usage?: string | null } | undefined
      )?.setup_future_usage;
      intents.set(paymentIntent, {
        id: paymentIntent,
        object: "payment_intent",
        amount: Number(session.amount_total),
        amount_received: Number(session.amount_total),
        currency: "usd",
        customer: (session.customer as string | null) ?? null,
        // Only a card kept for later (setup_future_usage) can be charged off-session.
        payment_method: kept ? card : null,
        status: "succeeded",
        setup_future_usage: kept ?? null,
        metadata: {},
      });
      return session;
    },
    paymentIntents: () => [...intents.values()],
    refunds: () => [...refundsMade],
    chargeFee: (paymentIntent, feeCents) => {
      const intent = intents.get(paymentIntent);
      if (!intent) throw new Error(`no Payment Intent ${paymentIntent}`);
      const transaction = { id: randomId("txn"), object: "balance_transaction", fee: feeCents };
      transactions.set(transaction.id, transaction);
      intent.latest_charge = {
        id: randomId("ch"),
        object: "charge",
        balance_transaction: transaction,
      };
      return transaction.id;
    },
    refundInDashboard: (paymentIntent, amount) => {
      const [status, body] = createRefund({
        payment_intent: paymentIntent,
        amount: String(amount),
      });
      if (status !== 200) throw new Error(JSON.stringify(body));
      return body as Refund;
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/**
 * A session's line items as `expand[]=line_items` returns them: one line of each
 * price, the `discount` spread over them in proportion to their amounts, as Stripe
 * spreads an amount-off coupon (the last line takes what rounding leaves).
 */
function lineItems(prices: Price[], discount = 0) {
  const subtotal = prices.reduce((sum, price) => sum + price.unit_amount, 0);
  let left = discount;
  return {
    object: "list",
    url: "/v1/checkout/sessions/line_items",
    has_more: false,
    data: prices.map((price, i) => {
      const share =
        i === prices.length - 1 ? left : Math.round((discount * price.unit_amount) / subtotal);
      left -= share;
      return {
        id: randomId("li"),
        object: "item",
        amount_subtotal: price.unit_amount,
        amount_discount: share,
        amount_total: price.unit_amount - share,
        currency: price.currency,
        quantity: 1,
        price: { object: "price", ...price },
      };
    }),
  };
}

function metadataOf(params: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const name = key.match(/^metadata\[(.+)\]$/)?.[1];
    if (name) metadata[name] = value;
  }
  return metadata;
}

/** A Stripe event around `object`, as Stripe sends it to a webhook endpoint. */
export function stripeEvent(type: string, object: Record<string, unknown>, id = randomId("evt")) {
  return {
    id,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** A POST to the webhook endpoint, signed with `secret` unless `signature` is given (null: no header). */
export function webhookRequest(event: unknown, secret: string, signature?: string | null): Request {
  const payload = JSON.stringify(event);
  const headers = new Headers({ "content-type": "application/json" });
  const header =
    signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({ payload, secret })
      : signature;
  if (header !== null) headers.set("stripe-signature", header);
  return new Request(`${origin}/api/webhooks/stripe`, { method: "POST", headers, body: payload });
}
