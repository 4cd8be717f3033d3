// The catalogue: every check of every spec area. A spec area is a folder of suites/ named by the
// spec's own words (its checks, scenarios and the fake peer's behaviour side by side, for a server
// under test and for a client under test: client-checks.ts, client-scenarios.ts); a check's id keeps
// its historical prefix (`mrtr.*` lives in input-required/, `client.*` in the area its rule is about).
// Adding a check: README, "A new check".

import { areaOf, type CheckRecord } from '../results/check-record.js';
import { authClientChecks } from './authorization/client-checks.js';
import { authChecks } from './authorization/server-checks.js';
import { cachingChecks } from './caching/checks.js';
import { cachingClientChecks } from './caching/client-checks.js';
import { cancelChecks } from './cancellation/checks.js';
import { cancellationClientChecks } from './cancellation/client-checks.js';
import { capabilitiesChecks } from './lifecycle/capabilities-checks.js';
import { checkRecord, type Check } from './kit/check.js';
import { completionChecks } from './completion/checks.js';
import { discoverChecks } from './lifecycle/discover-checks.js';
import { httpChecks } from './transports/http/checks.js';
import { httpClientChecks } from './transports/http/client-checks.js';
import { inputRequiredClientChecks } from './input-required/client-checks.js';
import { inputRequired } from './input-required/client-scenarios.js';
import { jsonrpcChecks } from './messages/jsonrpc-checks.js';
import { lifecycleChecks } from './lifecycle/initialize-checks.js';
import { lifecycleClientChecks } from './lifecycle/client-checks.js';
import { legacyServer, modernServer } from './lifecycle/client-scenarios.js';
import { listsChecks } from './list-changed/checks.js';
import { loggingChecks } from './logging/checks.js';
import { messagesClientChecks } from './messages/client-checks.js';
import { metaChecks } from './meta/checks.js';
import { metaClientChecks } from './meta/client-checks.js';
import { mrtrChecks } from './input-required/checks.js';
import { paginationChecks } from './pagination/checks.js';
import { progressChecks } from './progress/checks.js';
import { promptsChecks } from './prompts/checks.js';
import { resourcesChecks } from './resources/checks.js';
import { robustnessChecks } from './robustness/checks.js';
import { robustnessClientChecks } from './robustness/client-checks.js';
import { asksChecks } from './server-requests/checks.js';
import { skillsChecks } from './skills/checks.js';
import { skillsClientChecks } from './skills/client-checks.js';
import { serverRequestsClientChecks } from './server-requests/client-checks.js';
import { elicitationChecks } from './elicitation/checks.js';
import { elicitationClientChecks } from './elicitation/client-checks.js';
import type { Scenario } from './kit/scenario.js';
import { stdioChecks } from './transports/stdio/checks.js';
import { stdioClientChecks } from './transports/stdio/client-checks.js';
import { subscriptionsChecks } from './subscriptions/checks.js';
import { tasksChecks } from './tasks/checks.js';
import { tasksClientChecks } from './tasks/client-checks.js';
import { toolsChecks } from './tools/checks.js';
import { toolsClientChecks } from './tools/client-checks.js';
import { versionChecks } from './lifecycle/version-checks.js';
import { wireChecks } from './messages/wire-checks.js';

/** A spec area: one folder of suites/ (named by the spec's own words) and the checks defined in it. */
export interface SpecArea {
  /** The folder under suites/, e.g. `input-required` or `transports/http`. */
  folder: string;
  checks: Check[];
}

/** Every spec area, in the order reports list them; server checks before client checks. */
export const AREAS: SpecArea[] = [
  { folder: 'lifecycle', checks: [...lifecycleChecks, ...discoverChecks, ...versionChecks, ...capabilitiesChecks, ...lifecycleClientChecks] },
  { folder: 'meta', checks: [...metaChecks, ...metaClientChecks] },
  { folder: 'messages', checks: [...jsonrpcChecks, ...wireChecks, ...messagesClientChecks] },
  { folder: 'pagination', checks: paginationChecks },
  { folder: 'caching', checks: [...cachingChecks, ...cachingClientChecks] },
  { folder: 'list-changed', checks: listsChecks },
  { folder: 'tools', checks: [...toolsChecks, ...toolsClientChecks] },
  { folder: 'resources', checks: resourcesChecks },
  { folder: 'prompts', checks: promptsChecks },
  { folder: 'input-required', checks: [...mrtrChecks, ...inputRequiredClientChecks] },
  { folder: 'server-requests', checks: [...asksChecks, ...serverRequestsClientChecks] },
  { folder: 'elicitation', checks: [...elicitationChecks, ...elicitationClientChecks] },
  { folder: 'progress', checks: progressChecks },
  { folder: 'logging', checks: loggingChecks },
  { folder: 'cancellation', checks: [...cancelChecks, ...cancellationClientChecks] },
  { folder: 'completion', checks: completionChecks },
  { folder: 'tasks', checks: [...tasksChecks, ...tasksClientChecks] },
  { folder: 'subscriptions', checks: subscriptionsChecks },
  { folder: 'skills', checks: [...skillsChecks, ...skillsClientChecks] },
  { folder: 'transports/http', checks: [...httpChecks, ...httpClientChecks] },
  { folder: 'transports/stdio', checks: [...stdioChecks, ...stdioClientChecks] },
  { folder: 'authorization', checks: [...authChecks, ...authClientChecks] },
  { folder: 'robustness', checks: [...robustnessChecks, ...robustnessClientChecks] },
];

/** Every check, area by area, in the order reports list them. */
export const CHECKS: Check[] = AREAS.flatMap((a) => a.checks);

const FOLDERS = new Map(AREAS.flatMap((a) => a.checks.map((c) => [c.id, a.folder] as const)));

/** The folder of suites/ a check is defined in. */
export function folderOf(id: string): string | undefined {
  return FOLDERS.get(id);
}

/** The scenarios the checks are bound to, in catalogue order. */
export const SCENARIOS: Scenario[] = [...new Set(CHECKS.map((c) => c.scenario).filter((s): s is Scenario => s !== undefined))];

/** The oracles: checks judged over every message of the run. */
export const ORACLES: Check[] = CHECKS.filter((c) => c.kind === 'oracle');

/** The client scenarios whose traffic the client oracles judge when no scenario check is selected. */
export const CLIENT_ORACLE_TRAFFIC: Scenario[] = [modernServer, legacyServer, inputRequired];

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
