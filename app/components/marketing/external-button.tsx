import type { ReactNode } from "react";

const styles = {
  buy: "bg-amber-400 text-slate-950 hover:bg-amber-300 focus-visible:ring-amber-500 shadow-lg shadow-amber-500/20",
  primary: "bg-indigo-600 text-white hover:bg-indigo-700 focus-visible:ring-indigo-500",
} as const;

/**
 * A call-to-action link to the marketplace checkout. `newTab` opens it in a
 * new tab with rel="noopener noreferrer" (the checkout must not reach back
 * into this page).
 */
export function CheckoutLink({
  href,
  children,
  newTab = false,
  variant = "buy",
  className = "",
}: {
  href: string;
  children: ReactNode;
  newTab?: boolean;
  variant?: keyof typeof styles;
  className?: string;
}) {
  return (
    <a
      href={href}
      {...(newTab ? { target: "_blank", rel: "noopener noreferrer" } : {})}
      className={`inline-flex items-center justify-center gap-2 rounded-xl px-6 py-4 text-center text-lg font-extrabold focus:outline-none focus-visible:ring-4 focus-visible:ring-offset-2 ${styles[variant]} ${className}`}
    >
      {children}
      {newTab ? <span className="sr-only"> (opens in a new tab)</span> : null}
    </a>
  );
}
