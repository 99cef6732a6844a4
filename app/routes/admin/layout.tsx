import { Outlet } from "react-router";
import { AdminNav } from "~/components/admin/admin-nav";
import { requireAdmin } from "~/server/auth/guards.server";
import type { Route } from "./+types/layout";

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
