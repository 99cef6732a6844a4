import { Form, isRouteErrorResponse, Link, useLocation, useNavigation } from "react-router";
import { ErrorBox, TextField } from "~/components/ui";
import { isProofRequired, type ProofRequired } from "~/lib/proof";
import { secondaryButton } from "./console";

/**
 * "Confirm it's you": asks the admin for their password (or a code from their
 * authenticator app) before a sensitive change, when their last proof is over
 * ADMIN_PROOF_MINUTES old (requireRecentProof). The form posts the admin's change again
 * with the proof, to the same page, so nothing they entered is lost.
 */
export function ConfirmItsYou({ required }: { required: ProofRequired }) {
  const location = useLocation();
  const busy = useNavigation().state === "submitting";
  return (
    <main className="mx-auto max-w-md py-10">
      <section
        aria-labelledby="confirm-heading"
        className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
      >
        <h1 id="confirm-heading" className="text-2xl font-bold">
          Confirm it's you
        </h1>
        <p className="mt-2 text-slate-600">
          This change needs your password
          {required.twoFactor ? " or a code from your authenticator app" : ""} again. What you
          submitted is kept, and saved once you confirm.
        </p>
        <Form
          // A refused proof shows a new, empty form (focus back in the password field).
          key={required.error ?? "asked"}
          method="post"
          action={`${location.pathname}${location.search}`}
          className="mt-6 space-y-4"
        >
          {required.error ? <ErrorBox>{required.error}</ErrorBox> : null}
          {required.fields.map(([name, value], i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same name can come more than once, in order.
            <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
          ))}
          <TextField
            label="Password"
            name="confirmPassword"
            type="password"
            autoComplete="current-password"
            autoFocus
          />
          {required.twoFactor ? (
            <TextField
              label="Or a code from your authenticator app"
              name="confirmCode"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="\d{6}"
              maxLength={6}
            />
          ) : null}
          <div className="flex flex-wrap gap-2">
            <button
              type="submit"
              disabled={busy}
              className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 disabled:opacity-60"
            >
              {busy ? "Checking…" : "Confirm and save"}
            </button>
            <Link to={location.pathname} replace className={secondaryButton}>
              Cancel
            </Link>
          </div>
        </Form>
      </section>
    </main>
  );
}

/**
 * The error boundary of a console page with sensitive actions: "confirm it's
 * you" when requireRecentProof asked for it, otherwise what the root boundary says.
 */
export function AdminPageErrorBoundary({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && isProofRequired(error.data)) {
    return <ConfirmItsYou required={error.data} />;
  }
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="py-16 text-center">
      <h1 className="text-2xl font-bold">{notFound ? "Page not found" : "Something went wrong"}</h1>
      <p className="mt-3 text-slate-600">
        {notFound ? "The page you asked for does not exist." : "Please try again in a moment."}
      </p>
    </main>
  );
}
