import { NavLink } from "react-router";

export const adminSections = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/courses", label: "Courses", end: false },
  { to: "/admin/members", label: "Members", end: false },
  { to: "/admin/sales", label: "Sales", end: false },
  { to: "/admin/learning", label: "Learning", end: false },
  { to: "/admin/funnel", label: "Funnel", end: false },
  { to: "/admin/email", label: "E-mail", end: false },
  { to: "/admin/products", label: "Products", end: false },
  { to: "/admin/applications", label: "Builds", end: false },
  { to: "/admin/settings", label: "Settings", end: false },
  { to: "/admin/audit", label: "Audit log", end: false },
] as const;

/** The console's sections; scrolls sideways on a phone rather than wrapping. */
export function AdminNav() {
  return (
    <nav aria-label="Admin" className="-mx-4 overflow-x-auto border-b border-slate-200 px-4">
      <ul className="flex min-w-max gap-1 py-2">
        {adminSections.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              prefetch="intent"
              className={({ isActive }) =>
                `block rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${
                  isActive
                    ? "bg-indigo-50 text-indigo-700"
                    : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                }`
              }
            >
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
