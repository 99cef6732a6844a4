import { randomBytes, type ScryptOptions, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { APIError } from "better-auth/api";
import { passwordTooCommon } from "~/lib/password-rule";
import { createWorkQueue, serverBusy } from "../work-queue.server";
import { isCommonPassword } from "./common-passwords.server";

// Hashing runs on threads of its own, so it never blocks the event loop
// (Better Auth's default is a pure-JS scrypt on the main thread).
export type Cost = Pick<ScryptOptions, "N" | "r" | "p">;
/**
 * New hashes: N=2^17, r=8, p=1 (128 MiB, about 0.4 s of a core here), OWASP's
 * minimum for scrypt (Password Storage Cheat Sheet). Written into the hash, so
 * stored hashes of an older cost still verify, and are upgraded at the next
 * sign-in (needsRehash, sign-in.server.ts).
 */
export const passwordCost = { N: 131072, r: 8, p: 1 } satisfies Cost;
/**
 * The cost under NODE_ENV=test only, where the suite creates hundreds of
 * accounts: the earlier N=2^14. Production's cost is tested on its own
 * (password.server.test.ts).
 */
export const testPasswordCost = { N: 16384, r: 8, p: 1 } satisfies Cost;

/** The cost new hashes use in this environment. */
export function passwordCostFor(nodeEnv: "development" | "production" | "test"): Cost {
  return nodeEnv === "test" ? testPasswordCost : passwordCost;
}

/** Hashes written before the cost was stored in them (`scrypt$salt$key`): r=16. */
const legacyCost = { N: 16384, r: 16, p: 1 } satisfies Cost;
/** scrypt needs 128·N·r bytes (128 MiB at the cost above); the limit leaves room for it. */
const maxmem = 256 * 1024 * 1024;
const keyLength = 64;

// What a person is told when a queue is full, and when to try again (work-queue.server.ts).
export { busyRetryAfterSeconds, serverBusy } from "../work-queue.server";

/**
 * Thrown by a full work queue: Better Auth passes its own error type through
 * as it is, so the form that started the hash can say "busy" (errors.server.ts).
 */
export function busyError() {
  return new APIError("SERVICE_UNAVAILABLE", { code: "BUSY", message: serverBusy });
}

/** Hashes at once: every core but one. */
export const hashingSlots = Math.max(1, availableParallelism() - 1);
/**
 * Hashes that may wait for a slot: one a slot. A slot never idles while more
 * is offered than it can hash, and an accepted hash waits for one other at most.
 */
export const hashingQueueLength = hashingSlots;

/**
 * Hashing (about 0.4 s of one core each) takes every core but one at most,
 * so a burst of sign-ups or sign-ins queues instead of taking the core that
 * serves pages (on 2 cores: one hash at a time). At most one hash a slot
 * waits: past that, a sign-up or sign-in is answered
 * "busy" at once instead of waiting without bound (decision 026).
 */
export const passwordWork = createWorkQueue({
  slots: hashingSlots,
  maxWaiting: hashingQueueLength,
  busy: busyError,
});

/**
 * What a hashing thread runs: scrypt, one hash at a time, so at most one
 * 128 MiB scrypt buffer per work slot exists at once (on the libuv pool, its
 * four threads could each hold one). Buffers this large are mapped for the
 * hash and given back to the system after it.
 */
const hashingThreadSource = `
const { parentPort } = require("node:worker_threads");
const { scryptSync } = require("node:crypto");
parentPort.on("message", ({ password, salt, keyLength, options }) => {
  try {
    parentPort.postMessage({ key: scryptSync(password, salt, keyLength, options) });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
});`;

/** Idle hashing threads; never more than `passwordWork`'s slots exist. */
const idleThreads: Worker[] = [];

function startHashingThread(): Worker {
  const thread = new Worker(hashingThreadSource, {
    eval: true,
    // The thread holds no data: a small heap keeps its memory small.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  });
  // An idle thread does not keep the process alive.
  thread.unref();
  return thread;
}

class HashingThreadStopped extends Error {
  constructor(cause: unknown) {
    super("the hashing thread stopped", { cause });
  }
}

function hashOnThread(thread: Worker, job: object): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const settle = (outcome: () => void) => {
      thread.off("message", onMessage);
      thread.off("error", onFailure);
      thread.off("exit", onFailure);
      outcome();
    };
    const onMessage = (reply: { key?: Uint8Array; error?: string }) =>
      settle(() =>
        reply.key
          ? resolve(Buffer.from(reply.key))
          : reject(new Error(reply.error ?? "hashing failed")),
      );
    const onFailure = (cause: unknown) => settle(() => reject(new HashingThreadStopped(cause)));
    thread.on("message", onMessage);
    thread.on("error", onFailure);
    thread.on("exit", onFailure);
    thread.ref();
    thread.postMessage(job);
  }).finally(() => thread.unref());
}

