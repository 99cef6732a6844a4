// The Custom SaaS intake form (/coaching) and the owner's application form
// (/admin/applications): their schemas, the hosting choices and the status
// names, shared by the pages and their actions.
import { type ApplicationStatus, applicationStatuses } from "./application-status";
import { z } from "./zod";

export const hostingChoices = {
  managed: "Host it for me",
  own: "On my own server or account",
  undecided: "Not sure yet: advise me",
} as const;
export type HostingChoice = keyof typeof hostingChoices;

const text = (max: number, required: string | null) =>
  required === null
    ? z.string().trim().max(max, `At most ${max} characters.`).default("")
    : z.string().trim().min(1, required).max(max, `At most ${max} characters.`);

/** The intake form's text fields (the vision document is the `vision` file, checked on its own). */
export const intakeSchema = z.object({
  purchaseId: z.uuid({ message: "That order is not one of yours." }),
  availability: text(1000, "Say when you are available for the consultation."),
  techEnvironment: text(2000, null),
  hosting: z.enum(Object.keys(hostingChoices) as [HostingChoice, ...HostingChoice[]], {
    message: "Choose where the app should be hosted.",
  }),
  contentPlan: text(4000, "Describe the content your app starts with."),
});
export type IntakeForm = z.output<typeof intakeSchema>;

export const statusNames: Record<ApplicationStatus, string> = {
  new: "New",
  "consultation-booked": "Consultation booked",
  "in-development": "In development",
  launched: "Launched",
  support: "Support until launch + 30 days",
};

/** The owner's change to an application: its status and private notes. */
export const applicationUpdateSchema = z.object({
  purchaseId: z.uuid({ message: "Not an application." }),
  status: z.enum(applicationStatuses, { message: "Choose one of the statuses." }),
  notes: text(10_000, null),
});
