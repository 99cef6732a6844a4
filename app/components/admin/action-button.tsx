import { Form, useSubmit } from "react-router";
import { useConfirm } from "./dialog";
import { IconButton, type IconName } from "./icons";

/**
 * One icon button posting the admin action `fields` (hidden inputs, in order).
 * With `confirm`, an in-page dialog asks first; the form posts only on yes.
 */
export function ActionButton({
  fields,
  label,
  icon,
  disabled,
  confirm,
}: {
  fields: Record<string, string>;
  label: string;
  icon: IconName;
  disabled?: boolean;
  confirm?: { title: string; message: string; confirmLabel: string };
}) {
  const submit = useSubmit();
  const [dialog, ask] = useConfirm();
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    if (!confirm) return;
    event.preventDefault();
    const form = event.currentTarget;
    if (await ask({ ...confirm, danger: true })) void submit(form);
  }
  return (
    <>
      <Form method="post" action="/admin/courses" preventScrollReset onSubmit={onSubmit}>
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <IconButton label={label} icon={icon} disabled={disabled} />
      </Form>
      {dialog}
    </>
  );
}
