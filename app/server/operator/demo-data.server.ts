// `npm run cli -- demo data --throwaway [MEMBERS [PURCHASES]]`: fills a
// throw-away database with made-up members, purchases, progress, chapter
// openings, page views and audit entries, to see and measure the owner's
// console at scale (npm run bench does). Each kind is one INSERT … SELECT
// over generate_series, so 20,000 members and 50,000 purchases take seconds.
// The members have no password (nobody can sign in as them); their e-mail
// addresses end in @demo.invalid, a domain that can never receive mail.

import { sql } from "drizzle-orm";
import type { Db } from "../db/client.server";

export const demoDefaults = { members: 20_000, purchases: 50_000 };
export const demoLimits = { members: 1_000_000, purchases: 5_000_000 };

export type DemoCounts = { members: number; purchases: number };

/**
 * Adds the demo rows. Runs again without failing: members and purchases
 * already there (by id and reference) are left as they are.
 */
export async function makeDemoData(db: Db, counts: DemoCounts): Promise<DemoCounts> {
  const { members, purchases } = counts;
  // Members joined over the last year; one in 40 has two-factor on.
  const users = await db.execute(sql`
    insert into "user" (id, name, email, email_verified, two_factor_enabled, created_at, updated_at)
    select 'demo-' || g, 'Demo Member ' || g, 'demo-' || g || '@demo.invalid', true, g % 40 = 0,
      now() - (g % 365) * interval '1 day' - (g % 1440) * interval '1 minute', now()
    from generate_series(1, ${members}::int) g
    on conflict do nothing`);
  // The first `members` purchases are the plan (one per member); the rest are
  // add-ons of the funnel, each bought after its buyer's plan. One member in 10
  // signed up and never paid; one in 50 was given the plan by hand (a $0
  // manual grant). Providers rotate, and one in 11 of the paid ones is refunded
  // a while later (on every provider). Nothing is dated after now: a plan is
  // bought within three days of joining, or halfway from joining to now if
  // that is sooner; an add-on within the hour after its plan, or halfway to
  // now; a refund within a week, or halfway to now.
  const bought = await db.execute(sql`
    insert into purchase (user_id, provider, provider_ref, product, amount_cents, currency, status, created_at, refunded_at)
    select 'demo-' || m, p.provider, 'demo-' || g, p.product, p.amount, 'usd',
      case when p.refunded then 'refunded' else 'completed' end,
      b.at,
      case when p.refunded then least(b.at + (g % 7 + 1) * interval '1 day', b.at + (now() - b.at) / 2) end
    from generate_series(1, ${purchases}::int) g
    cross join lateral (select 1 + (g - 1) % ${members}::int as m) pick
    cross join lateral (
      select now() - (m % 365) * interval '1 day' - (m % 1440) * interval '1 minute' as joined
    ) t
    cross join lateral (
      select least(joined + (m % 72) * interval '1 hour', joined + (now() - joined) / 2) as planned
    ) plan
    cross join lateral (
      select case when g <= ${members}::int then planned
        else least(planned + (g % 60 + 1) * interval '1 minute', planned + (now() - planned) / 2) end as at
    ) b
    cross join lateral (
      select g <= ${members}::int and m % 50 = 1 as manual
    ) hand
    cross join lateral (
      select case when hand.manual then 'manual'
          else (array['stripe', 'warriorplus', 'test'])[1 + g % 3] end as provider,
        case when g <= ${members}::int then 'lifetime-access'
          else (array['bump-vip', 'white-label', 'custom-saas'])[1 + (g / 3) % 3] end as product,
        case when hand.manual then 0
          when g <= ${members}::int then (array[2500, 1700, 2500])[1 + g % 3]
          else (array[495, 3700, 99700])[1 + (g / 3) % 3] end as amount,
        not hand.manual and g % 11 = 0 as refunded
    ) p
    where m % 10 <> 0 and exists (select 1 from "user" u where u.id = 'demo-' || m)
    on conflict do nothing`);
  // Paying member n opened the first n % 8 + 1 chapters of every course (by sort
  // order), a day apart from joining but not after now, and finished all but the
  // last of them: each table gets the chapters below its bound.
  for (const [table, column, extra] of [
    ["chapter_progress", "completed_at", 0],
    ["chapter_view", "first_at", 1],
  ] as const) {
    await db.execute(sql`
      insert into ${sql.identifier(table)} (user_id, chapter_id, course_id, ${sql.identifier(column)})
      select u.id, c.id, c.course_id, least(u.created_at + c.sort_order * interval '1 day', now())
      from "user" u
      join lateral (select substr(u.id, 6)::int as n) k on true
      join chapter c on c.sort_order < k.n % 8 + ${extra}::int
      where u.id like 'demo-%' and k.n % 10 <> 0
      on conflict do nothing`);
  }
  // A year of page views on the funnel's pages, and some audit entries.
  await db.execute(sql`
    insert into page_view (day, path, views)
    select current_date - d, p, 50 + (d * 7 + length(p) * 13) % 400
    from generate_series(0, 364) d
    cross join unnest(array['/', '/ailabs-offer', '/ailabs-offer2', '/white-label-upsell', '/custom-saas-upsell', '/payment-options', '/success']) p
    on conflict do nothing`);
  await db.execute(sql`
    insert into audit_log (actor, kind, target, at)
    select 'demo-admin@demo.invalid', (array['member.grant', 'member.revoke', 'course.update', 'settings.update'])[1 + g % 4],
      'demo-' || g || '@demo.invalid', now() - g * interval '7 minutes'
    from generate_series(1, ${Math.max(1, Math.floor(members / 10))}::int) g`);
  await db.execute(sql`analyze`);
  return { members: affected(users), purchases: affected(bought) };
}

/** How many rows a statement changed (PGlite and node-postgres say it differently). */
function affected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}
