// What one requirement of the digest (or of its authorization supplement) is, as mcpspec vendors it:
// facts only (ID, level, era, section, SEPs), never the requirement's text.

/** The digest's era notation: `both`, `25` (legacy), `26` (modern); the supplement adds `25-11, 26` (2025-11-25 and later). */
export type RequirementEra = 'both' | '25' | '26' | '25-11, 26';
export const REQUIREMENT_ERAS: readonly RequirementEra[] = ['both', '25', '26', '25-11, 26'];

export interface Requirement {
  /** The digest's ID, e.g. `CA-02`, or the supplement's, e.g. `AZ-05`. */
  id: string;
  /** The Req column as written: `M`, `MN`, `S`, `SN`, `MAY`, `-` (informative), or several (`M / S`, `MAY / MN`). */
  level: string;
  era: RequirementEra;
  /** The digest section it is listed in, numbered as there (`7. Caching`); `Authorization` for the supplement. */
  area: string;
  /** The SEPs the digest names for the row (its Source column) or, failing that, for its section. */
  seps: string[];
}