function derive(password: string, salt: Buffer, strength: Cost): Promise<Buffer> {
  const options = { ...strength, maxmem };
  return passwordWork.run(async () => {
    const thread = idleThreads.pop() ?? startHashingThread();
    try {
      const key = await hashOnThread(thread, {
        password: password.normalize("NFKC"),
        salt,
        keyLength,
        options,
      });
      idleThreads.push(thread);
      return key;
    } catch (error) {
      if (error instanceof HashingThreadStopped) await thread.terminate();
      else idleThreads.push(thread);
      throw error;
    }
  });
}

/** The cost written in a hash (`n=16384,r=8,p=1`), within sane bounds; undefined if malformed. */
function parseCost(text: string): Cost | undefined {
  const match = /^n=(\d{1,7}),r=(\d{1,2}),p=(\d)$/.exec(text);
  if (!match) return undefined;
  const [N, r, p] = match.slice(1).map(Number) as [number, number, number];
  const powerOfTwo = N >= 1024 && N <= 1_048_576 && (N & (N - 1)) === 0;
  return powerOfTwo && r >= 1 && r <= 32 && p >= 1 && p <= 4 ? { N, r, p } : undefined;
}

/** Returns `scrypt$n=…,r=…,p=…$<salt>$<key>`, salt and key in hex. */
export async function hashPassword(password: string, cost: Cost = passwordCost): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$n=${cost.N},r=${cost.r},p=${cost.p}$${salt.toString("hex")}$${key.toString("hex")}`;
}

/**
 * Refuses a password being chosen (sign-up, reset, set-password) that is on
 * the common list, with Better Auth's error PASSWORD_TOO_COMMON. Called where
 * a password is chosen, never in Better Auth's `password.hash`: that hook also
 * runs at sign-in for an unknown e-mail (a timing decoy), where a refusal would
 * tell which e-mails have an account.
 */
export async function refuseCommonPassword(password: string): Promise<void> {
  if (await isCommonPassword(password)) {
    throw new APIError("BAD_REQUEST", { code: "PASSWORD_TOO_COMMON", message: passwordTooCommon });
  }
}

/** The cost a stored hash was made with, read from its format; undefined if malformed. */
function costOf(hash: string): Cost | undefined {
  const parts = hash.split("$");
  if (parts[0] !== "scrypt") return undefined;
  if (parts.length === 3) return legacyCost;
  return parts.length === 4 ? parseCost(parts[1] ?? "") : undefined;
}

/** Whether a stored hash was made with another cost than `cost` (older, or the earlier format). */
export function needsRehash(hash: string, cost: Cost): boolean {
  const used = costOf(hash);
  return !used || used.N !== cost.N || used.r !== cost.r || used.p !== cost.p;
}

/** Constant-time comparison; false for any malformed hash. */
export async function verifyPassword({
  hash,
  password,
}: {
  hash: string;
  password: string;
}): Promise<boolean> {
  const parts = hash.split("$");
  const [saltHex, keyHex] = parts.length === 3 ? parts.slice(1) : parts.slice(2);
  const used = costOf(hash);
  if (!used || !saltHex || !keyHex) return false;
  const expected = Buffer.from(keyHex, "hex");
  if (expected.length !== keyLength) return false;
  const actual = await derive(password, Buffer.from(saltHex, "hex"), used);
  return timingSafeEqual(actual, expected);
}
