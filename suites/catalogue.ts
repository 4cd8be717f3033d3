import { checkInfo, type CheckInfo } from './check.js';
import { discoverScenario, versionFirstRequest } from './discover.js';
import { httpScenario } from './http-transport.js';
import { jsonRpcScenario } from './jsonrpc.js';
import { legacyCounteroffer, legacyHandshake, undeclaredCapability } from './lifecycle.js';
import { listsScenario } from './lists.js';
import { nearValidRequests } from './near-valid-requests.js';
import { promptsScenario } from './prompts.js';
import { resourcesScenario } from './resources.js';
import type { Scenario } from './scenario.js';
import { toolsScenario } from './tools.js';
import { wireChecks } from './wire.js';

/** Every server scenario, in the order they run. */
export const SERVER_SCENARIOS: Scenario[] = [
  legacyHandshake,
  legacyCounteroffer,
  versionFirstRequest,
  discoverScenario,
  undeclaredCapability,
  jsonRpcScenario,
  listsScenario,
  toolsScenario,
  resourcesScenario,
  promptsScenario,
  httpScenario,
  nearValidRequests,
];

/** The order scenarios start in: the slowest first, so they overlap the rest. */
export const START_ORDER = ['tools', 'robustness.near-valid', 'jsonrpc'];

/** Checks judged over the whole run rather than one scenario. */
export const RUN_CHECKS = wireChecks;

export interface CatalogueEntry extends CheckInfo {
  area: string;
  scenario: string;
}

export function areaOf(id: string): string {
  return id.split('.')[0];
}

/** The check catalogue: every check with its record, optionally for one spec version. */
export function catalogue(version?: string): CatalogueEntry[] {
  const entries: CatalogueEntry[] = [];
  for (const s of SERVER_SCENARIOS) {
    for (const c of s.checks) entries.push({ ...checkInfo(c), area: areaOf(c.id), scenario: s.id });
  }
  for (const c of RUN_CHECKS) entries.push({ ...checkInfo(c), area: areaOf(c.id), scenario: 'run' });
  return version ? entries.filter((e) => e.versions.includes(version as never)) : entries;
}
