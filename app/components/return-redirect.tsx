import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";

const seconds = 5;

/**
 * Counts down and moves to /dashboard after 5 s (docs/product.md, Checkout
 * return pages), with a link to go now.
 */
export function DashboardCountdown() {
  const navigate = useNavigate();
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const tick = setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    const go = setTimeout(() => navigate("/dashboard"), seconds * 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(go);
    };
  }, [navigate]);
  return (
    <p className="mt-6 text-slate-600">
      Taking you to your dashboard in{" "}
      <span aria-live="polite">
        {left} {left === 1 ? "second" : "seconds"}
      </span>
      .
      <Link to="/dashboard" className="mt-3 block font-semibold text-indigo-700 underline">
        Go to dashboard now
      </Link>
    </p>
  );
}
