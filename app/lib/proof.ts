// "Confirm it's you" before a sensitive admin action (guards.server.ts requireRecentProof).

/** What requireRecentProof answers (status 401) when the admin's last proof is too old. */
export type ProofRequired = {
  proofRequired: true;
  /** Whether the admin may give a code from their authenticator app instead of the password. */
  twoFactor: boolean;
  /** Why the proof just given was refused, or null when none was given. */
  error: string | null;
  /** The fields the admin submitted, sent again with the proof. */
  fields: [string, string][];
};

export function isProofRequired(value: unknown): value is ProofRequired {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { proofRequired?: unknown }).proofRequired === true
  );
}
