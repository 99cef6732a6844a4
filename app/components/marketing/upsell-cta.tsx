import { useState } from "react";
import { Link, useActionData } from "react-router";
import { FormError } from "~/components/form-answer";
import type { UpsellProduct } from "~/config/site";
import { CheckoutLink } from "./external-button";
import { useOffer } from "./use-offer";

const buyButton =
  "inline-flex w-full max-w-md items-center justify-center gap-2 rounded-xl bg-amber-400 px-6 py-4 text-center text-lg font-extrabold text-slate-950 shadow-lg shadow-amber-500/20 hover:bg-amber-300 focus:outline-none focus-visible:ring-4 focus-visible:ring-amber-500 focus-visible:ring-offset-2 aria-disabled:cursor-wait aria-disabled:opacity-80";

/**
 * An upsell's decision block: the buy (or apply) button and the No Thanks link
 * under it. When the funnel sells in the product, the button posts the page's
 * form ("Yes, Upgrade My Order": the card of the order just paid is charged,
 * upsellAction); else it is the marketplace's link.
 */
export function UpsellCta({
  product,
  buyLink,
  buyLabel,
  noThanksHref,
  noThanksLabel,
  newTab = false,
  tone = "light",
  soldOut,
  owned = false,
}: {
  product: UpsellProduct;
  /** The offer setting holding the marketplace buy link. */
  buyLink: "whiteLabelUrl" | "customSaasUrl";
  buyLabel: string;
  noThanksHref: string;
  noThanksLabel: string;
  /** The marketplace's link opens in a new tab. */
  newTab?: boolean;
  tone?: "light" | "dark";
  /** Nothing left to sell: this says so where the buy button was. */
  soldOut?: string;
  /** The member holds it already: not offered again. */
  owned?: boolean;
}) {
  const noThanksClass = `text-sm underline underline-offset-4 ${
    tone === "dark" ? "text-slate-300 hover:text-white" : "text-slate-600 hover:text-slate-900"
  }`;
  const offer = useOffer();
  const said = owned ? "You already own this: it is in your account." : soldOut;
  return (
    <div className="flex flex-col items-center gap-4">
      {said ? (
        <p
          className={`w-full max-w-md rounded-lg border px-4 py-3 text-center font-semibold ${
            tone === "dark"
              ? "border-amber-300/60 text-amber-200"
              : "border-slate-300 bg-slate-50 text-slate-800"
          }`}
        >
          {said}
        </p>
      ) : offer.sellIn === "product" ? (
        <OneClickForm product={product} label={buyLabel} />
      ) : (
        <CheckoutLink href={offer[buyLink]} newTab={newTab} className="w-full max-w-md">
          {buyLabel}
        </CheckoutLink>
      )}
      {noThanksHref.startsWith("/") ? (
        <Link to={noThanksHref} className={noThanksClass}>
          {noThanksLabel}
        </Link>
      ) : (
        <a href={noThanksHref} className={noThanksClass}>
          {noThanksLabel}
        </a>
      )}
    </div>
  );
}

/**
 * The one-click buy button: a plain form posted as a document (the page loads
 * as one, for its own Content-Security-Policy), kept from being sent twice once
 * sent; a refusal (a declined card) is said above it.
 */
function OneClickForm({ product, label }: { product: UpsellProduct; label: string }) {
  const answer = useActionData();
  const [sent, setSent] = useState(false);
  return (
    <form
      method="post"
      className="flex w-full max-w-md flex-col items-center gap-3"
      data-upsell={product}
      onSubmit={(event) => {
        if (sent) event.preventDefault();
        setSent(true);
      }}
    >
      <FormError answer={answer} />
      <input type="hidden" name="intent" value="buy" />
      <button type="submit" className={buyButton} aria-disabled={sent}>
        {sent ? "Charging your card…" : label}
      </button>
    </form>
  );
}
