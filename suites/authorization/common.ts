// What the server and client sides of auth.* share: where they apply, and how URLs compare.
import type { SpecVersion } from '../../protocol/versions.js';

/** Authorization is an HTTP matter (stdio servers take credentials from their environment). */
export const HTTP = { transports: ['http' as const] };
/** The versions whose authorization pages name the rule (2025-11-25 and later). */
export const SCOPED: SpecVersion[] = ['2025-11-25', '2026-07-28'];

/** RFC 9728 §3.3 identity, after the normalisation every URL parser does (scheme and host case, default port). */
export function sameResource(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/** The URL a string names, or undefined when it names none. */
export function parsedUrl(x: string): URL | undefined {
  try {
    return new URL(x);
  } catch {
    return undefined;
  }
}
