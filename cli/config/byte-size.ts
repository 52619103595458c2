// Sizes in bytes as an operator writes them: `8388608`, `8MiB`, `512 KiB`, `2MB`. Binary units
// (KiB, MiB, GiB) count 1024s, decimal ones (kB/KB, MB, GB) 1000s; the number is a whole one, so a
// size is always an exact count of bytes. Shared by strand.toml `[server] body_limit` and
// `strand serve --body-limit` (and STRAND_BODY_LIMIT).

const UNITS: Record<string, number> = {
  "": 1,
  B: 1,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  kB: 1000,
  KB: 1000,
  MB: 1000 ** 2,
  GB: 1000 ** 3,
};

export const BYTE_SIZE_FORM = 'bytes, or a size such as "8MiB" (B, KiB, MiB, GiB, kB, MB, GB)';

/** The number of bytes `text` names, or null when it is not a size. */
export function parseByteSize(text: string): number | null {
  const match = /^\s*(\d+)\s*([A-Za-z]*)\s*$/.exec(text);
  if (match === null) return null;
  const unit = UNITS[match[2]!];
  if (unit === undefined) return null;
  const bytes = Number(match[1]) * unit;
  return Number.isSafeInteger(bytes) ? bytes : null;
}
