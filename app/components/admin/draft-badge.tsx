/** Marks a course or chapter members do not see. */
export function DraftBadge() {
  return (
    <span className="rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900">
      Draft
    </span>
  );
}
