import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from "react";
import { LabelledField } from "../ui";

/** A one-line text field of an admin form under its label; `children` stand under the field. */
export function LabelledInput({
  label,
  ref,
  children,
  ...input
}: {
  label: string;
  ref?: Ref<HTMLInputElement>;
  children?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <LabelledField id={id} label={label}>
      <input
        ref={ref}
        id={id}
        {...input}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
      />
      {children}
    </LabelledField>
  );
}
