import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DatabaseLockedError, lockDataDir } from "./client.server";

describe("lockDataDir", () => {
  it("refuses a second opener while the first process runs", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lock-"));
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      writeFileSync(path.join(dir, "ailabs.lock"), String(holder.pid));
      expect(() => lockDataDir(dir)).toThrow(DatabaseLockedError);
    } finally {
      holder.kill();
    }
  });

  it("takes over a lock left by a process that no longer runs, and releases it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lock-"));
    writeFileSync(path.join(dir, "ailabs.lock"), "999999999");
    const release = lockDataDir(dir);
    release();
    // Released: taking it again works.
    lockDataDir(dir)();
  });
});
