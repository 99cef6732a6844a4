import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";

// Node's scrypt runs on the libuv thread pool, so hashing never blocks the
// event loop (Better Auth's default is a pure-JS scrypt on the main thread).
const params = { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 } satisfies ScryptOptions;
const keyLength = 64;

/**
 * Runs at most `slots` tasks at once; the others wait their turn, first come
 * first served.
 */
export function createWorkQueue(slots: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    running: () => running,
    waiting: () => waiting.length,
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
      else running += 1;
      try {
        return await task();
      } finally {
        // The slot passes straight to the next in line, or is given back.
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
}

/**
 * Hashing (about 90 ms of one core each) takes every core but one at most,
 * so a burst of sign-ups or sign-ins queues instead of taking the core that
 * serves pages (on 2 cores: one hash at a time).
 */
export const passwordWork = createWorkQueue(Math.max(1, availableParallelism() - 1));

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return passwordWork.run(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize("NFKC"), salt, keyLength, params, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

/** Returns `scrypt$<salt>$<key>`, both hex. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return `scrypt$${salt.toString("hex")}$${key.toString("hex")}`;
}

/** Constant-time comparison; false for any malformed hash. */
export async function verifyPassword({
  hash,
  password,
}: {
  hash: string;
  password: string;
}): Promise<boolean> {
  const [scheme, saltHex, keyHex] = hash.split("$");
  if (scheme !== "scrypt" || !saltHex || !keyHex) return false;
  const expected = Buffer.from(keyHex, "hex");
  if (expected.length !== keyLength) return false;
  const actual = await derive(password, Buffer.from(saltHex, "hex"));
  return timingSafeEqual(actual, expected);
}
