import { Link } from "react-router";
import { site } from "~/config/site";

/** Support address, legal links and the copyright line with the current year. */
export function SiteFooter() {
  const { supportEmail } = site;
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
        <p>
          Need help? Email{" "}
          <a href={`mailto:${supportEmail}`} className="text-indigo-700 underline">
            {supportEmail}
          </a>
        </p>
        <nav aria-label="Legal" className="flex gap-4">
          <Link to="/privacy-policy" className="underline">
            Privacy Policy
          </Link>
          <Link to="/terms-of-service" className="underline">
            Terms of Service
          </Link>
        </nav>
        <p>
          © {new Date().getFullYear()} {site.brand}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
