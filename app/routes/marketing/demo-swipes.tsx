import { Link } from "react-router";
import { PageShell } from "~/components/ui";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/demo-swipes";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Promotional Resources: Demo, Swipes and Banners | AI Labs",
    description:
      "Everything to promote AI Labs: the demo video, short and long e-mail swipes with your affiliate link filled in, and four banner sizes to download.",
    path: "/demo-swipes",
  });

export default function DemoSwipes() {
  return (
    <PageShell title="Promotional Resources">
      <p className="text-slate-600">
        The demo video, e-mail swipes and banners for affiliates are on their way.
      </p>
      <Link to="/" className="mt-6 inline-block text-indigo-700 underline">
        Back to home
      </Link>
    </PageShell>
  );
}
