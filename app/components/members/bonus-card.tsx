import type { Bonus } from "~/content/bonuses";

const actionButton =
  "inline-flex items-center rounded-md bg-indigo-600 px-4 py-2.5 font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2";

/** A bonus: its value, what it includes, and its download (or the Discord button). */
export function BonusCard({
  bonus,
  discordInviteUrl,
  onJoin,
}: {
  bonus: Bonus;
  discordInviteUrl: string | null;
  onJoin: () => void;
}) {
  return (
    <li className="flex flex-col rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex items-start justify-between gap-4">
        <h2 className="text-xl font-semibold text-slate-900">{bonus.title}</h2>
        <span className="shrink-0 rounded-full bg-emerald-50 px-3 py-1 text-sm font-semibold text-emerald-800">
          Value {bonus.value}
        </span>
      </div>
      <p className="mt-2 text-slate-600">{bonus.description}</p>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700">
        {bonus.includes.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <div className="mt-auto pt-5">
        {bonus.file ? (
          <a
            href={`/bonuses/download/${bonus.file}`}
            download={bonus.file}
            className={actionButton}
          >
            {bonus.action}
          </a>
        ) : (
          <button type="button" onClick={onJoin} className={actionButton}>
            {discordInviteUrl ? "Join Discord" : bonus.action}
          </button>
        )}
      </div>
    </li>
  );
}
