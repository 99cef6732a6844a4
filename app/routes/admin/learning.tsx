import { Form, useNavigation } from "react-router";
import { ChapterBars } from "~/components/admin/chapter-bars";
import {
  Cell,
  ConsoleHeading,
  DataTable,
  EmptyState,
  formatWhen,
  secondaryButton,
} from "~/components/admin/console";
import { learningQuerySchema } from "~/lib/admin-forms";
import { consoleLoader } from "~/server/admin/console.server";
import { recentLearningReport } from "~/server/admin/learning.server";
import type { Route } from "./+types/learning";

export const loader = consoleLoader(learningQuerySchema, (db, query) =>
  recentLearningReport(db, { fresh: query.fresh }),
);

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

export default function Learning({ loaderData }: Route.ComponentProps) {
  const { courses, at } = loaderData;
  const loading = useNavigation().state === "loading";
  return (
    <main aria-busy={loading}>
      <ConsoleHeading
        title="Learning"
        actions={
          <Form method="get">
            <input type="hidden" name="fresh" value="1" />
            <button type="submit" className={secondaryButton} disabled={loading}>
              {loading ? "Counting…" : "Count again now"}
            </button>
          </Form>
        }
      >
        Where students stop: for each course, who started and who finished it; for each chapter, how
        many members opened it and how many marked it done.
      </ConsoleHeading>
      <p className="mt-4 max-w-3xl text-sm text-slate-600">
        A member has opened a chapter once they showed it in the course page or marked it done;
        started a course once they opened any of its chapters; finished it when every published
        chapter it has now is marked done (a Draft chapter counts for nothing). Admins' previews are
        not counted. The completion rate is finished divided by started. Counted at{" "}
        <span data-testid="learning-counted-at">{formatWhen(new Date(at))}</span>, again at most
        once a minute.
      </p>
      {courses.length === 0 ? (
        <EmptyState>No courses yet.</EmptyState>
      ) : (
        <>
          <DataTable
            caption="Courses"
            head={["Course", "Chapters", "Started", "Finished", "Completion rate"]}
          >
            {courses.map((c) => (
              <tr key={c.id}>
                <Cell wrap>
                  <a
                    href={`#course-${c.id}`}
                    className="font-medium text-indigo-700 hover:underline"
                  >
                    {c.title}
                  </a>
                </Cell>
                <Cell>
                  {c.chapters.filter((ch) => ch.published).length.toLocaleString("en-US")}
                  {c.chapters.some((ch) => !ch.published)
                    ? ` (and ${c.chapters.filter((ch) => !ch.published).length} draft)`
                    : ""}
                </Cell>
                <Cell>{c.started.toLocaleString("en-US")}</Cell>
                <Cell>{c.finished.toLocaleString("en-US")}</Cell>
                <Cell>{percent(c.completionRate)}</Cell>
              </tr>
            ))}
          </DataTable>
          {courses.map((c) => (
            <section
              key={c.id}
              id={`course-${c.id}`}
              aria-labelledby={`course-${c.id}-title`}
              className="mt-10"
            >
              <h2 id={`course-${c.id}-title`} className="text-xl font-semibold">
                {c.title}
              </h2>
              <p className="mt-1 text-sm text-slate-600">
                {c.started.toLocaleString("en-US")} started, {c.finished.toLocaleString("en-US")}{" "}
                finished ({percent(c.completionRate)}).
              </p>
              {c.chapters.length === 0 ? (
                <EmptyState>This course has no chapters yet.</EmptyState>
              ) : (
                <ChapterBars course={c} />
              )}
            </section>
          ))}
        </>
      )}
    </main>
  );
}
