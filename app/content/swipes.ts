import { affiliateLaunch, formatUsd, salesFunnel } from "~/config/site";
import type { OfferSettings } from "~/lib/offer";

/**
 * E-mail swipes for affiliates (/demo-swipes). Bodies hold two placeholders the
 * page fills before copying: the recipient's name and the affiliate's link.
 */
export type Swipe = { id: string; subject: string; body: string };

export const NAME_PLACEHOLDER = "[NAME]";
export const LINK_PLACEHOLDER = "[AFFILIATE_LINK]";

/** The offer settings the swipes quote: the marketplace price and the struck price. */
export type SwipePrices = Pick<OfferSettings, "offer2PriceCents" | "planRegularPriceCents">;

const days = salesFunnel.guaranteeDays;
const N = NAME_PLACEHOLDER;
const L = LINK_PLACEHOLDER;

/** The short and the long swipes, quoting the offer's prices. */
export function swipesFor(offer: SwipePrices): {
  short: readonly Swipe[];
  long: readonly Swipe[];
} {
  const price = formatUsd(offer.offer2PriceCents);
  const regular = formatUsd(offer.planRegularPriceCents);
  return { short: shortSwipes(price, regular), long: longSwipes(price, regular) };
}

const shortSwipes = (price: string, regular: string): readonly Swipe[] => [
  {
    id: "short-1",
    subject: "Build an AI app from one sentence?",
    body: `Hi ${N},

What if you could describe an app in one sentence and have a working AI product by the end of the week?

That is what AI Labs teaches: prompt-to-app building, payments and a 7-day launch plan. No coding.

Lifetime access is ${price} during the launch:
${L}

Talk soon`,
  },
  {
    id: "short-2",
    subject: `${price} for lifetime access (not a typo)`,
    body: `${N},

AI Labs normally lists at ${regular}. This week it is ${price}, once, for lifetime access: the full AI SaaS course, a ready-made boilerplate, the idea generator and every future update.

See what is inside:
${L}

If it is not for you, there is a ${days}-day money-back guarantee.`,
  },
  {
    id: "short-3",
    subject: "No code, no developers, a real SaaS",
    body: `Hey ${N},

Most people with a good app idea never build it: learning to code takes a year and developers cost five figures.

AI Labs shows you how to go from a written prompt to a live AI app that takes payments, in 7 days.

Get in at the launch price here:
${L}`,
  },
  {
    id: "short-4",
    subject: "Last call: the AI Labs launch price ends soon",
    body: `${N}, quick reminder.

The launch price for AI Labs (${price} for lifetime access) ends when the timer on the page runs out.

After that it goes up, and the launch bonuses go with it.

Grab it while it is live:
${L}`,
  },
];

