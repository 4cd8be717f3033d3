// The protocol versions mcpspec knows, their eras (V26 terminology), and the schema each is judged
// by. The one place these facts live: every other folder imports them from here.

/** Versions mcpspec judges, oldest first. Each has a vendored schema of the same key. */
export const SPEC_VERSIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type SpecVersion = (typeof SPEC_VERSIONS)[number];

/** `--spec-version` choices: a version, or `auto` (probe the way a dual-era client does). */
export const VERSION_CHOICES = ['auto', ...SPEC_VERSIONS] as const;
export type VersionChoice = (typeof VERSION_CHOICES)[number];

export type Era = 'legacy' | 'modern';

/** Modern: per-request `_meta`, no handshake. */
export const MODERN_VERSIONS = ['2026-07-28'] as const;
/** Legacy: `initialize`. 2025-03-26 is negotiable (servers answer it) but judged by 2025-06-18 rules. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

export type ModernVersion = (typeof MODERN_VERSIONS)[number];
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];

export const DEFAULT_MODERN_VERSION: ModernVersion = '2026-07-28';
export const DEFAULT_LEGACY_VERSION: LegacyVersion = '2025-11-25';

/** Version sets for check records. */
export const ALL_VERSIONS: SpecVersion[] = [...SPEC_VERSIONS];
export const LEGACY: SpecVersion[] = ['2025-06-18', '2025-11-25'];
export const MODERN: SpecVersion[] = ['2026-07-28'];

export function isSpecVersion(v: unknown): v is SpecVersion {
  return typeof v === 'string' && (SPEC_VERSIONS as readonly string[]).includes(v);
}

export function isModernVersion(v: string): v is ModernVersion {
  return (MODERN_VERSIONS as readonly string[]).includes(v);
}

export function isLegacyVersion(v: string): v is LegacyVersion {
  return (LEGACY_VERSIONS as readonly string[]).includes(v);
}

export function eraOf(v: string): Era {
  return isModernVersion(v) || v > '2026' ? 'modern' : 'legacy';
}

/** The version whose rules and schema judge a negotiated version (2025-03-26 -> 2025-06-18). */
export function judgedVersion(v: string): SpecVersion {
  if (isSpecVersion(v)) return v;
  return v > '2026' ? '2026-07-28' : '2025-06-18';
}
