import { redirect } from "react-router";

/** An older address of the app builder (the mobile menu once linked here): /app-builder now. */
export function loader() {
  return redirect("/app-builder", 301);
}
