import type { RunResult } from '../../results/run.js';
import { runServerSuite, type ServerRunOptions } from '../../runner/run-server.js';
import type { Check } from '../../suites/kit/check.js';
import { startHttpTarget, stdioTarget } from '../helpers/targets.js';

export type Version = '2026-07-28' | '2025-11-25' | '2025-06-18';

export const REFERENCE_OPTIONS = {
  allowDestructive: false,
  allowOpenWorld: false,
  timeoutMs: 10_000,
  seed: 1,
  runs: 12,
  deadlineMs: 120_000,
  concurrency: 4,
} as const;

// The fixture's tasks work 3 s by default so that `npm start` shows real polling; 1 s still gives
// several polls of a working task (its poll interval is a third of that) and keeps fault runs short.
const TASK_MS = '1000';
// slow_count (slow.ts) works 3 s by default so that a cancellation finds it working behind a slow link; 1 s in test runs.
const SLOW_MS = '1000';

/** Run the server suite (or only `checks`) against the reference fixture with the given faults switched on. */
export async function runReference(
  transport: 'stdio' | 'http',
  version: Version,
  faults: string[] = [],
  extra: Partial<ServerRunOptions> & { checks?: Check[]; serverArgs?: string[]; headers?: Record<string, string> } = {},
): Promise<RunResult> {
  const { serverArgs = [], headers, ...rest } = extra;
  const args = [...serverArgs, ...faults.flatMap((f) => ['--fault', f])];
  const env = { ...rest.env, set: { MCPSPEC_REFERENCE_TASK_MS: TASK_MS, MCPSPEC_REFERENCE_SLOW_MS: SLOW_MS, ...rest.env?.set } };
  const options: ServerRunOptions = { ...REFERENCE_OPTIONS, specVersion: version, ...rest, env };
  if (transport === 'stdio') {
    const t = stdioTarget('reference', { args });
    return runServerSuite({ kind: 'stdio', command: t.command, args: t.args }, options);
  }
  const server = await startHttpTarget('reference', { args, env: env.set });
  try {
    return await runServerSuite({ kind: 'http', url: server.url, ...(headers ? { headers } : {}) }, options);
  } finally {
    await server.stop();
  }
}

/** The fixture's --auth-token mode: what the auth.* checks are judged on, and the header that passes it. */
export const AUTH_TOKEN = 'reference-test-token';
export const AUTH = { serverArgs: ['--auth-token', AUTH_TOKEN], headers: { Authorization: `Bearer ${AUTH_TOKEN}` } };

export function statusTable(run: RunResult): Record<string, string> {
  return Object.fromEntries(run.checks.map((c) => [c.id, c.status]));
}
