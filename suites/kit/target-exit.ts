// How a server under test ended without mcpspec causing it, read from the recording: what the
// robustness.stays-up oracle judges and what the server driver reports as a crash finding.

import type { WireEvent } from '../../results/wire.js';

/** Deaths of the target mcpspec did not cause: a process exit (other than a clean one) or a lost connection. */
export function unexpectedExits(events: WireEvent[]): WireEvent[] {
  return events.filter((e) => e.kind === 'process-exit' && e.data && e.data.expected !== true && !(e.channel === 'stdio' && e.data.exitCode === 0 && !e.data.signal));
}

export function describeExit(e: WireEvent): string {
  const exited = e.data?.exitCode !== undefined && (e.data.exitCode !== null || !!e.data.signal);
  if (e.channel === 'http' && !exited) return `lost the connection (${String(e.data?.reason ?? 'closed')})`;
  return `exited with code ${String(e.data?.exitCode)}${e.data?.signal ? ` (signal ${String(e.data.signal)})` : ''}`;
}
