// Child processes for the bench sections: every child gets its own process group, so one kill
// reaches whatever it started too (mcpspec's stdio target, a server's workers), and every group
// still alive when the bench exits (normally, by an error or by Ctrl-C) is killed on the way out.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createInterface } from 'node:readline';

const groups = new Set<ChildProcess>();
let hooked = false;

function killGroup(p: ChildProcess): void {
  if (p.pid === undefined) return;
  try {
    process.kill(-p.pid, 'SIGKILL');
  } catch {
    /* the whole group is gone already */
  }
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => groups.forEach(killGroup));
  // Detached children are outside the terminal's process group, so Ctrl-C would not reach them.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      groups.forEach(killGroup);
      process.exit(130);
    });
  }
}

/** spawn() in a new process group that is killed when the bench exits, if not stopped before. */
export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  hookExit();
  const p = spawn(command, args, { ...options, detached: true });
  groups.add(p);
  p.on('error', () => undefined); // reported through 'exit'/'close' or the caller's own timeout
  return p;
}

/**
 * Start a server that prints `listening URL` on stdout when ready (the project's fixtures and the plain
 * server do) and wait for that line (20 s at most); on failure the process is stopped.
 */
export async function startListening(command: string, args: string[], what: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const proc = spawnTracked(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: proc.stdout! });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} did not print its URL within 20 s`)), 20_000);
      lines.on('line', (line) => {
        const m = /^listening (\S+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${what} exited (${code}) before listening`));
      });
    });
    return { url, stop: () => stop(proc) };
  } catch (e) {
    await stop(proc);
    throw e;
  } finally {
    // Nothing more is read from it: let its output flow away.
    lines.close();
    proc.stdout!.resume();
  }
}

/** Kill a tracked child's whole group and wait (at most 5 s) for the child to be reaped. */
export async function stop(p: ChildProcess): Promise<void> {
  const exited = p.exitCode !== null || p.signalCode !== null;
  killGroup(p);
  groups.delete(p);
  if (exited || p.pid === undefined) return;
  await new Promise<void>((resolve) => {
    const t = setTimeout(resolve, 5000);
    p.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

export interface Finished {
  code: number | null;
  seconds: number;
  /** Killed because it outlived timeoutMs or the caller's abort signal. */
  killed: 'timeout' | 'aborted' | undefined;
  /** The last few KB of stdout and stderr, interleaved. */
  output: string;
}

/** Run a command to its end (or kill it after timeoutMs / on abort); its group is killed either way. */
export function runToExit(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; signal?: AbortSignal; keepStdinOpen?: boolean }): Promise<Finished> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let output = '';
    let killed: Finished['killed'];
    // keepStdinOpen: a pipe nobody writes to, for programs that quit at the end of their input (as `mcpspec client` gives clients).
    const p = spawnTracked(command, args, { cwd: options.cwd, env: options.env, stdio: [options.keepStdinOpen ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    p.stdin?.on('error', () => undefined);
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4096);
    };
    p.stdout!.on('data', keep);
    p.stderr!.on('data', keep);
    const kill = (why: 'timeout' | 'aborted') => {
      killed ??= why;
      killGroup(p);
    };
    const timer = setTimeout(() => kill('timeout'), options.timeoutMs);
    const onAbort = () => kill('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    let done = false;
    const finish = (code: number | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      p.stdin?.destroy();
      void stop(p); // stragglers the command left behind
      resolve({ code, seconds: (performance.now() - t0) / 1000, killed, output });
    };
    p.once('close', finish);
    p.once('error', (e) => {
      output += `\nspawn failed: ${e.message}`;
      if (p.pid === undefined) finish(null); // never started: no 'close' to wait for
    });
  });
}

/** `n` processes spinning one core each, to load the machine; the returned function kills them. */
export function startCpuHogs(n: number): () => Promise<void> {
  const hogs = Array.from({ length: n }, () => spawnTracked(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  return async () => {
    await Promise.all(hogs.map(stop));
  };
}

export function median(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
