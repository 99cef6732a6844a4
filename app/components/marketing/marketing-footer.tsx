import { LegalLinks } from "~/components/site-footer";
import { earningsDisclaimer } from "~/content/sales";
import { useOffer } from "./use-offer";

/** The sales funnel pages' closing block: the earnings disclaimer, legal links and the contact address. */
export function MarketingFooter({ disclaimer = true }: { disclaimer?: boolean }) {
  const { supportEmail } = useOffer();
  return (
    <footer className="border-t border-slate-200 bg-slate-100">
      <div className="mx-auto max-w-4xl px-4 py-10 text-sm text-slate-600">
        {disclaimer ? <p className="leading-relaxed">{earningsDisclaimer}</p> : null}
        <nav
          aria-label="Page footer"
          className="mt-6 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 font-medium"
        >
          <LegalLinks className="text-slate-700 underline hover:text-indigo-700" />
          <a
            href={`mailto:${supportEmail}`}
            className="text-slate-700 underline hover:text-indigo-700"
          >
            Contact: {supportEmail}
          </a>
        </nav>
      </div>
    </footer>
  );
}
