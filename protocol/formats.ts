import type { FormatDefinition } from 'ajv';
import type { Ajv as AjvCore } from 'ajv';

/**
 * Formats the Rust SDK's exported schemas use. They are not JSON Schema formats, so each is
 * registered with the meaning its Rust type gives it: a numeric range, not "anything goes".
 */
const INT_RANGES: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  // 64-bit ranges are wider than a double's exact integers; JSON numbers past 2^53 lose precision,
  // so the check is the range a double can represent, which is what a JS peer can send.
  int64: [-(2 ** 63), 2 ** 63 - 1],
  uint64: [0, 2 ** 64 - 1],
};

export const FLOAT32_MAX = 3.4028234663852886e38;

export const NUMERIC_FORMATS: Record<string, FormatDefinition<number>> = {
  ...Object.fromEntries(
    Object.entries(INT_RANGES).map(([name, [min, max]]) => [
      name,
      { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= min && n <= max } satisfies FormatDefinition<number>,
    ]),
  ),
  float: { type: 'number', validate: (n: number) => Number.isFinite(n) && Math.abs(n) <= FLOAT32_MAX },
  double: { type: 'number', validate: (n: number) => Number.isFinite(n) },
};

export const INT_FORMAT_RANGES = INT_RANGES;

/** Install mcpspec's extra formats into an ajv instance that already has ajv-formats. */
export function addMcpFormats(ajv: AjvCore): void {
  for (const [name, def] of Object.entries(NUMERIC_FORMATS)) ajv.addFormat(name, def);
  // rmcp marks constant strings with format "const"; the sibling `const` keyword carries the rule,
  // so the format itself accepts any string.
  ajv.addFormat('const', { type: 'string', validate: () => true });
}
