import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { type BonusFile, bonusDownloads } from "~/config/site";
import { requireMember } from "~/server/auth/guards.server";
import type { Route } from "./+types/bonus-download";

/**
 * Where the bonus files are: build/bonus (written by scripts/build-bonus-zip.ts
 * during `npm run build`), else the text files' sources in bonus/.
 */
function locate(file: BonusFile): string | null {
  const candidates = [
    path.resolve("build", "bonus", file),
    ...(file.endsWith(".txt") ? [path.resolve("bonus", file)] : []),
  ];
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

/** GET /bonuses/download/{file}: a bonus file, for members only. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireMember(request);
  if (!Object.hasOwn(bonusDownloads, params.file)) {
    return new Response("Not found", { status: 404 });
  }
  const file = params.file as BonusFile;
  const location = locate(file);
  if (!location) return new Response("Not found", { status: 404 });
  const bytes = await readFile(location);
  return new Response(bytes, {
    headers: {
      "Content-Type": bonusDownloads[file].contentType,
      "Content-Disposition": `attachment; filename="${file}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
