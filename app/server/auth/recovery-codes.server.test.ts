import { describe, expect, it } from "vitest";
import { signInCodeSchema } from "~/lib/two-factor-forms";
import { generateRecoveryCodes, recoveryCodeAlphabet } from "./recovery-codes.server";

describe("generateRecoveryCodes", () => {
  it("makes 10 distinct codes of the form xxxxx-xxxxx", () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
  });

  it("never uses characters that are easy to confuse (0/O, 1/l/I)", () => {
    const text = generateRecoveryCodes(500).join("");
    for (const confusable of ["0", "O", "1", "l", "I", "L", "o", "i"]) {
      expect(recoveryCodeAlphabet).not.toContain(confusable);
      expect(text).not.toContain(confusable);
    }
    // Every allowed character turns up, so the codes use the whole alphabet.
    for (const c of recoveryCodeAlphabet) expect(text).toContain(c);
  });

  it("gives codes the sign-in form takes as they are shown", () => {
    for (const code of generateRecoveryCodes(20)) {
      const parsed = signInCodeSchema.safeParse({ method: "recovery", code });
      expect(parsed.success && parsed.data.code).toBe(code);
    }
  });
});
