import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// deploy/ailabs.service, as docs/deploy.md installs it: sandboxed enough for
// `systemd-analyze security` to rate it "OK" (an exposure of 4.0 or lower).

const unitFile = path.resolve(import.meta.dirname, "deploy/ailabs.service");
const unit = readFileSync(unitFile, "utf8");

/** Every value of a [Service] setting, in order. */
function settings(name: string): string[] {
  return [...unit.matchAll(new RegExp(`^${name}=(.*)$`, "gm"))].map((m) => m[1] ?? "");
}

function systemdAnalyze(): string | undefined {
  try {
    execFileSync("systemd-analyze", ["--version"], { stdio: "ignore" });
    return "systemd-analyze";
  } catch {
    return undefined;
  }
}

describe("deploy/ailabs.service", () => {
  it("is rated OK by systemd-analyze security (exposure 4.0 or lower), or has the settings it rates", () => {
    const analyze = systemdAnalyze();
    if (analyze) {
      // --offline reads the file itself, not a loaded unit: no systemd running is needed.
      const dir = mkdtempSync(path.join(tmpdir(), "ailabs-unit-"));
      copyFileSync(unitFile, path.join(dir, "ailabs.service"));
      const report = execFileSync(
        analyze,
        ["security", "--offline=true", "--no-pager", path.join(dir, "ailabs.service")],
        { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
      );
      const [, score, verdict] =
        /Overall exposure level for ailabs\.service: ([\d.]+) (\w+)/.exec(report) ?? [];
      expect(verdict).toBe("OK");
      expect(Number(score)).toBeLessThanOrEqual(4.0);
    }
    // What the rating rests on, checked without systemd too.
    expect(settings("SystemCallFilter")).toEqual([
      "@system-service",
      "pkey_alloc pkey_free pkey_mprotect",
      "~@privileged @resources",
    ]);
    expect(settings("ProtectSystem")).toEqual(["strict"]);
    expect(settings("ReadWritePaths")).toEqual(["/var/lib/ailabs"]);
    expect(settings("Environment")).toContain("DATA_DIR=/var/lib/ailabs");
    for (const name of ["PrivateTmp", "ProtectHome", "NoNewPrivileges", "PrivateDevices"]) {
      expect(settings(name)).toEqual(["yes"]);
    }
    expect(settings("CapabilityBoundingSet")).toEqual([""]);
    expect(settings("RestrictAddressFamilies")).toEqual(["AF_UNIX AF_INET AF_INET6"]);
  });

  it("lets V8 compile code at run time: no MemoryDenyWriteExecute", () => {
    expect(settings("MemoryDenyWriteExecute")).toEqual([]);
  });
});
