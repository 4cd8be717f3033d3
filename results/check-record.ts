// A check's record: everything about a check except its judgement. Catalogues, docs and reports
// carry it; the engine gates on it.

import type { SpecVersion } from '../protocol/versions.js';
import type { Level } from './verdict.js';

/** The side under test: a server (mcpspec is its client) or a client (mcpspec plays its server). */
export type Role = 'server' | 'client';
export type TransportKind = 'stdio' | 'http';

/**
 * What a check needs from the target. Versions, transports and role decide whether it belongs to a
 * run at all; capabilities and extensions, when the peer does not declare them, make it a skip
 * with a reason derived from this record.
 */
export interface Requires {
  /** Every one of these capabilities must be declared by the peer under test. */
  capabilities?: string[];
  /** At least one of these capabilities must be declared. */
  anyCapability?: string[];
  /** Extensions (capabilities.extensions keys) the peer must declare. */
  extensions?: string[];
  transports?: TransportKind[];
}

/** `scenario`: judged on what one scripted scenario observed. `oracle`: judged over every message of the run. */
export type CheckKind = 'scenario' | 'oracle';

export interface CheckRecord {
  /** Stable id `area.rule`; the area prefix names its reference fault ids; the file lives in a spec-area folder of suites/ (suites/catalogue.ts AREAS). */
  id: string;
  title: string;
  /** Requirement IDs of the requirements digest (e.g. CA-02). */
  requirements: string[];
  level: Level;
  versions: SpecVersion[];
  role: Role;
  requires: Requires;
  /** The spec section the rule comes from. */
  spec: string;
  kind: CheckKind;
}

export function areaOf(id: string): string {
  return id.split('.')[0];
}
