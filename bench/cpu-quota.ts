/**
 * Holds processes to a share of one core each, with the kernel's CFS
 * bandwidth control (a cgroup per process: cgroup v1's cpu controller, or
 * cgroup v2's cpu.max). Mode 7 uses it to measure how the server scales when
 * its processes have cores of their own, as on a server whose load comes
 * from elsewhere: on a two-core machine the load generator and PostgreSQL
 * otherwise take part of the second core from the second server process.
 * Needs root (or a delegated cgroup); without it the caller is told why.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** 10 ms periods: a throttled process waits milliseconds, not the default 100 ms period's tens. */
const periodUs = 10_000;

type Hierarchy = { root: string; limit: (dir: string, quotaUs: number) => void };

function hierarchy(): Hierarchy | string {
  const v1 = "/sys/fs/cgroup/cpu";
  if (existsSync(path.join(v1, "cpu.cfs_quota_us"))) {
    return {
      root: v1,
      limit: (dir, quotaUs) => {
        writeFileSync(path.join(dir, "cpu.cfs_period_us"), String(periodUs));
        writeFileSync(path.join(dir, "cpu.cfs_quota_us"), String(quotaUs));
      },
    };
  }
  const v2 = existsSync("/sys/fs/cgroup/unified/cgroup.controllers")
    ? "/sys/fs/cgroup/unified"
    : "/sys/fs/cgroup";
  const controllers = path.join(v2, "cgroup.controllers");
  if (!existsSync(controllers) || !readFileSync(controllers, "utf8").split(/\s+/).includes("cpu")) {
    return "no cgroup cpu controller on this machine";
  }
  try {
    writeFileSync(path.join(v2, "cgroup.subtree_control"), "+cpu");
  } catch {
    // Enabled already, or not ours to enable: creating the group below tells.
  }
  return {
    root: v2,
    limit: (dir, quotaUs) => writeFileSync(path.join(dir, "cpu.max"), `${quotaUs} ${periodUs}`),
  };
}

/**
 * Puts each of `pids` (every thread of it) in a cgroup of its own limited to
 * `share` of one core. Returns a function that removes the groups once the
 * processes have exited, or the reason it could not.
 */
export function holdToCoreShare(pids: number[], share: number): (() => void) | string {
  const found = hierarchy();
  if (typeof found === "string") return found;
  const made: string[] = [];
  const release = () => {
    for (const dir of made) {
      try {
        rmdirSync(dir);
      } catch {
        // Still holds a process (it outlived the bench): the kernel keeps the group.
      }
    }
  };
  try {
    for (const pid of pids) {
      const dir = path.join(found.root, `ailabs-bench-${process.pid}-${pid}`);
      mkdirSync(dir);
      made.push(dir);
      found.limit(dir, Math.round(share * periodUs));
      writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
    }
  } catch (error) {
    release();
    return `could not limit the server's CPU (${(error as Error).message}); run the bench as root`;
  }
  return release;
}
