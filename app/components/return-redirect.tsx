import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";

const seconds = 5;

/**
 * Counts down and moves on after 5 s (docs/product.md, Checkout return pages),
 * with a link to go now: to /dashboard, or to the next step of the order just
 * paid (`to`, an upsell's page after the plan).
 */
export function DashboardCountdown({ to = "/dashboard" }: { to?: string }) {
  const navigate = useNavigate();
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const tick = setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    const go = setTimeout(() => navigate(to), seconds * 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(go);
    };
  }, [navigate, to]);
  const dashboard = to === "/dashboard";
  return (
    <p className="mt-6 text-slate-600">
      {dashboard ? "Taking you to your dashboard in" : "Your order continues in"}{" "}
      <span aria-live="polite">
        {left} {left === 1 ? "second" : "seconds"}
      </span>
      .
      <Link to={to} className="mt-3 block font-semibold text-indigo-700 underline">
        {dashboard ? "Go to dashboard now" : "Continue now"}
      </Link>
    </p>
  );
}
