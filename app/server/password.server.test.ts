import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password.server";

describe("password hashing", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash, password: "correct horse" })).toBe(true);
    expect(await verifyPassword({ hash, password: "correct horsE" })).toBe(false);
  });

  it("salts: the same password hashes differently", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });

  it("refuses malformed hashes instead of throwing", async () => {
    for (const hash of ["", "bcrypt$aa$bb", "scrypt$00$11", "scrypt$zz"]) {
      expect(await verifyPassword({ hash, password: "x" })).toBe(false);
    }
  });
});
