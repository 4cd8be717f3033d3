// What a run holds, from the catalogue: tests compute their expected counts here, never type them in
// (a typed count goes stale with every new check). A run holds the checks that belong to its role,
// version and transport (suites/kit/check.ts belongsTo, as the engine selects them), narrowed by
// what the test chose (--only, a prefix).

import type { SpecVersion } from '../../protocol/versions.js';
import type { Role, TransportKind } from '../../results/check-record.js';
import { CHECKS } from '../../suites/catalogue.js';
import { belongsTo, type Check } from '../../suites/kit/check.js';

/** The catalogue's checks a run of this role, version and transport holds, in catalogue order; only those `which` picks. */
export function checksOfRun(role: Role, version: SpecVersion, transport: TransportKind, which: (c: Check) => boolean = () => true): Check[] {
  return CHECKS.filter((c) => belongsTo(c, role, version, transport) && which(c));
}

/** Their ids, in catalogue order. */
export function idsOfRun(role: Role, version: SpecVersion, transport: TransportKind, which?: (c: Check) => boolean): string[] {
  return checksOfRun(role, version, transport, which).map((c) => c.id);
}

/** How many there are. */
export function countOfRun(role: Role, version: SpecVersion, transport: TransportKind, which?: (c: Check) => boolean): number {
  return checksOfRun(role, version, transport, which).length;
}

/** Picks the checks of one area: the part of the id before the dot (`tools.` for tools). */
export const inArea = (area: string) => (c: Check): boolean => c.id.startsWith(`${area}.`);
