export type ChartBar = { label: string; value: number; title: string };

/**
 * Bars drawn on the server as inline SVG: no script, one image with its
 * summary in aria-label; the same figures are in a table beside it.
 */
export function BarChart({
  bars,
  label,
  height = 160,
}: {
  bars: readonly ChartBar[];
  label: string;
  height?: number;
}) {
  const width = 640;
  const gap = bars.length > 60 ? 0 : 2;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = width / Math.max(1, bars.length);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      className="block h-40 w-full"
    >
      <line x1={0} y1={height - 0.5} x2={width} y2={height - 0.5} className="stroke-slate-300" />
      {bars.map((bar, i) => {
        const h = bar.value > 0 ? Math.max(1, (bar.value / max) * (height - 4)) : 0;
        return (
          <rect
            key={bar.label}
            x={i * slot + gap / 2}
            y={height - h}
            width={Math.max(0.5, slot - gap)}
            height={h}
            className="fill-indigo-500"
          >
            <title>{bar.title}</title>
          </rect>
        );
      })}
    </svg>
  );
}
