import { useEffect, useId, useState } from "react";
import {
  analyticsDeletions,
  type Consent,
  consentCookieName,
  consentCookies,
  parseConsent,
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

/** Marks the page when a choice is stored, before it is painted (consentCheckScript). */
export const consentMarker = "data-cookie-consent";

/**
 * The inline script of every page's head: marks <html> when a choice is
 * stored, so CSS hides the banner (app.css) before the first paint and before
 * any other script has loaded. The banner's own script then decides for good.
 */
export const consentCheckScript = `if(/(^|;\\s*)${consentCookieName}=(all|essential|none)(;|$)/.test(document.cookie))document.documentElement.setAttribute("${consentMarker}","")`;

type Choice = { consent: Consent; label: string; primary?: boolean };
const choices: readonly Choice[] = [
  { consent: "none", label: "Decline" },
  { consent: "essential", label: "Essential Only" },
  { consent: "all", label: "Accept All", primary: true },
];

/**
 * The cookie banner of every page (docs/product.md, Cookie banner), shown
 * until a choice is stored. In the HTML of every page, prerendered ones too,
 * at the top of the page in its own space: it pushes the page down instead of
 * covering its buttons. Its buttons submit a plain form the server answers
 * (POST /cookie-consent), so they work before this script has loaded; once it
 * has, they store the choice here without a reload. A visitor who has chosen
 * never sees it: consentCheckScript hides it before the page is painted.
 */
export function CookieBanner({ returnTo = "/" }: { returnTo?: string }) {
  const [open, setOpen] = useState(true);
  const id = useId();

  useEffect(() => {
    const stored = readConsent(document.cookie);
    setOpen(stored === null);
    if (stored === null) document.documentElement.removeAttribute(consentMarker);
    // Renew the choice on each visit until its 2 years are up (browsers cap cookies at 400 days).
    if (stored) for (const c of consentCookies(stored, { secure: secure() })) writeCookie(c);
  }, []);

  if (!open) return null;
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const consent = parseConsent(submitter?.getAttribute("value"));
    if (!consent) return;
    event.preventDefault();
    saveConsent(consent);
    setOpen(false);
  };
  const button =
    "rounded-lg px-3 py-2 text-sm font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2";
  return (
    <section
      id="cookie-banner"
      aria-labelledby={`${id}-title`}
      className="relative z-50 border-b border-slate-200 bg-white print:hidden"
    >
      <form
        method="post"
        action="/cookie-consent"
        onSubmit={submit}
        className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-3 lg:flex-row lg:items-start lg:gap-6"
      >
        <input type="hidden" name="returnTo" value={returnTo} />
        <div className="min-w-0 flex-1 pr-10 text-sm text-slate-700 lg:pr-0">
          <h2 id={`${id}-title`} className="inline font-semibold text-slate-900">
            We use cookies
          </h2>
          . Essential cookies keep the site working. With your permission we also use analytical,
          functional and marketing cookies. See our{" "}
          <a href="/privacy-policy" className="text-indigo-700 underline">
            Privacy Policy
          </a>
          .
          <details className="mt-1">
            <summary className="cursor-pointer rounded font-medium text-indigo-700 underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
              Cookie details
            </summary>
            <dl className="mt-2 grid gap-2 sm:grid-cols-2">
              {cookieTypes.map((t) => (
                <div key={t.name} className="rounded-lg bg-slate-50 p-3">
                  <dt className="font-semibold text-slate-900">{t.name} cookies</dt>
                  <dd className="mt-0.5 text-slate-600">{t.text}</dd>
                </div>
              ))}
            </dl>
          </details>
        </div>
        <div className="grid shrink-0 grid-cols-3 gap-2 lg:mr-10 lg:flex">
          {choices.map((c) => (
            <button
              key={c.consent}
              type="submit"
              name="consent"
              value={c.consent}
              className={`${button} ${
                c.primary
                  ? "bg-indigo-600 text-white hover:bg-indigo-700"
                  : "border border-slate-300 text-slate-800 hover:bg-slate-50"
              }`}
            >
              {c.label}
            </button>
          ))}
        </div>
        <button
          type="submit"
          name="consent"
          value="essential"
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
      </form>
    </section>
  );
}
