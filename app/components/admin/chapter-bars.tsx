import type { CourseFigures } from "~/server/admin/learning.server";
import { Cell, DataTable } from "./console";
import { DraftBadge } from "./draft-badge";

const share = (count: number, of: number) => (of > 0 ? Math.min(100, (count / of) * 100) : 0);

/**
 * A course's chapters in reading order: how many opened each and how many
 * marked it done, as numbers and as bars measured against who started the
 * course, so the chapter where the bars drop is where students stop.
 */
export function ChapterBars({ course }: { course: CourseFigures }) {
  const base = Math.max(course.started, ...course.chapters.map((c) => c.opened));
  return (
    <>
      <p className="mt-3 flex flex-wrap gap-4 text-sm text-slate-700" aria-hidden="true">
        <span className="flex items-center gap-1.5">
          <span className="inline-block h-3 w-3 rounded-sm bg-indigo-300" /> Opened
        </span>
        <span className="flex items-center gap-1.5">
          <span className="inline-block h-3 w-3 rounded-sm bg-emerald-600" /> Done
        </span>
      </p>
      <DataTable
        caption={`Chapters of ${course.title}`}
        head={["#", "Chapter", "Opened", "Done", "Of those who started"]}
      >
        {course.chapters.map((c, i) => (
          <tr key={c.id} data-testid="learning-chapter">
            <Cell>{i + 1}</Cell>
            <Cell wrap>
              {c.title}
              {c.published ? null : (
                <>
                  {" "}
                  <DraftBadge />
                </>
              )}
            </Cell>
            <Cell>{c.opened.toLocaleString("en-US")}</Cell>
            <Cell>{c.done.toLocaleString("en-US")}</Cell>
            <td className="relative w-1/2 min-w-40 px-3 py-2 align-middle">
              <div aria-hidden="true" className="space-y-1">
                <div className="h-2.5 rounded-sm bg-slate-100">
                  <div
                    className="h-2.5 rounded-sm bg-indigo-300"
                    style={{ width: `${share(c.opened, base)}%` }}
                  />
                </div>
                <div className="h-2.5 rounded-sm bg-slate-100">
                  <div
                    className="h-2.5 rounded-sm bg-emerald-600"
                    style={{ width: `${share(c.done, base)}%` }}
                  />
                </div>
              </div>
              <span className="sr-only">
                {Math.round(share(c.opened, base))}% opened, {Math.round(share(c.done, base))}% done
              </span>
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
