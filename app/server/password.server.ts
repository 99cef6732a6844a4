import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

// Node's scrypt runs on the libuv thread pool, so hashing never blocks the
// event loop (Better Auth's default is a pure-JS scrypt on the main thread).
const params = { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 } satisfies ScryptOptions;
const keyLength = 64;

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, params, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
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
