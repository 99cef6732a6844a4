// The advertised coupon (the offer settings) at Stripe: a promotion code of the
// same code for a coupon of the same amount off, which a Checkout Session of
// ours applies when the buyer typed the code at our checkout.
import { type StripeConfig, stripeClient } from "./stripe.server";

export type StripeCoupon = {
  code: string;
  savingCents: number;
  /** When the coupon stops working (ms), or null: no end. */
  endsAt: number | null;
};

const known = new WeakMap<StripeConfig, Map<string, Promise<string>>>();

/**
 * The id of the active promotion code for `coupon`: found through the API
 * (an active code of that code whose coupon takes the same US$ amount off
 * once, with the same end), else created, with its coupon. An active code of
 * the same code that differs (the owner changed the saving or the end) is
 * turned off first: Stripe keeps one active promotion code per code. Asked of
 * Stripe once per process for each code, saving and end; a failure is not kept.
 */
export function promotionCodeFor(config: StripeConfig, coupon: StripeCoupon): Promise<string> {
  let byCoupon = known.get(config);
  if (!byCoupon) {
    byCoupon = new Map();
    known.set(config, byCoupon);
  }
  const key = `${coupon.code}\n${coupon.savingCents}\n${coupon.endsAt ?? ""}`;
  let id = byCoupon.get(key);
  if (!id) {
    id = findOrCreate(config, coupon);
    byCoupon.set(key, id);
    const kept = byCoupon;
    id.catch(() => kept.delete(key));
  }
  return id;
}

async function findOrCreate(config: StripeConfig, coupon: StripeCoupon): Promise<string> {
  const stripe = stripeClient(config);
  const expiresAt = coupon.endsAt === null ? null : Math.floor(coupon.endsAt / 1000);
  const active = await stripe.promotionCodes.list({
    code: coupon.code,
    active: true,
    limit: 10,
    expand: ["data.promotion.coupon"],
  });
  const same = active.data.find((promo) => {
    const found = promo.promotion.coupon;
    return (
      promo.code.toUpperCase() === coupon.code &&
      typeof found === "object" &&
      found !== null &&
      found.amount_off === coupon.savingCents &&
      found.currency === "usd" &&
      found.duration === "once" &&
      promo.expires_at === expiresAt
    );
  });
  if (same) return same.id;
  for (const promo of active.data) {
    if (promo.code.toUpperCase() === coupon.code) {
      await stripe.promotionCodes.update(promo.id, { active: false });
    }
  }
  const created = await stripe.coupons.create(
    {
      amount_off: coupon.savingCents,
      currency: "usd",
      duration: "once",
      name: `Coupon ${coupon.code}`.slice(0, 40),
    },
    // Two processes creating it at once make one coupon.
    { idempotencyKey: `coupon-${coupon.code}-${coupon.savingCents}-${expiresAt ?? "open"}` },
  );
  const promo = await stripe.promotionCodes.create({
    promotion: { type: "coupon", coupon: created.id },
    code: coupon.code,
    ...(expiresAt === null ? {} : { expires_at: expiresAt }),
  });
  return promo.id;
}
