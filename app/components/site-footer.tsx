import { Link } from "react-router";
import { site } from "~/config/site";

const legalPages = [
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/terms-of-service", label: "Terms of Service" },
] as const;

/** The links to the privacy policy and the terms of service, for a footer's navigation. */
export function LegalLinks({ className }: { className: string }) {
  return legalPages.map((page) => (
    <Link key={page.to} to={page.to} className={className}>
      {page.label}
    </Link>
  ));
}

/** Support address, legal links and the copyright line with the current year. */
export function SiteFooter() {
  const { supportEmail } = site;
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white print:hidden">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
        <p>
          Need help? Email{" "}
          <a href={`mailto:${supportEmail}`} className="text-indigo-700 underline">
            {supportEmail}
          </a>
        </p>
        <nav aria-label="Legal" className="flex gap-4">
          <LegalLinks className="underline" />
        </nav>
        <p>
          © {new Date().getFullYear()} {site.brand}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
