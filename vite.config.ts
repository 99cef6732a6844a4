import { readFileSync } from "node:fs";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

const islandsEntry = "app/islands/hydrate-islands.tsx";

/**
 * Pages that hydrate only their islands load one small script instead of
 * React Router's client (app/islands). It is an extra entry of the client
 * build; `virtual:islands-entry` gives the server its built URL, read from the
 * client build's manifest (the server is built after the client).
 */
export function islands(): Plugin {
  const id = "virtual:islands-entry";
  return {
    name: "ailabs-islands",
    config(_config, { command, isSsrBuild }) {
      if (command === "build" && !isSsrBuild) {
        return { build: { rollupOptions: { input: [islandsEntry] } } };
      }
    },
    resolveId(source) {
      return source === id ? `\0${id}` : undefined;
    },
    load(resolved) {
      if (resolved !== `\0${id}`) return;
      if (this.environment.config.command === "serve") {
        return `export default ${JSON.stringify(`/${islandsEntry}`)};`;
      }
      if (this.environment.name !== "ssr") return `export default "";`;
      const manifest: Record<string, { file: string; src?: string; isEntry?: boolean }> =
        JSON.parse(readFileSync("build/client/.vite/manifest.json", "utf8"));
      const entry = Object.values(manifest).find((c) => c.src === islandsEntry && c.isEntry);
      if (!entry) throw new Error(`${islandsEntry} is missing from the client build`);
      return `export default ${JSON.stringify(`/${entry.file}`)};`;
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild ? { rollupOptions: { input: "./server.ts" } } : undefined,
  ssr: { external: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "pino"] },
  plugins: [tailwindcss(), reactRouter(), islands()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
}));
