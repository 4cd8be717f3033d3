// The catalogue: every check of every area file. Adding a check = its record and judge in its
// area file (suites/<area>.ts, the id's prefix) + its fault in the reference fixture.

import { areaOf, type CheckRecord } from '../results/check-record.js';
import { authClientChecks } from './auth/client.js';
import { authChecks } from './auth/server.js';
import { cachingChecks } from './caching.js';
import { cancelChecks } from './cancel.js';
import { capabilitiesChecks } from './capabilities.js';
import { checkRecord, type Check } from './check.js';
import { clientChecks } from './client/checks.js';
import { clientTrafficChecks } from './client/traffic.js';
import { completionChecks } from './completion.js';
import { discoverChecks } from './discover.js';
import { httpChecks } from './http.js';
import { jsonrpcChecks } from './jsonrpc.js';
import { lifecycleChecks } from './lifecycle.js';
import { listsChecks } from './lists.js';
import { loggingChecks } from './logging.js';
import { metaChecks } from './meta.js';
import { mrtrChecks } from './mrtr.js';
import { paginationChecks } from './pagination.js';
import { progressChecks } from './progress.js';
import { promptsChecks } from './prompts.js';
import { resourcesChecks } from './resources.js';
import { robustnessChecks } from './robustness.js';
import { asksChecks } from './asks.js';
import { elicitationChecks } from './elicitation.js';
import type { Scenario } from './scenario.js';
import { stdioChecks } from './stdio.js';
import { subscriptionsChecks } from './subscriptions.js';
import { tasksChecks } from './tasks.js';
import { toolsChecks } from './tools.js';
import { versionChecks } from './version.js';
import { wireChecks } from './wire.js';

/** Every check, area by area, in the order reports list them. */
export const CHECKS: Check[] = [
  ...lifecycleChecks,
  ...discoverChecks,
  ...versionChecks,
  ...metaChecks,
  ...capabilitiesChecks,
  ...jsonrpcChecks,
  ...paginationChecks,
  ...cachingChecks,
  ...listsChecks,
  ...toolsChecks,
  ...resourcesChecks,
  ...promptsChecks,
  ...mrtrChecks,
  ...asksChecks,
  ...elicitationChecks,
  ...progressChecks,
  ...loggingChecks,
  ...cancelChecks,
  ...completionChecks,
  ...tasksChecks,
  ...subscriptionsChecks,
  ...httpChecks,
  ...authChecks,
  ...robustnessChecks,
  ...wireChecks,
  ...stdioChecks,
  ...clientChecks,
  ...clientTrafficChecks,
  ...authClientChecks,
];

/** The scenarios the checks are bound to, in catalogue order. */
export const SCENARIOS: Scenario[] = [...new Set(CHECKS.map((c) => c.scenario).filter((s): s is Scenario => s !== undefined))];

/** The oracles: checks judged over every message of the run. */
export const ORACLES: Check[] = CHECKS.filter((c) => c.kind === 'oracle');

export interface CatalogueEntry extends CheckRecord {
  area: string;
  /** The scenario whose observations it judges, or `run` for an oracle. */
  scenario: string;
}

/** The check catalogue: every check's record, optionally for one spec version. */
export function catalogue(version?: string, checks: Check[] = CHECKS): CatalogueEntry[] {
  return checks
    .filter((c) => !version || c.versions.includes(version as never))
    .map((c) => ({ ...checkRecord(c), area: areaOf(c.id), scenario: c.scenario?.id ?? 'run' }));
}
