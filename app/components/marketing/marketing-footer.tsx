import { LegalLinks } from "~/components/site-footer";
import { site } from "~/config/site";
import { earningsDisclaimer } from "~/content/sales";

/** The sales funnel pages' closing block: the earnings disclaimer, legal links and the contact address. */
export function MarketingFooter({ disclaimer = true }: { disclaimer?: boolean }) {
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
            href={`mailto:${site.supportEmail}`}
            className="text-slate-700 underline hover:text-indigo-700"
          >
            Contact: {site.supportEmail}
          </a>
        </nav>
      </div>
    </footer>
  );
}
