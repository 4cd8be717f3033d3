// The official conformance suite's expected-failures file (its `--expected-failures`), read as an
// mcpspec baseline. The file is YAML: an object with `server` and/or `client` lists; an entry names
// a scenario (every check of it may fail) or `scenario:check-id` (only that check may). Each entry
// becomes one baseline entry expecting the mcpspec checks that judge the same rules to fail
// (reports/official-suite-map.ts); an entry with no such check is listed, never dropped.

import { parse } from 'yaml';
import { BaselineError, type BaselineEntry } from './baseline.js';
import { CROSS_CUTTING, OFFICIAL_SCENARIOS, OFFICIAL_SUITE_VERSION, type Counterpart, type OfficialRole } from './official-suite-map.js';

export { OFFICIAL_SUITE_VERSION };

export interface OfficialEntry {
  scenario: string;
  /** Set for `scenario:check-id`: only that check may fail. */
  check?: string;
}

export interface ExpectedFailuresFile {
  server: OfficialEntry[];
  client: OfficialEntry[];
  /** Top-level keys other than server and client (the official suite ignores them too). */
  ignoredKeys: string[];
}

/** An entry as it is written in the file. */
export function entryText(e: OfficialEntry): string {
  return e.check ? `${e.scenario}:${e.check}` : e.scenario;
}

/** Parse the file's text; throws BaselineError (one line) for what the official suite also refuses. */
export function parseExpectedFailures(text: string, source = 'the expected-failures file'): ExpectedFailuresFile {
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    throw new BaselineError(`${source} is not YAML: ${(e as Error).message.split('\n')[0].replace(/:\s*$/, '')}`);
  }
  const file: ExpectedFailuresFile = { server: [], client: [], ignoredKeys: [] };
  if (data === null || data === undefined) return file; // an empty file expects nothing
  if (typeof data !== 'object' || Array.isArray(data)) throw new BaselineError(`${source} must be a mapping with server and/or client lists`);
  for (const [key, value] of Object.entries(data)) {
    if (key !== 'server' && key !== 'client') {
      file.ignoredKeys.push(key);
      continue;
    }
    if (value === null || value === undefined) continue;
    if (!Array.isArray(value)) throw new BaselineError(`${source}: '${key}' must be a list of scenario names`);
    file[key] = parseEntries(value, `${source}: '${key}'`);
  }
  return file;
}

function parseEntries(list: unknown[], where: string): OfficialEntry[] {
  const entries = list.map((item, i): OfficialEntry => {
    const bad = (why: string) => new BaselineError(`${where} entry ${i + 1} (${JSON.stringify(item) ?? String(item)}) is not '<scenario>' or '<scenario>:<check-id>': ${why}`);
    if (item === null || item === undefined) throw bad('it is empty');
    if (typeof item === 'object') {
      // `- scenario: check` is YAML for a mapping: a space crept in after the colon.
      const pairs = Array.isArray(item) ? [] : Object.entries(item);
      throw bad(pairs.length === 1 ? `write '${pairs[0][0]}:${String(pairs[0][1])}' with no space after the colon` : 'a per-check entry takes no space after the colon');
    }
    const text = String(item); // numbers and booleans are names too, as the official suite reads them
    const colon = text.indexOf(':'); // scenario names have slashes but never colons
    if (colon === -1) return { scenario: text };
    const scenario = text.slice(0, colon);
    const check = text.slice(colon + 1);
    if (!scenario || !check) throw bad('both sides of the colon are needed');
    return { scenario, check };
  });
  const whole = new Set(entries.filter((e) => !e.check).map((e) => e.scenario));
  const both = entries.find((e) => e.check && whole.has(e.scenario));
  if (both) throw new BaselineError(`${where}: '${both.scenario}' is listed whole, so '${entryText(both)}' adds nothing: keep one of them`);
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(entryText(e)) && seen.add(entryText(e)));
}

/** An entry that expects no mcpspec check to fail, and why. */
export interface Unmapped {
  entry: string;
  why: string;
}

/** An entry and the mcpspec checks it expects to fail. */
export interface Mapped {
  entry: string;
  checks: string[];
  /** partial when one of its official checks is judged only in part; covered otherwise. */
  fit: 'covered' | 'partial';
  /** Official checks of a whole-scenario entry that no mcpspec check judges. */
  uncovered: string[];
}

export interface Translation {
  baseline: BaselineEntry[];
  mapped: Mapped[];
  unmapped: Unmapped[];
}

/** The baseline of one role's entries: each entry expects the mcpspec checks it maps to. */
export function translateExpectedFailures(file: ExpectedFailuresFile, role: OfficialRole): Translation {
  const out: Translation = { baseline: [], mapped: [], unmapped: [] };
  for (const key of file.ignoredKeys) out.unmapped.push({ entry: key, why: 'a top-level key: only server and client are read' });
  const scenarios = OFFICIAL_SCENARIOS[role];
  for (const e of file[role]) {
    const entry = entryText(e);
    const scenario = Object.hasOwn(scenarios, e.scenario) ? scenarios[e.scenario] : undefined;
    if (!scenario) {
      out.unmapped.push({ entry, why: `not a ${role} scenario of the official suite ${OFFICIAL_SUITE_VERSION}${otherRole(e.scenario, role)}` });
      continue;
    }
    let parts: [string, Counterpart][];
    if (e.check) {
      const own = Object.hasOwn(scenario.checks, e.check) ? scenario.checks[e.check] : Object.hasOwn(CROSS_CUTTING[role], e.check) ? CROSS_CUTTING[role][e.check] : undefined;
      if (!own) {
        out.unmapped.push({ entry, why: `not a check of ${e.scenario} in the official suite ${OFFICIAL_SUITE_VERSION}` });
        continue;
      }
      parts = [[e.check, own]];
    } else {
      parts = [...Object.entries(scenario.checks), ...(scenario.whole ? [[e.scenario, scenario.whole] as [string, Counterpart]] : [])];
    }
    const checks = [...new Set(parts.flatMap(([, c]) => c.checks))];
    if (checks.length === 0) {
      const harness = parts.every(([, c]) => c.fit === 'harness');
      out.unmapped.push({ entry, why: harness ? 'an official harness check (set-up or information), not a rule' : e.check ? 'no mcpspec check judges this rule' : 'no mcpspec check judges any rule of this scenario' });
      continue;
    }
    const fit = parts.some(([, c]) => c.fit === 'partial') ? 'partial' : 'covered';
    const uncovered = parts.filter(([, c]) => c.fit === 'none').map(([id]) => id);
    out.mapped.push({ entry, checks, fit, uncovered });
    out.baseline.push({ id: entry, reason: `official ${role} entry ${entry}: judged by ${checks.join(', ')}`, checks });
  }
  return out;
}

function otherRole(scenario: string, role: OfficialRole): string {
  const other: OfficialRole = role === 'server' ? 'client' : 'server';
  return Object.hasOwn(OFFICIAL_SCENARIOS[other], scenario) ? `; it is a ${other} scenario: list it under ${other}` : '';
}
