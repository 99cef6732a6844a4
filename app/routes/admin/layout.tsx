import { Outlet } from "react-router";
import { AdminNav, adminSections } from "~/components/admin/admin-nav";
import { requireAdmin } from "~/server/auth/guards.server";
import type { Route } from "./+types/layout";

/** Each console page's title is its section's name; a page may set its own. */
export const meta: Route.MetaFunction = ({ location }) => {
  const section = adminSections.find(
    (s) => s.to !== "/admin" && location.pathname.startsWith(s.to),
  );
  return [{ title: `${section?.label ?? "Admin Panel"} | AI Labs` }];
};

/** The owner's console: every admin page under one navigation. Each page guards itself too. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export default function AdminLayout() {
  return (
    <div className="mx-auto max-w-6xl px-4 pb-16">
      <AdminNav />
      <Outlet />
    </div>
  );
}
