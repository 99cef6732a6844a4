import { BonusCard } from "~/components/members/bonus-card";
import { PageShell } from "~/components/ui";
import { site } from "~/config/site";
import { memberBonuses } from "~/content/bonuses";
import { memberPageLoader } from "~/server/auth/guards.server";
import { currentOfferSettings } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/bonuses";

export const meta: Route.MetaFunction = () => [{ title: "Premium Bonuses | AI Labs" }];

// An offer setting (docs/decisions/012), DISCORD_INVITE_URL when none is stored.
export const loader = memberPageLoader(() => ({
  discordInviteUrl: currentOfferSettings().discordInviteUrl,
}));

export default function Bonuses({ loaderData }: Route.ComponentProps) {
  const { discordInviteUrl } = loaderData;

  function joinDiscord() {
    if (discordInviteUrl) window.open(discordInviteUrl, "_blank", "noopener,noreferrer");
    else alert("Discord invite link coming soon!");
  }

  return (
    <PageShell title="Premium Bonuses">
      <p className="max-w-2xl text-slate-600">
        Your bonuses as a course member. Trouble with a download? E-mail{" "}
        <a className="text-indigo-700 underline" href={`mailto:${site.supportEmail}`}>
          {site.supportEmail}
        </a>
        .
      </p>
      <ul className="mt-6 grid gap-6 md:grid-cols-2">
        {memberBonuses.map((bonus) => (
          <BonusCard
            key={bonus.title}
            bonus={bonus}
            discordInviteUrl={discordInviteUrl}
            onJoin={joinDiscord}
          />
        ))}
      </ul>
    </PageShell>
  );
}
