import islandsEntryUrl from "virtual:islands-entry";
import { useState } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { CookieBanner, consentCheckScript } from "./components/cookie-banner";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { TwoFactorPrompt } from "./components/two-factor-prompt";
import { Island } from "./islands/island";
import { busyTryAgain, serverBusy } from "./lib/busy";
import { isFreshAnswer } from "./lib/fresh-answer";
import { useNonce } from "./lib/nonce";
import { getSessionUser, isMember } from "./server/auth/guards.server";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) return { user: null };
  return {
    // Nothing that names the member: a member page shows the same to all with the same
    // progress, and is rendered once for them all (decision 057).
    user: {
      isAdmin: user.isAdmin,
      isMember: await isMember(request),
      twoFactorEnabled: user.twoFactorEnabled,
    },
  };
}

export function shouldRevalidate({
  formMethod,
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // The signed-in user changes only through a form (login, sign-up, logout, checkout),
  // never through one answered with its page's fresh data (a chapter's mark).
  if (isFreshAnswer(actionResult)) return false;
  return formMethod ? defaultShouldRevalidate : false;
}

/**
 * A route's handle: `ownFooter` for pages with their own footer (the sales pages);
 * `hydrate: "islands"` for public pages whose visitors get the HTML plus only their
 * interactive parts (app/islands), not React Router's client. Signed-in users
 * always get the full client (their header has a menu and a logout form).
 * `signInPage`: the sign-in page itself, whose header offers no Login button.
 */
export type RouteHandle = { ownFooter?: boolean; hydrate?: "islands"; signInPage?: boolean };

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const handles = useMatches().map((m) => (m.handle ?? {}) as RouteHandle);
  const ownFooter = handles.some((h) => h.ownFooter);
  // Not under `npm run dev`: its hot reloading needs React Router's client on every page.
  // Decided for the document as it was served: a later client-side navigation to an
  // islands page keeps the client it already runs.
  const [islandsOnly] = useState(
    () => !import.meta.env.DEV && !data?.user && handles.some((h) => h.hydrate === "islands"),
  );
  const nonce = useNonce();
  const location = useLocation();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <Meta />
        <Links />
        <script
          nonce={nonce}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, no user input
          dangerouslySetInnerHTML={{ __html: consentCheckScript }}
        />
      </head>
      <body className="flex min-h-screen flex-col bg-slate-50 font-sans text-slate-900 antialiased">
        <Island
          name="cookie-banner"
          component={CookieBanner}
          props={{ returnTo: `${location.pathname}${location.search}` }}
        />
        <SiteHeader user={data?.user ?? null} offerLogin={!handles.some((h) => h.signInPage)} />
        {data?.user?.isAdmin && !data.user.twoFactorEnabled ? <TwoFactorPrompt /> : null}
        <div className="flex-1">{children}</div>
        {ownFooter ? null : <SiteFooter />}
        {islandsOnly ? (
          <script type="module" src={islandsEntryUrl} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let title = "Something went wrong";
  let detail = "Please try again in a moment.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "Page not found";
      detail = "The page you asked for does not exist.";
    } else if (error.status === 403) {
      title = "Not allowed";
      detail = "You do not have access to this page.";
    } else if (error.status === 503) {
      // Turned away past the server's capacity (decision 030): the same address works again soon.
      title = busyTryAgain;
      detail = serverBusy;
    } else if (error.status === 400 || error.status === 415) {
      // A refusal's own message, e.g. readForm's for a body that is not a form.
      title = "Bad request";
      detail = typeof error.data === "string" ? error.data : detail;
    }
  }
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-3 text-slate-600">{detail}</p>
      <a href="/" className="mt-6 inline-block text-indigo-700 underline">
        Back to home
      </a>
    </main>
  );
}
