import { useEffect, useId, useState } from "react";
import { Form, useNavigation } from "react-router";
import type { EditedCourse } from "~/lib/course-authoring";
import { coverAltRequired } from "~/lib/forms";
import { FormActions } from "./form-actions";
import { PublishedSwitch } from "./published-switch";
import { useUnsavedChangesGuard } from "./unsaved-changes";
import { imageTypes, uploadImage } from "./upload-image";

const field = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2";
const fieldLabel = "block text-sm font-medium text-slate-700";

/** Creates a course (course null) or edits it: title, description, Published, cover. */
export function CourseForm({ course }: { course: EditedCourse | null }) {
  const [title, setTitle] = useState(course?.title ?? "");
  const [description, setDescription] = useState(course?.description ?? "");
  const [published, setPublished] = useState(course?.published ?? true);
  const [cover, setCover] = useState(course?.coverImageUrl ?? "");
  const [coverAlt, setCoverAlt] = useState(course?.coverAlt ?? "");
  const [uploading, setUploading] = useState(false);
  const [coverError, setCoverError] = useState<string | null>(null);
  const navigationState = useNavigation().state;
  const busy = navigationState === "submitting";
  const ids = { title: useId(), description: useId(), cover: useId(), alt: useId(), hint: useId() };
  const dirty =
    title !== (course?.title ?? "") ||
    description !== (course?.description ?? "") ||
    published !== (course?.published ?? true) ||
    cover !== (course?.coverImageUrl ?? "") ||
    coverAlt !== (course?.coverAlt ?? "");
  const guard = useUnsavedChangesGuard(dirty);
  const { allowLeaving } = guard;
  // A save that came back to the form (refused or failed) leaves its edits guarded again.
  useEffect(() => {
    if (navigationState === "idle") allowLeaving(false);
  }, [navigationState, allowLeaving]);
  const altMissing = cover !== "" && coverAlt.trim() === "";

  async function pickCover(event: React.ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setUploading(true);
    setCoverError(null);
    try {
      setCover(await uploadImage(file));
    } catch (error) {
      setCoverError(error instanceof Error ? error.message : "Upload failed");
    } finally {
      setUploading(false);
      input.value = "";
    }
  }

  return (
    <Form
      method="post"
      action="/admin/courses"
      onSubmit={() => guard.allowLeaving()}
      className="mt-6 space-y-4 rounded-lg border border-indigo-200 bg-indigo-50/40 p-4"
    >
      <h2 className="font-semibold">{course ? "Edit course" : "New course"}</h2>
      <input type="hidden" name="intent" value={course ? "update-course" : "create-course"} />
      {course ? <input type="hidden" name="courseId" value={course.id} /> : null}
      <div>
        <label htmlFor={ids.title} className={fieldLabel}>
          Course title
        </label>
        <input
          id={ids.title}
          name="title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          required
          maxLength={200}
          className={field}
        />
      </div>
      <div>
        <label htmlFor={ids.description} className={fieldLabel}>
          Description
        </label>
        <textarea
          id={ids.description}
          name="description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          rows={3}
          maxLength={5000}
          className={field}
        />
      </div>
      <PublishedSwitch checked={published} onChange={setPublished} what="course" />
      <fieldset className="space-y-3 rounded-md border border-slate-200 bg-white p-3">
        <legend className="px-1 text-sm font-medium text-slate-700">Cover image</legend>
        <input type="hidden" name="coverImageUrl" value={cover} />
        <div className="flex flex-wrap items-start gap-4">
          {cover ? (
            <img
              src={cover}
              alt=""
              className="aspect-video w-40 rounded-md border border-slate-200 object-cover"
            />
          ) : (
            <p className="flex aspect-video w-40 items-center justify-center rounded-md border border-dashed border-slate-300 text-sm text-slate-600">
              No cover
            </p>
          )}
          <div className="min-w-0 flex-1 basis-48 space-y-2">
            <label htmlFor={ids.cover} className={fieldLabel}>
              {cover ? "Replace the cover" : "Upload a cover"}
            </label>
            <input
              id={ids.cover}
              type="file"
              accept={imageTypes}
              onChange={pickCover}
              aria-describedby={ids.hint}
              className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2"
            />
            <p id={ids.hint} className="text-sm text-slate-600">
              PNG, GIF, JPEG, BMP or ICO, 5 MB at most. Shown on the course's card in the training
              area.
            </p>
            {uploading ? (
              <p role="status" className="text-sm text-slate-700">
                Uploading…
              </p>
            ) : null}
            {coverError ? (
              <p role="alert" className="text-sm text-red-800">
                {coverError}
              </p>
            ) : null}
            {cover ? (
              <button
                type="button"
                onClick={() => {
                  setCover("");
                  setCoverAlt("");
                }}
                className="min-h-11 rounded-md border border-slate-300 px-3 py-2 text-sm"
              >
                Remove cover
              </button>
            ) : null}
          </div>
        </div>
        {cover ? (
          <div>
            <label htmlFor={ids.alt} className={fieldLabel}>
              Cover description (alt text)
            </label>
            <input
              id={ids.alt}
              name="coverAlt"
              value={coverAlt}
              onChange={(e) => setCoverAlt(e.target.value)}
              maxLength={300}
              required
              aria-invalid={altMissing || undefined}
              aria-describedby={altMissing ? `${ids.alt}-error` : undefined}
              className={field}
            />
            {altMissing ? (
              <p id={`${ids.alt}-error`} className="mt-1 text-sm text-red-800">
                {coverAltRequired}
              </p>
            ) : null}
          </div>
        ) : null}
      </fieldset>
      <FormActions
        busy={busy}
        canSave={title.trim() !== "" && !altMissing && !uploading}
        saveLabel="Save course"
        cancelTo={course ? `/admin/courses?course=${course.id}` : "/admin/courses"}
      />
      {guard.dialog}
    </Form>
  );
}
