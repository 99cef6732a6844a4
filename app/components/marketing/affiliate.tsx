import { type ReactNode, useEffect, useRef, useState } from "react";
import { affiliateLaunch, formatUsd } from "~/config/site";
import { funnelFor } from "~/content/affiliate";
import { Island } from "~/islands/island";
import { contestLabel, launchInstant, launchLabel, winnersLabel } from "~/lib/offer";
import { LaunchCountdownClock } from "./launch-countdown";
import { useOffer } from "./use-offer";

/** The launch countdown at this page's offer settings, hydrated alone on an islands page. */
export function LaunchCountdown({ compact = false }: { compact?: boolean }) {
  const offer = useOffer();
  const props = {
    launchAt: launchInstant(offer.launchAt, offer.launchTimeZone),
    label: launchLabel(offer),
    compact,
  };
  return <Island name="launch-countdown" component={LaunchCountdownClock} props={props} />;
}

/** The commission table's column headings; amounts are right-aligned. */
const commissionColumns = [
  { label: "Stage", amount: false },
  { label: "Product", amount: false },
  { label: "Price", amount: true },
  { label: "Commission", amount: true },
  { label: "You earn", amount: true },
] as const;

/** The funnel at this page's offer settings: each item's price and commission, and the totals. */
export function useFunnel() {
  return funnelFor(useOffer());
}

type FunnelTotals = ReturnType<typeof useFunnel>;

/** The commission table, and under it a sentence naming the funnel's totals. */
export function FunnelBlock({
  summary,
  className,
}: {
  summary: (t: FunnelTotals) => ReactNode;
  className?: string;
}) {
  const t = useFunnel();
  return (
    <>
      <CommissionTableView />
      <p className={className}>{summary(t)}</p>
    </>
  );
}

/** The funnel with each item's price and commission, and the totals. */
export function CommissionTableView() {
  const t = useFunnel();
  return (
    // Scrolls sideways on a phone: focusable so a keyboard can scroll it too.
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
      tabIndex={0}
      aria-label="Funnel and commissions per sale"
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
    >
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">Funnel and commissions per sale</caption>
        <thead className="bg-slate-100 text-slate-700">
          <tr>
            {commissionColumns.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={column.amount ? "px-4 py-3 text-right" : "px-4 py-3"}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {t.rows.map((r) => (
            <tr key={r.key} className="border-t border-slate-200">
              <th scope="row" className="px-4 py-3 font-semibold text-slate-900">
                {r.stage}
              </th>
              <td className="px-4 py-3 text-slate-700">{r.name}</td>
              <td className="px-4 py-3 text-right tabular-nums">{formatUsd(r.amountCents)}</td>
              <td className="px-4 py-3 text-right">{r.commissionPercent}%</td>
              <td className="px-4 py-3 text-right font-semibold tabular-nums text-emerald-700">
                {formatUsd(r.commissionCents)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-slate-300 bg-slate-50 font-bold">
          <tr>
            <th scope="row" colSpan={2} className="px-4 py-3">
              Total funnel value
            </th>
            <td className="px-4 py-3 text-right tabular-nums" data-testid="funnel-total">
              {formatUsd(t.totalCents)}
            </td>
            <th scope="row" className="px-4 py-3 text-right">
              Max per sale
            </th>
            <td
              className="px-4 py-3 text-right tabular-nums text-emerald-700"
              data-testid="max-commission"
            >
              {formatUsd(t.maxCommissionCents)}
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

const placeLabels = ["1st place", "2nd place", "3rd place"];

/** Contest prizes and rules (docs/product.md, Launch and funnel). */
export function ContestBlock() {
  const { contest, fullBlast } = affiliateLaunch;
  const offer = useOffer();
  return (
    <div>
      <ul className="grid gap-4 sm:grid-cols-3">
        {contest.prizesCents.map((cents, i) => (
          <li
            key={placeLabels[i]}
            className="rounded-xl border border-amber-300 bg-amber-50 p-5 text-center"
          >
            <span className="block text-sm font-semibold uppercase tracking-wide text-amber-800">
              {placeLabels[i]}
            </span>
            <span className="mt-1 block text-3xl font-extrabold text-slate-900">
              {formatUsd(cents)}
            </span>
          </li>
        ))}
      </ul>
      <ul className="mt-6 list-disc space-y-2 pl-6 text-slate-700">
        <li>Ranked by revenue generated through your affiliate link during the launch.</li>
        <li>Solo affiliates only: no teams, no pooled links.</li>
        <li>
          Prizes are pro-rated: if your commissions earned are below the prize, the prize is paid up
          to the commissions you earned.
        </li>
        <li>Winners are announced on {winnersLabel(offer)}.</li>
        <li>
          Full blast: {fullBlast.hours} hours on {contestLabel(offer)} with{" "}
          {fullBlast.commissionPercent}% commission on the frontend plus the bump. Schedule your
          biggest mailing for it.
        </li>
      </ul>
    </div>
  );
}

/**
 * Copies text with navigator.clipboard, falling back to a hidden textarea and
 * execCommand; `copied` is true for 2 s after a copy. Failures are only logged.
 */
export function useCopy(): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  async function copy(text: string) {
    try {
      if (navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(text);
      } else {
        const area = document.createElement("textarea");
        area.value = text;
        area.setAttribute("readonly", "");
        area.style.position = "fixed";
        area.style.opacity = "0";
        document.body.appendChild(area);
        area.select();
        const ok = document.execCommand("copy");
        area.remove();
        if (!ok) throw new Error("execCommand copy failed");
      }
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch (error) {
      console.warn("Copy to clipboard failed", error);
    }
  }
  return { copied, copy };
}

/** A button that copies `text` and says Copied! for 2 s; `describedBy` names what it copies. */
export function CopyButton({
  text,
  label = "Copy",
  describedBy,
  className = "",
}: {
  text: string | (() => string);
  label?: string;
  describedBy?: string;
  className?: string;
}) {
  const { copied, copy } = useCopy();
  return (
    <button
      type="button"
      onClick={() => copy(typeof text === "function" ? text() : text)}
      aria-describedby={describedBy}
      className={`inline-flex items-center justify-center rounded-lg bg-indigo-600 px-4 py-2 text-sm font-bold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400 ${className}`}
    >
      <span aria-live="polite">{copied ? "Copied!" : label}</span>
    </button>
  );
}
