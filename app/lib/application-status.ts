/** Where a Custom SaaS build is, in order (coaching_application.status). */
export const applicationStatuses = [
  "new",
  "consultation-booked",
  "in-development",
  "launched",
  "support",
] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];
