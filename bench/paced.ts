/** The parent's side of bench/pacer.ts: start it, mark the measured window, stop it for its figures. */
import { spawn } from "node:child_process";
import path from "node:path";
import { benchDir, rootDir } from "./app-server";
import type { PacedJob, PacedStats } from "./pacer";
import { BenchError, monotonicMs, track } from "./support";

export type Paced = {
  /** The measured window begins now. */
  mark(): void;
  /** Stops planning work, waits for the work in flight and returns the figures. */
  stop(): Promise<PacedStats>;
};

/** Starts the pacer; resolves once its work has begun (for writes: once every member's state was read). */
export async function startPaced(job: PacedJob): Promise<Paced> {
  const output: string[] = [];
  const child = track(
    spawn(process.execPath, ["--import", "tsx", path.join(benchDir, "pacer.ts")], {
      cwd: rootDir,
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    }),
    `pacer (${job.kind})`,
    output,
  );
  const next = (type: string, timeoutMs: number) =>
    new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new BenchError(`pacer (${job.kind}): no ${type} in ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      const onMessage = (message: { type: string; message?: string }) => {
        if (message.type !== type && message.type !== "error") return;
        done();
        if (message.type === "error")
          reject(new BenchError(`pacer (${job.kind}): ${message.message}`));
        else resolve(message);
      };
      const onExit = (code: number | null) => {
        done();
        reject(new BenchError(`pacer (${job.kind}) exited (code ${code}):\n${output.join("\n")}`));
      };
      const done = () => {
        clearTimeout(timer);
        child.off("message", onMessage);
        child.off("exit", onExit);
      };
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  const ready = next("ready", 60_000);
  child.send({ type: "start", job });
  await ready;
  return {
    mark: () => child.send({ type: "mark", at: monotonicMs() }),
    stop: async () => {
      const result = next("result", job.timeoutMs + 30_000);
      child.send({ type: "stop", at: monotonicMs() });
      const { stats } = (await result) as { stats: PacedStats };
      child.disconnect();
      return stats;
    },
  };
}
