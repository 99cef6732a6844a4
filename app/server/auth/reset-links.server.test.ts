import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "~/test/helpers";
import { migrationsFolder } from "../db/client.server";
import { getDb } from "../db/db.server";
import { verification } from "../db/schema";
import { isResetTokenUsable } from "./password-reset.server";

describe("reset links stored before their prefix (migration 0014)", () => {
  it("keep working once the migration prefixes them; other one-time values are left alone", async () => {
    const u = await createUser();
    const db = await getDb();
    // Its own token: on PostgreSQL the database outlives the run.
    const token = `a-link-mailed-before-the-upgrade-${randomUUID()}`;
    // How the link was stored before: the bare SHA-256 of Better Auth's identifier.
    const before = createHash("sha256").update(`reset-password:${token}`).digest("base64url");
    const pendingTwoFactor = `2fa-${randomUUID()}`;
    for (const identifier of [before, pendingTwoFactor]) {
      await db.insert(verification).values({
        id: crypto.randomUUID(),
        identifier,
        value: u.id,
        expiresAt: new Date(Date.now() + 3_600_000),
      });
    }
    expect(await isResetTokenUsable(db, token)).toBe(false);

    const migration = readFileSync(
      path.join(migrationsFolder(), "0014_sign_in_address.sql"),
      "utf8",
    );
    const update = migration.split("--> statement-breakpoint").at(-1) ?? "";
    expect(update).toMatch(/UPDATE "verification"/);
    await db.execute(sql.raw(update));

    expect(await isResetTokenUsable(db, token)).toBe(true);
    const [twoFactor] = await db
      .select({ identifier: verification.identifier })
      .from(verification)
      .where(eq(verification.identifier, pendingTwoFactor));
    expect(twoFactor).toBeDefined();
  });
});
