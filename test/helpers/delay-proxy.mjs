#!/usr/bin/env node
/**
 * stdio delay proxy: makes a stdio MCP server look slow.
 *
 *   node test/helpers/delay-proxy.mjs --delay-ms 1500 [--errors-only] -- <target command...>
 *
 * Spawns the target; forwards our stdin to it unchanged; forwards each stdout line of the target
 * `--delay-ms` later (every line, or with `--errors-only` only lines that parse as a JSON object
 * with an `error` member; other lines pass at once, so answers can come out of order, which
 * JSON-RPC allows). Lines keep their exact content (a trailing `\r` included). The target's stderr
 * is our stderr.
 *
 * When our stdin ends, the target's stdin is ended. We exit with the target's exit code (128 + n
 * if it was killed by a signal) once it has exited, its stdout has ended and every delayed line
 * has been written. On SIGTERM/SIGINT/SIGHUP we signal the target, wait for it (SIGKILL after
 * 2 s), and exit 128 + n without flushing. If we die anyway, the target sees EOF on its stdin.
 *
 * Plain Node ESM (no build step), so tests can run it as a child process.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const USAGE = 'usage: delay-proxy.mjs --delay-ms N [--errors-only] -- <command> [args...]';

function fail(message, code = 2) {
  process.stderr.write(`delay-proxy: ${message}\n`);
  process.exit(code);
}

function parseArgs(argv) {
  let delayMs;
  let errorsOnly = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      i++;
      break;
    } else if (arg === '--errors-only') {
      errorsOnly = true;
    } else if (arg === '--delay-ms' || arg.startsWith('--delay-ms=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      delayMs = Number(value);
      if (value === undefined || !Number.isFinite(delayMs) || delayMs < 0) fail(`bad --delay-ms ${value}\n${USAGE}`);
    } else {
      fail(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  const command = argv.slice(i);
  if (delayMs === undefined) fail(`--delay-ms is required\n${USAGE}`);
  if (command.length === 0) fail(`the target command is missing\n${USAGE}`);
  return { delayMs, errorsOnly, command };
}

/** Whether a stdout line is a JSON-RPC error answer (a JSON object with an `error` member). */
function isErrorLine(line) {
  try {
    const value = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'error');
  } catch {
    return false;
  }
}

const { delayMs, errorsOnly, command } = parseArgs(process.argv.slice(2));

const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });

let childExit; // { code, signal } once the target has exited
let stdoutEnded = false;
let pending = 0; // delayed lines not yet written
let exiting = false;
const timers = new Set();

function exitCodeOf({ code, signal }) {
  if (code !== null && code !== undefined) return code;
  const number = signal ? constants.signals[signal] : undefined;
  return 128 + (number ?? 1);
}

function finish(code) {
  if (exiting) return;
  exiting = true;
  for (const timer of timers) clearTimeout(timer);
  // Let stdout drain before exiting (pipes are synchronous on Linux, but be safe elsewhere).
  process.stdout.write('', () => process.exit(code));
  setTimeout(() => process.exit(code), 2000).unref();
}

function maybeFinish() {
  if (childExit && stdoutEnded && pending === 0) finish(exitCodeOf(childExit));
}

child.on('error', (error) => {
  // spawn failure (ENOENT, EACCES): nothing to forward.
  process.stderr.write(`delay-proxy: cannot start ${command[0]}: ${error.message}\n`);
  finish(127);
});

child.on('exit', (code, signal) => {
  childExit = { code, signal };
  maybeFinish();
});

// stdin -> target, unchanged. When our stdin ends, end the target's.
child.stdin.on('error', () => undefined); // EPIPE when the target has gone: nothing to do
process.stdin.on('data', (chunk) => {
  if (!child.stdin.destroyed) child.stdin.write(chunk);
});
process.stdin.on('end', () => child.stdin.end());
process.stdin.on('error', () => child.stdin.end());

// target stdout -> our stdout, line by line, delayed.
process.stdout.on('error', () => undefined); // our reader went away: keep running until told to stop

function emit(text) {
  if (!exiting) process.stdout.write(text);
}

function forward(text, line) {
  if (delayMs === 0 || (errorsOnly && !isErrorLine(line))) {
    emit(text);
    return;
  }
  pending++;
  // Timers of equal duration fire in creation order, so the "delay every line" mode keeps order.
  const timer = setTimeout(() => {
    timers.delete(timer);
    emit(text);
    pending--;
    maybeFinish();
  }, delayMs);
  timers.add(timer);
}

let buffer = Buffer.alloc(0);
child.stdout.on('data', (chunk) => {
  buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
  let index;
  while ((index = buffer.indexOf(0x0a)) >= 0) {
    const text = buffer.subarray(0, index + 1); // the exact bytes, newline included
    buffer = buffer.subarray(index + 1);
    forward(text, text.toString('utf8'));
  }
});
child.stdout.on('end', () => {
  if (buffer.length > 0) {
    // A last line without a newline: forwarded as is.
    const text = buffer;
    buffer = Buffer.alloc(0);
    forward(text, text.toString('utf8'));
  }
  stdoutEnded = true;
  maybeFinish();
});

// Killed: kill the target too (no orphans), then exit 128 + n.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    const code = 128 + constants.signals[signal];
    if (childExit || child.pid === undefined) {
      finish(code);
      return;
    }
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    exiting = true; // stop forwarding; exit as soon as the target is gone
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
    const force = setTimeout(() => {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }, 2000);
    child.once('exit', () => {
      clearTimeout(force);
      process.exit(code);
    });
    setTimeout(() => process.exit(code), 4000).unref();
  });
}

// Last resort: whatever the way out, do not leave the target behind.
process.on('exit', () => {
  if (!childExit && child.pid !== undefined) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
});
