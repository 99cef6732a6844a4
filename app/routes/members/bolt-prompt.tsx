import { redirect } from "react-router";

/** The original's mobile menu pointed here; desktop and mobile now agree on /app-builder. */
export function loader() {
  return redirect("/app-builder", 301);
}
