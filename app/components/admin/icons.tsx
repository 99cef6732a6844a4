import { Link } from "react-router";
import { LineIcon } from "~/components/marketing/feature-icon";
import { useHydrated } from "~/lib/use-hydrated";

const icons = {
  edit: "M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4",
  delete: "M5 7h14M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3",
  up: "M12 19V5M5 12l7-7 7 7",
  down: "M12 5v14M5 12l7 7 7-7",
  drag: "M9 5h.01M15 5h.01M9 12h.01M15 12h.01M9 19h.01M15 19h.01",
  preview: "M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
} as const;

export type IconName = keyof typeof icons;

export function Icon({ name }: { name: IconName }) {
  return <LineIcon d={icons[name]} className="h-5 w-5" />;
}

/** 44 px squares on a phone (a finger's size), 36 px from the small breakpoint up. */
export const iconClass =
  "inline-flex h-11 w-11 sm:h-9 sm:w-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:cursor-not-allowed disabled:opacity-30";

export function IconButton({
  label,
  icon,
  disabled,
}: {
  label: string;
  icon: IconName;
  disabled?: boolean;
}) {
  // Before hydration a delete form would post without its confirmation dialog.
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      aria-label={label}
      title={label}
      disabled={disabled || (icon === "delete" && !hydrated)}
      className={`${iconClass} ${icon === "delete" ? "hover:text-red-700" : ""}`}
    >
      <Icon name={icon} />
    </button>
  );
}

export function IconLink({ to, label, icon }: { to: string; label: string; icon: IconName }) {
  return (
    <Link to={to} aria-label={label} title={label} className={iconClass}>
      <Icon name={icon} />
    </Link>
  );
}
