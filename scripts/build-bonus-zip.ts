/**
 * Zips bonus/todoersproject into build/bonus/todoersproject.zip and copies the
 * bonus text files beside it, for the members' download route. Run by
 * `npm run build`; `tsx scripts/build-bonus-zip.ts [outDir]` by hand.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const bonusSourceDir = path.join(root, "bonus");
export const textBonuses = ["30-day-launch-plan.txt", "ai-prompt-engineering-vault.txt"] as const;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (crcTable[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export type ZipEntry = { name: string; data: Uint8Array };

/** A ZIP archive (deflate, UTF-8 names, fixed 2025-01-01 timestamps so builds are reproducible). */
export function createZip(entries: readonly ZipEntry[]): Buffer {
  const dosTime = 0;
  const dosDate = ((2025 - 1980) << 9) | (1 << 5) | 1;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const compressed = deflateRawSync(entry.data, { level: 9 });
    const crc = crc32(entry.data);
    // The local header and the central directory record share a run of fields:
    // from byte 4 in the one, from byte 6 in the other.
    const writeShared = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // needs version 2.0
      header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      header.writeUInt16LE(8, at + 4); // deflate
      header.writeUInt16LE(dosTime, at + 6);
      header.writeUInt16LE(dosDate, at + 8);
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(compressed.length, at + 14);
      header.writeUInt32LE(entry.data.length, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeShared(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by Unix, version 2.0
    writeShared(central, 6);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // -rw-r--r--
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const centralSize = centrals.reduce((sum, b) => sum + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** Every file under dir, as paths relative to it with forward slashes, sorted. */
function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => !["node_modules", "data", "dist"].includes(d.name) && !d.name.startsWith("."))
    .flatMap((d) =>
      d.isDirectory()
        ? listFiles(path.join(dir, d.name), `${prefix}${d.name}/`)
        : [`${prefix}${d.name}`],
    )
    .sort();
}

/** Writes todoersproject.zip and the text bonuses into outDir; returns the zip's path. */
export function buildBonusFiles(outDir: string): string {
  mkdirSync(outDir, { recursive: true });
  const projectDir = path.join(bonusSourceDir, "todoersproject");
  const entries = listFiles(projectDir).map((file) => ({
    name: `todoersproject/${file}`,
    data: readFileSync(path.join(projectDir, file)),
  }));
  const zipPath = path.join(outDir, "todoersproject.zip");
  writeFileSync(zipPath, createZip(entries));
  for (const file of textBonuses) {
    copyFileSync(path.join(bonusSourceDir, file), path.join(outDir, file));
  }
  return zipPath;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = path.resolve(process.argv[2] ?? path.join(root, "build", "bonus"));
  console.log(`bonus files written: ${buildBonusFiles(outDir)}`);
}
