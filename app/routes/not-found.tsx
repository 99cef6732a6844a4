import { redirect } from "react-router";
import { readForm } from "~/server/forms.server";
import type { Route } from "./+types/not-found";

/** Any path not in the route table redirects to / (docs/product.md, Routes). */
export function loader() {
  return redirect("/");
}

/** A form posted to no page goes home too; a body that is not a form is refused (readForm). */
export async function action({ request }: Route.ActionArgs) {
  await readForm(request);
  return redirect("/");
}
