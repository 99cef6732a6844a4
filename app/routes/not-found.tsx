import { redirect } from "react-router";

/** Spec: any path not in the route table redirects to /. */
export function loader() {
  return redirect("/");
}

export function action() {
  return redirect("/");
}
