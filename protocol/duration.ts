// Durations as users write them: `500ms`, `10s`, `2m`, `1h`; a plain number is milliseconds.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or undefined when `text` is not a positive duration. */
export function parseDuration(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) && text > 0 ? text : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) return undefined;
  const ms = Number(m[1]) * UNITS[m[2] ?? 'ms'];
  return ms > 0 && Number.isFinite(ms) ? Math.round(ms) : undefined;
}
