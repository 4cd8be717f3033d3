// Makes sure no target process (or anything it spawned) outlives mcpspec. Targets are started with
// `detached: false`, so there is no process group of their own to signal; instead the process tree
// is snapshotted from /proc (or `ps`) and every member is signalled. One global hook kills all live
// targets when mcpspec itself exits or is interrupted.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Something that can be killed synchronously (exit handlers cannot await). */
export interface Killable {
  killNow(): void;
}

const live = new Set<Killable>();
let installed = false;

function killAll(): void {
  for (const k of live) {
    try {
      k.killNow();
    } catch {
      // best effort during shutdown
    }
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  process.removeListener('SIGINT', onSignal);
  process.removeListener('SIGTERM', onSignal);
  // Keep the default behaviour (terminate) unless someone else handles the signal.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAll);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Track a live target; returns the function that stops tracking it. */
export function registerLive(k: Killable): () => void {
  install();
  live.add(k);
  return () => {
    live.delete(k);
  };
}

/** How many targets are currently tracked (tests use it to prove nothing leaks). */
export function liveCount(): number {
  return live.size;
}

function readProcTable(): Map<number, { ppid: number; state: string }> | undefined {
  if (process.platform !== 'linux') return undefined;
  const table = new Map<number, { ppid: number; state: string }>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid ..." - comm may contain spaces and parens, so split after the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), { state: rest[0], ppid: Number(rest[1]) });
    } catch {
      // process vanished while we read
    }
  }
  return table;
}

function psTable(): Map<number, { ppid: number; state: string }> {
  const table = new Map<number, { ppid: number; state: string }>();
  if (process.platform === 'win32') return table;
  try {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,stat='], { encoding: 'utf8', timeout: 2000 });
    for (const line of out.split('\n')) {
      const m = /^\s*(\d+)\s+(\d+)\s+(\S+)/.exec(line);
      if (m) table.set(Number(m[1]), { ppid: Number(m[2]), state: m[3][0] });
    }
  } catch {
    // no ps: we can still kill the direct child
  }
  return table;
}

/** All descendants of `pid` (children, grandchildren, ...), excluding `pid` itself. */
export function listDescendants(pid: number): number[] {
  const table = readProcTable() ?? psTable();
  const children = new Map<number, number[]>();
  for (const [p, { ppid }] of table) {
    const list = children.get(ppid);
    if (list) list.push(p);
    else children.set(ppid, [p]);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const cur = queue.shift() as number;
    for (const c of children.get(cur) ?? []) {
      if (c === process.pid || out.includes(c)) continue;
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** True while the process exists and is not a zombie (a zombie has already exited). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    } catch {
      return false;
    }
  }
  return true;
}

export function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const p of pids) {
    try {
      process.kill(p, signal);
    } catch {
      // already gone
    }
  }
}
