import { Link, useLocation } from "react-router";

/** Shown to admins on every signed-in page until they turn two-factor authentication on. */
export function TwoFactorPrompt() {
  if (useLocation().pathname === "/account") return null;
  return (
    <aside
      aria-label="Security"
      className="border-b border-amber-300 bg-amber-50 py-3 text-sm text-amber-900"
    >
      <p className="mx-auto max-w-6xl px-4">
        Admin accounts should use two-factor authentication.{" "}
        <Link to="/account" className="font-semibold underline">
          Turn on two-factor authentication
        </Link>
      </p>
    </aside>
  );
}