const longSwipes = (price: string, regular: string): readonly Swipe[] => [
  {
    id: "long-1",
    subject: "The app idea in your notes app",
    body: `Hi ${N},

Be honest: there is an app idea sitting in your notes right now. Maybe more than one.

It never got built for the usual reasons. Learning to code takes a year. A developer wants five figures and still might not deliver. So the idea waits, and someone else ships it.

That changed when AI learned to write working code from plain English. Today the hard part is not the building. It is knowing what to build, how to connect it to AI, how to charge for it and how to find the first paying users.

That is exactly what AI Labs covers, step by step:

- The 7-day launch formula, from blank page to live app
- Prompt-to-app building: the prompt that turns a description into software
- GPT API integration without leaking your keys or your budget
- Payments from day one, so the app earns from its first user
- The free-to-paid funnel behind a 23% conversion rate

You also get a complete SaaS boilerplate to rename and launch, a business idea generator and a 30-day launch plan.

It is ${price} for lifetime access during the launch, with a ${days}-day money-back guarantee:
${L}

Your idea has waited long enough.

Talk soon`,
  },
  {
    id: "long-2",
    subject: "What one written prompt can build now",
    body: `${N},

Last week I watched someone type one paragraph describing a habit-tracking app and get back a working application: sign-up, a dashboard, a database and an AI feature that writes weekly summaries.

No code written by hand. The whole thing took an afternoon.

The trick is not the AI tool. It is the prompt, the structure around it and knowing what to do after the app exists: pricing, payments and launch. That is the part most people miss, and it is what AI Labs teaches.

Inside you get:

- The prompt-to-app method, with examples you can copy
- How to plug in AI models safely and keep costs predictable
- Checkout and subscriptions from the first day
- A launch strategy that does not need an ad budget
- A private community of people building at the same time

See the demo and the full curriculum here:
${L}

Launch price: ${price}, one payment, lifetime access.

Cheers`,
  },
  {
    id: "long-3",
    subject: "Why AI SaaS beats another info product",
    body: `Hi ${N},

Courses, e-books and templates sell once. Software sells every month.

That is the whole appeal of a software-as-a-service business: one app, many subscribers, recurring revenue. The catch used to be the building. Not any more.

AI Labs is a course and toolkit for building AI SaaS apps without coding. It walks you through:

1. Finding an idea people will pay for (there is a generator for that)
2. Building it from a written prompt
3. Connecting it to AI models
4. Adding payments and subscriptions
5. Launching it in 7 days and converting free users to paid

You also get a working boilerplate (accounts, front end, back end, database schema) so you are never starting from zero.

Right now it is ${price} instead of ${regular}, for lifetime access:
${L}

Try it for ${days} days. If it is not for you, ask for a refund.

To your first subscribers`,
  },
  {
    id: "long-4",
    subject: `Inside AI Labs (and the 4 bonuses worth more than the price)`,
    body: `${N},

Here is exactly what you get with AI Labs today:

THE COURSE
The complete path from idea to income: the 7-day launch formula, prompt-to-app building, GPT API integration, payments, the 23% conversion playbook and a launch strategy.

BONUS 1: Todo List SaaS Boilerplate (${formatUsd(salesFunnel.bonusValuesCents.boilerplate)} value)
A complete, working SaaS starter to rename and launch.

BONUS 2: 30-Day Launch Plan (${formatUsd(salesFunnel.bonusValuesCents.launchPlan)} value)
What to do every day for your first month after launch.

BONUS 3: AI Prompt Engineering Vault (${formatUsd(salesFunnel.bonusValuesCents.promptVault)} value)
Tested prompts for copy, product, design and documentation.

BONUS 4: Private Builders Community (${formatUsd(salesFunnel.bonusValuesCents.communityPerYear)}/year value)
Feedback on your app and launch support from people building too.

All of it for ${price}, once, with lifetime updates:
${L}

Covered by a ${days}-day money-back guarantee.`,
  },
  {
    id: "long-5",
    subject: '"I can\'t code" is no longer a reason',
    body: `Hi ${N},

I hear it all the time: "I'd love to build an app, but I can't code."

Two years ago that was a fair reason. Today it is not. AI writes working code from plain English, and the people getting results are not programmers. They are people who know a problem well and learned how to describe the solution.

AI Labs teaches exactly that skill, plus everything around it:

- How to describe an app so AI builds it properly
- How to add AI features your users will pay for
- How to take payments and offer a free plan that converts
- How to launch in a week instead of a year

Members get lifetime access to the training, the idea generator, an app builder page with example prompts and a complete boilerplate.

It is ${price} during the launch:
${L}

If you have ever said "I can't code", this is for you.

Speak soon`,
  },
  {
    id: "long-6",
    subject: "A 7-day plan to your first AI app",
    body: `${N},

Here is what a week looks like with AI Labs:

Day 1: Pick an idea with the business idea generator and check people will pay for it.
Day 2: Write your app prompt using the course's structure.
Day 3: Build the first version from that prompt.
Day 4: Connect the AI features and test them.
Day 5: Add payments and a free plan.
Day 6: Prepare your launch with the marketing toolkit.
Day 7: Go live and invite your first users.

Then the 30-day launch plan takes over for the month after.

Every step has a lesson, an example and a template. You never wonder what to do next.

Start your 7 days here (${price}, lifetime access):
${L}

See you on day 7`,
  },
  {
    id: "long-7",
    subject: "Closing tonight: the AI Labs launch price",
    body: `Hi ${N},

Quick heads-up before it goes: the AI Labs launch price ends soon.

Right now you get lifetime access for ${price}: the full AI SaaS course, the boilerplate, the idea generator, the prompt vault, the 30-day launch plan and the private community, plus every future update.

When the timer runs out, the price goes back up and the launch bonuses are gone.

If you have been on the fence, remember:

- No coding needed: you build from written prompts
- One payment, no subscription
- ${days}-day money-back guarantee, no questions asked

Get in before the deadline:
${L}

This is the last e-mail I will send about it.

Thanks for reading`,
  },
];

export type SwipeValues = { name: string; link: string };

/** The affiliate's link until they paste their own. */
export const defaultSwipeValues: SwipeValues = {
  name: "{first_name}",
  link: affiliateLaunch.affiliateLinkTemplate,
};

/** Subject and body with the placeholders replaced; an empty value keeps its placeholder. */
export function fillSwipe(swipe: Swipe, values: SwipeValues): string {
  const name = values.name.trim() || NAME_PLACEHOLDER;
  const link = values.link.trim() || LINK_PLACEHOLDER;
  const fill = (text: string) =>
    text.replaceAll(NAME_PLACEHOLDER, () => name).replaceAll(LINK_PLACEHOLDER, () => link);
  return `Subject: ${fill(swipe.subject)}\n\n${fill(swipe.body)}`;
}

export const tabIds = ["demo", "short-emails", "long-emails", "banners"] as const;
export type TabId = (typeof tabIds)[number];

/** The /demo-swipes tab a `?tab=` value names; `emails` means the short ones; else the demo. */
export function tabFromQuery(value: string | null): TabId {
  if (value === "emails") return "short-emails";
  return tabIds.find((id) => id === value) ?? "demo";
}
