import { ActionButton } from "./action-button";
import { IconLink } from "./icons";

/**
 * The buttons of a listed course or chapter: move up and down, preview as a
 * member, edit and delete (after a confirmation). `fields` name the item in
 * every post; `deleteFields` are posted with the delete only.
 */
export function RowActions({
  kind,
  title,
  fields,
  first,
  last,
  previewTo,
  editTo,
  deleteFields,
  confirmMessage,
}: {
  kind: "course" | "chapter";
  title: string;
  fields: Record<string, string>;
  first: boolean;
  last: boolean;
  previewTo: string;
  editTo: string;
  deleteFields?: Record<string, string>;
  confirmMessage: string;
}) {
  return (
    <span className="ml-auto flex flex-wrap items-center gap-1">
      {(["up", "down"] as const).map((direction) => (
        <ActionButton
          key={direction}
          fields={{ intent: `move-${kind}`, ...fields, direction }}
          label={`Move ${kind} ${direction}: ${title}`}
          icon={direction}
          disabled={direction === "up" ? first : last}
        />
      ))}
      <IconLink to={previewTo} label={`Preview as member: ${title}`} icon="preview" />
      <IconLink to={editTo} label={`Edit ${kind}: ${title}`} icon="edit" />
      <ActionButton
        fields={{ intent: `delete-${kind}`, ...fields, ...deleteFields }}
        label={`Delete ${kind}: ${title}`}
        icon="delete"
        confirm={{
          title: `Delete ${kind}?`,
          message: confirmMessage,
          confirmLabel: `Delete ${kind}`,
        }}
      />
    </span>
  );
}
