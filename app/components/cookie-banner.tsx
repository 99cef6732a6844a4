import { useEffect, useId, useState } from "react";
import {
  analyticsDeletions,
  type Consent,
  consentCookies,
  readConsent,
} from "~/lib/cookie-consent";

const cookieTypes = [
  {
    name: "Essential",
    text: "Keep you signed in, protect forms from forgery and remember this choice. The site cannot work without them, so they are always on.",
  },
  {
    name: "Analytical",
    text: "Count visits and show which pages help people, so we can improve them. Set only if you accept all cookies.",
  },
  {
    name: "Functional",
    text: "Remember preferences such as the last lesson you opened, to make the site easier to use. Set only if you accept all cookies.",
  },
  {
    name: "Marketing",
    text: "Measure which partner or campaign brought you here, so affiliates are credited for their referrals. Set only if you accept all cookies.",
  },
] as const;

function writeCookie(assignment: string) {
  // The Cookie Store API is missing from browsers we still serve (older Safari and Firefox).
  // biome-ignore lint/suspicious/noDocumentCookie: see above; the strings come from cookie-consent.ts
  document.cookie = assignment;
}

const secure = () => window.location.protocol === "https:";

/** Stores the choice; anything short of "all" also removes analytics cookies already set. */
function saveConsent(consent: Consent) {
  try {
    for (const c of consentCookies({ consent, chosenAt: Date.now() }, { secure: secure() })) {
      writeCookie(c);
    }
    if (consent !== "all") {
      for (const deletion of analyticsDeletions(document.cookie, window.location.hostname)) {
        writeCookie(deletion);
      }
    }
    window.dispatchEvent(new CustomEvent("cookie-consent", { detail: consent }));
  } catch (error) {
    // A failed save is logged only (docs/product.md, Cookie banner).
    console.warn("Could not save the cookie choice", error);
  }
}

/**
 * The cookie banner of every page (docs/product.md, Cookie banner), shown
 * until a choice is stored. Decided in the browser: the server and prerendered
 * HTML render nothing, so one prerendered page serves every visitor. Fixed to
 * the bottom of the screen, so it never moves the page under it.
 */
export function CookieBanner() {
  const [open, setOpen] = useState(false);
  const [details, setDetails] = useState(false);
  const id = useId();

  useEffect(() => {
    const stored = readConsent(document.cookie);
    setOpen(stored === null);
    // Renew the choice on each visit until its 2 years are up (browsers cap cookies at 400 days).
    if (stored) for (const c of consentCookies(stored, { secure: secure() })) writeCookie(c);
  }, []);

  if (!open) return null;
  const choose = (consent: Consent) => {
    saveConsent(consent);
    setOpen(false);
  };
  const button =
    "rounded-lg px-2 py-2 text-sm font-semibold sm:px-4 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2";
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="fixed inset-x-0 bottom-0 z-50 max-h-[85vh] overflow-y-auto border-t border-slate-200 bg-white shadow-[0_-8px_30px_rgba(15,23,42,0.15)] sm:inset-x-auto sm:right-4 sm:bottom-4 sm:max-w-lg sm:rounded-2xl sm:border"
    >
      <div className="relative p-4 sm:p-5">
        <button
          type="button"
          onClick={() => choose("essential")}
          aria-label="Close and allow essential cookies only"
          className="absolute top-2 right-2 rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
        <h2 id={`${id}-title`} className="pr-10 text-base font-semibold text-slate-900">
          We use cookies
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Essential cookies keep the site working. With your permission we also use analytical,
          functional and marketing cookies. See our{" "}
          <a href="/privacy-policy" className="text-indigo-700 underline">
            Privacy Policy
          </a>
          .
        </p>
        <button
          type="button"
          aria-expanded={details}
          aria-controls={`${id}-details`}
          onClick={() => setDetails((d) => !d)}
          className="mt-2 inline-flex items-center gap-1 rounded text-sm font-medium text-indigo-700 underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          Cookie details
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className={`h-4 w-4 fill-current transition-transform motion-reduce:transition-none ${details ? "rotate-180" : ""}`}
          >
            <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.58l3.3-3.3a1 1 0 1 1 1.4 1.42l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.42Z" />
          </svg>
        </button>
        <dl id={`${id}-details`} hidden={!details} className="mt-3 space-y-2 text-sm">
          {cookieTypes.map((t) => (
            <div key={t.name} className="rounded-lg bg-slate-50 p-3">
              <dt className="font-semibold text-slate-900">{t.name} cookies</dt>
              <dd className="mt-0.5 text-slate-600">{t.text}</dd>
            </div>
          ))}
        </dl>
        <div className="mt-4 grid grid-cols-3 gap-2">
          <button
            type="button"
            onClick={() => choose("none")}
            className={`${button} border border-slate-300 text-slate-800 hover:bg-slate-50`}
          >
            Decline
          </button>
          <button
            type="button"
            onClick={() => choose("essential")}
            className={`${button} border border-slate-300 text-slate-800 hover:bg-slate-50`}
          >
            Essential Only
          </button>
          <button
            type="button"
            onClick={() => choose("all")}
            className={`${button} bg-indigo-600 text-white hover:bg-indigo-700`}
          >
            Accept All
          </button>
        </div>
      </div>
    </section>
  );
}
