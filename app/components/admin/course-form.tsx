import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { FormActions } from "./form-actions";

/** Creates a course (course null) or edits its title and description. */
export function CourseForm({
  course,
}: {
  course: { id: string; title: string; description: string } | null;
}) {
  const [title, setTitle] = useState(course?.title ?? "");
  const busy = useNavigation().state === "submitting";
  const prefix = course ? `edit-${course.id}` : "new";
  return (
    <Form
      method="post"
      className="mt-6 space-y-4 rounded-lg border border-indigo-200 bg-indigo-50/40 p-4"
    >
      <h2 className="font-semibold">{course ? "Edit course" : "New course"}</h2>
      <input type="hidden" name="intent" value={course ? "update-course" : "create-course"} />
      {course ? <input type="hidden" name="courseId" value={course.id} /> : null}
      <div>
        <label htmlFor={`${prefix}-title`} className="block text-sm font-medium text-slate-700">
          Course title
        </label>
        <input
          id={`${prefix}-title`}
          name="title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          required
          maxLength={200}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
        />
      </div>
      <div>
        <label
          htmlFor={`${prefix}-description`}
          className="block text-sm font-medium text-slate-700"
        >
          Description
        </label>
        <textarea
          id={`${prefix}-description`}
          name="description"
          defaultValue={course?.description ?? ""}
          rows={3}
          maxLength={5000}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
        />
      </div>
      <FormActions
        busy={busy}
        canSave={title.trim() !== ""}
        saveLabel="Save course"
        cancelTo={course ? `/admin?course=${course.id}` : "/admin"}
      />
    </Form>
  );
}
