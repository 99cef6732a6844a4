const paths = {
  tools: "M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h6v6h-6z",
  code: "M8 8l-4 4 4 4M16 8l4 4-4 4M14 5l-4 14",
  megaphone: "M3 10v4h4l6 4V6l-6 4H3zM17 9a4 4 0 010 6",
  video: "M4 6h11v12H4zM15 10l5-3v10l-5-3",
  card: "M3 6h18v12H3zM3 10h18M7 15h4",
  rocket:
    "M12 3c4 2 6 6 6 10l-3 3H9l-3-3c0-4 2-8 6-10zM12 9a1.5 1.5 0 100 3 1.5 1.5 0 000-3zM9 16l-2 5M15 16l2 5",
} as const;

export type FeatureIconName = keyof typeof paths;

/** A line icon drawn from one SVG path, in the text colour (decorative). */
export function LineIcon({
  d,
  className = "h-6 w-6",
  strokeWidth = "2",
}: {
  d: string;
  className?: string;
  strokeWidth?: string;
}) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={d} />
    </svg>
  );
}

/** A small line icon for a feature card (decorative). */
export function FeatureIcon({
  name,
  className = "h-6 w-6",
}: {
  name: FeatureIconName;
  className?: string;
}) {
  return <LineIcon d={paths[name]} className={className} />;
}
