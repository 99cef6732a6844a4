import { useState } from "react";
import { Form, Link, NavLink } from "react-router";
import { site } from "~/config/site";
import { clearBrowserStorage } from "./logout";

type HeaderUser = { isAdmin: boolean; isMember: boolean } | null;

const memberLinks = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/app-builder", label: "App Builder" },
  { to: "/app-idea-generator", label: "Idea Generator" },
  { to: "/bonuses", label: "Bonuses" },
  { to: "/upgrades", label: "Upgrades" },
  { to: "/account", label: "Account" },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${
    isActive ? "bg-indigo-50 text-indigo-700" : "text-slate-700 hover:bg-slate-100"
  }`;

/**
 * The top navigation (docs/product.md, Navigation); the same links on desktop and mobile.
 * `offerLogin` false: the sign-in page, where a Login button would lead to itself.
 */
export function SiteHeader({
  user,
  offerLogin = true,
}: {
  user: HeaderUser;
  offerLogin?: boolean;
}) {
  const [open, setOpen] = useState(false);
  // A signed-in user without paid access could only bounce off the member pages: Logout only.
  const links = user?.isMember
    ? [...memberLinks, ...(user.isAdmin ? [{ to: "/admin", label: "Admin Panel" }] : [])]
    : [];
  return (
    <header className="sticky top-0 z-40 border-b print:hidden border-slate-200 bg-white/95 backdrop-blur">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4"
      >
        <Link to={user ? "/dashboard" : "/"} className="text-lg font-bold text-indigo-700">
          {site.brand}
        </Link>
        {user && links.length === 0 ? (
          <LogoutButton />
        ) : user ? (
          <>
            <div className="hidden items-center gap-1 md:flex">
              {links.map((l) => (
                <NavLink key={l.to} to={l.to} className={linkClass} prefetch="intent">
                  {l.label}
                </NavLink>
              ))}
              <LogoutButton className="ml-2" />
            </div>
            <button
              type="button"
              className="rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden"
              aria-expanded={open}
              aria-controls="mobile-menu"
              onClick={() => setOpen((v) => !v)}
            >
              <span className="sr-only">{open ? "Close menu" : "Open menu"}</span>
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="h-6 w-6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 6h16M4 12h16M4 18h16" />}
              </svg>
            </button>
          </>
        ) : offerLogin ? (
          <Link
            to="/login"
            className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700"
          >
            Login
          </Link>
        ) : null}
      </nav>
      {links.length > 0 && open ? (
        <div id="mobile-menu" className="border-t border-slate-200 px-4 py-2 md:hidden">
          {links.map((l) => (
            <NavLink
              key={l.to}
              to={l.to}
              className={(s) => `block ${linkClass(s)}`}
              onClick={() => setOpen(false)}
            >
              {l.label}
            </NavLink>
          ))}
          <LogoutButton className="mt-1 w-full text-left" />
        </div>
      ) : null}
    </header>
  );
}

export function LogoutButton({ className = "" }: { className?: string }) {
  return (
    <Form method="post" action="/logout" reloadDocument onSubmit={clearBrowserStorage}>
      <button
        type="submit"
        className={`rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 ${className}`}
      >
        Logout
      </button>
    </Form>
  );
}
