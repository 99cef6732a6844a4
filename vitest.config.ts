import { defineConfig } from "vitest/config";
import { islands } from "./vite.config";

export default defineConfig({
  // root.tsx imports the islands entry's URL.
  plugins: [islands()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["app/**/*.test.ts", "*.test.ts", "bench/**/*.test.ts"],
    environment: "node",
    // Two files at once on CI's two cores (vitest's default there is one): a file spends much
    // of its time importing the app or waiting on a child process. Each file has a database
    // of its own on PGlite; on PostgreSQL each worker has one (app/test/global-setup.ts).
    maxWorkers: 2,
    globalSetup: ["app/test/global-setup.ts"],
    setupFiles: ["app/test/setup.ts"],
    // A fresh in-memory PGlite per test file, unless DATABASE_URL points at a server.
    env: {
      NODE_ENV: "test",
      DATA_DIR: "memory://",
      BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
      PUBLIC_ORIGIN: "http://localhost:3000",
      LOG_LEVEL: "silent",
    },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
