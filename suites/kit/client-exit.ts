// How a client under test ended, read as a verdict input: a crash is a signal or an uncaught
// exception (Node's, Python's, a Rust panic), never a clean error exit.

import type { ClientExit } from '../ports/scripted-server.js';

/** Why this exit is a crash, or undefined when the client ended on its own terms. */
export function crashOf(exit: ClientExit): string | undefined {
  if (exit.timedOut) return undefined; // a hang, stopped by mcpspec: judged as a hang
  if (exit.signal) return `killed by ${exit.signal}`;
  const err = exit.stderrTail;
  if (/\n\s*Node\.js v\d+\.\d+\.\d+\s*$/.test(err) || /^Uncaught \w*Error/m.test(err)) return `an uncaught exception (${firstErrorLine(err)})`;
  if (/Traceback \(most recent call last\):/.test(err)) return `an uncaught Python exception (${firstErrorLine(err)})`;
  if (/thread '.*' panicked at/.test(err)) return 'a Rust panic';
  return undefined;
}

function firstErrorLine(text: string): string {
  const line = text.split('\n').find((l) => /^\s*(\w+(Error|Exception)\b|Error:)/.test(l));
  return (line ?? text.trim().split('\n').slice(-1)[0] ?? '').trim().slice(0, 200);
}

/** One line describing an exit, for evidence. */
export function describeExit(exit: ClientExit): string {
  if (exit.timedOut) return 'was still running at the timeout (stopped by mcpspec)';
  if (exit.signal) return `killed by ${exit.signal}`;
  return `exited with code ${exit.exitCode}`;
}

/** The most telling stderr line: the error of a crash trace, else the last line (bounded). */
export function stderrSummary(text: string): string {
  const lines = text.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  const error = lines.find((l) => /^(\w+(Error|Exception)\b|Error:)/.test(l));
  return (error ?? lines[lines.length - 1] ?? '').slice(0, 200);
}
