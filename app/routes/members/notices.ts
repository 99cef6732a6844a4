/**
 * The query a member page adds to /dashboard to have it say what went wrong
 * (a link to a course that does not exist, or no longer does).
 */
export const courseNotFoundQuery = "notice=course-not-found";

/** The message the dashboard shows for its `notice` query parameter, if any. */
export function dashboardNotice(search: URLSearchParams): string | null {
  return search.get("notice") === "course-not-found" ? "Course not found" : null;
}
