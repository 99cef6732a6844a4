import { Outlet } from "react-router";
import { AdminNav, adminSections } from "~/components/admin/admin-nav";
import { requireAdmin } from "~/server/auth/guards.server";
import { getEnv, mailIsOff } from "~/server/env.server";
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
  return { mailOff: mailIsOff(getEnv()) };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 pb-16">
      <AdminNav />
      {loaderData.mailOff ? <MailOffNotice /> : null}
      <Outlet />
    </div>
  );
}

/** On every admin page while a real deployment (https) has no SMTP_URL. */
function MailOffNotice() {
  return (
    <div
      role="status"
      className="mt-4 mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <p className="font-semibold">E-mail is not being sent.</p>
      <p className="mt-1">
        SMTP_URL is not set, so password resets, receipts and marketplace logins are only written to
        the server&apos;s log. Set SMTP_URL (and SMTP_FROM) in the server&apos;s environment and
        restart it.
      </p>
    </div>
  );
}
