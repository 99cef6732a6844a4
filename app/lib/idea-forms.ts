import { nulCharacterMessage } from "./forms";
import type { SaasIdea } from "./ideas";
import { z } from "./zod";

// Forms of the idea generator (/app-idea-generator): save an idea, remove a saved one.

/** Text of an idea: JSON can spell a NUL character (\u0000), which the database cannot store. */
const field = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !value.includes("\u0000"), nulCharacterMessage);
const text = field(2000);
const list = z.array(field(300)).min(1).max(20);

/** An idea as the generator makes it (SaasIdea), with bounds on every field. */
export const ideaSchema = z.object({
  id: field(100),
  title: field(200),
  description: text,
  targetMarket: text,
  problemSolved: text,
  keyFeatures: list,
  monetizationStrategy: text,
  estimatedDevTime: field(100),
  marketPotential: text,
  competitorAnalysis: text,
  techStack: list,
}) satisfies z.ZodType<SaasIdea>;

const notAnIdea = "This idea could not be read. Generate it again and save it.";

/** The idea field of the save form: the idea as JSON, checked field by field. */
const ideaJson = z
  .string()
  .max(30_000, notAnIdea)
  .transform((value, ctx): SaasIdea => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
    const idea = ideaSchema.safeParse(parsed);
    if (idea.success) return idea.data;
    ctx.addIssue({ code: "custom", message: notAnIdea });
    return z.NEVER;
  });

/** The idea generator's actions, by intent. */
export const savedIdeaSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), idea: ideaJson }),
  z.object({ intent: z.literal("remove"), id: z.uuid("Unknown saved idea") }),
]);

/** How many ideas a member keeps at most. */
export const maxSavedIdeas = 100;
