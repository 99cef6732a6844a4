import { Link } from "react-router";
import { CheckoutLink } from "./external-button";
import { useOffer } from "./use-offer";

/** An upsell's decision block: the buy (or apply) button and the No Thanks link under it. */
export function UpsellCta({
  buyLink,
  buyLabel,
  noThanksHref,
  noThanksLabel,
  newTab = false,
  tone = "light",
  soldOut,
}: {
  /** The offer setting holding the marketplace buy link. */
  buyLink: "whiteLabelUrl" | "customSaasUrl";
  buyLabel: string;
  noThanksHref: string;
  noThanksLabel: string;
  newTab?: boolean;
  tone?: "light" | "dark";
  /** Nothing left to sell: this says so where the buy button was. */
  soldOut?: string;
}) {
  const noThanksClass = `text-sm underline underline-offset-4 ${
    tone === "dark" ? "text-slate-300 hover:text-white" : "text-slate-600 hover:text-slate-900"
  }`;
  const buyHref = useOffer()[buyLink];
  return (
    <div className="flex flex-col items-center gap-4">
      {soldOut ? (
        <p
          className={`w-full max-w-md rounded-lg border px-4 py-3 text-center font-semibold ${
            tone === "dark"
              ? "border-amber-300/60 text-amber-200"
              : "border-slate-300 bg-slate-50 text-slate-800"
          }`}
        >
          {soldOut}
        </p>
      ) : (
        <CheckoutLink href={buyHref} newTab={newTab} className="w-full max-w-md">
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
