import { runServerSuite, type RunResult } from '../../runner/engine.js';
import { startHttpTarget, stdioTarget } from '../helpers/targets.js';

export type Version = '2026-07-28' | '2025-11-25' | '2025-06-18';

/** Run the whole server suite against the reference fixture with the given faults switched on. */
export async function runReference(transport: 'stdio' | 'http', version: Version, faults: string[] = []): Promise<RunResult> {
  const args = faults.flatMap((f) => ['--fault', f]);
  const options = { specVersion: version, allowDestructive: false, timeoutMs: 5000, seed: 1, runs: 12, deadlineMs: 90_000, concurrency: 4 } as const;
  if (transport === 'stdio') {
    const t = stdioTarget('reference', { args });
    return runServerSuite({ kind: 'stdio', command: t.command, args: t.args }, options);
  }
  const server = await startHttpTarget('reference', { args });
  try {
    return await runServerSuite({ kind: 'http', url: server.url }, options);
  } finally {
    await server.stop();
  }
}

export function statusTable(run: RunResult): Record<string, string> {
  return Object.fromEntries(run.checks.map((c) => [c.id, c.status]));
}
