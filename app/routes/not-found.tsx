import { redirect } from "react-router";

/** Any path not in the route table redirects to / (docs/product.md, Routes). */
export function loader() {
  return redirect("/");
}

export function action() {
  return redirect("/");
}
