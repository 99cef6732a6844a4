/**
 * The queries a member page adds to /dashboard to have it say what went wrong
 * (a link to a course that does not exist, or no longer does; or to a course
 * of a product the member does not hold).
 */
export const courseNotFoundQuery = "notice=course-not-found";
export const courseLockedQuery = "notice=course-locked";

const notices: Readonly<Record<string, string>> = {
  "course-not-found": "Course not found",
  "course-locked": "That course comes with a product you do not hold yet.",
};

/** The message the dashboard shows for its `notice` query parameter, if any. */
export function dashboardNotice(search: URLSearchParams): string | null {
  const notice = search.get("notice");
  return notice !== null && Object.hasOwn(notices, notice) ? (notices[notice] ?? null) : null;
}
