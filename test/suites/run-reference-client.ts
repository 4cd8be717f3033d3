import { resolve } from 'node:path';
import type { RunResult } from '../../results/run.js';
import { ClientDriver } from '../../runner/client-driver.js';
import { runSuite } from '../../runner/engine.js';
import type { Check } from '../../suites/kit/check.js';

export const REFERENCE_CLIENT = resolve('dist/fixtures/clients/reference/main.js');

/** Judge the reference client (built in dist/) with the given faults, over one transport, by one version's rules. */
export async function runReferenceClient(transport: 'http' | 'stdio', version: '2026-07-28' | '2025-11-25' | 'auto', faults: string[] = [], extra: { checks?: Check[]; clientArgs?: string[]; command?: string[] } = {}): Promise<RunResult> {
  const flags = [...faults.flatMap((f) => ['--fault', f]), ...(extra.clientArgs ?? [])];
  const argv = extra.command ?? [process.execPath, REFERENCE_CLIENT, ...flags, transport === 'http' ? '--http' : '--stdio', transport === 'http' ? '{url}' : '{server}'];
  const driver = new ClientDriver({ command: argv[0], args: argv.slice(1), transport }, { specVersion: version, timing: { timeoutMs: 15_000 }, safety: { allowDestructive: false, allowOpenWorld: false }, generation: { seed: 1, runs: 1 } });
  return runSuite(driver, { selection: { checks: extra.checks }, schedule: { deadlineMs: 120_000, concurrency: 4 }, seed: 1 });
}
