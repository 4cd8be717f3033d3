// The mutating proxy over stdio: it is the server its client starts. It starts the real server,
// hands every line both ways through the mutator, and is otherwise transparent: a line the mutation
// leaves alone is written byte for byte as the server (or client) wrote it. The server's stderr is
// ours. When our stdin ends, the server's does; we exit with the server's code. A signal is passed
// on, and the server's whole process tree is killed if it does not exit within two seconds.

import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { tryParseJson } from '../protocol/jsonrpc.js';
import { LineSplitter } from '../runner/line-splitter.js';
import { listDescendants, signalAll } from '../runner/reaper.js';
import { isRaw, type Emitted } from './mutation.js';
import type { Mutator } from './mutator.js';

function serialize(value: Emitted): string {
  return isRaw(value) ? value.raw : `${JSON.stringify(value)}\n`;
}

/** The lines to write for what a hook emitted; the original text when nothing changed. */
function lines(original: string, parsed: unknown, out: Emitted[]): string {
  if (out.length === 1 && out[0] === parsed) return `${original}\n`;
  return out.map(serialize).join('');
}

export async function runStdioProxy(mutator: Mutator, command: string, args: string[]): Promise<number> {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const started = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  try {
    await started;
  } catch (e) {
    process.stderr.write(`mcpspec mutate: cannot start ${command}: ${(e as Error).message}\n`);
    return 2;
  }
  child.stdin.on('error', () => undefined);
  process.stdout.on('error', () => undefined);

  const fromClient = new LineSplitter((line) => {
    const parsed = tryParseJson(line);
    if (!parsed.ok) {
      child.stdin.write(`${line}\n`);
      return;
    }
    child.stdin.write(lines(line, parsed.value, mutator.toServer(parsed.value)));
    for (const r of mutator.takeReplies()) process.stdout.write(serialize(r));
  });
  process.stdin.on('data', (chunk: Buffer) => fromClient.push(chunk));
  process.stdin.on('end', () => {
    fromClient.end();
    if (!mutator.keepStdinOpen()) child.stdin.end();
  });
  process.stdin.on('error', () => child.stdin.end());

  const fromServer = new LineSplitter((line) => {
    const parsed = tryParseJson(line);
    if (!parsed.ok) {
      for (const l of mutator.stdoutLine(line)) process.stdout.write(`${l}\n`);
      return;
    }
    const request = mutator.requestFor(parsed.value);
    const out = mutator.toClient(parsed.value, request);
    mutator.settle(parsed.value);
    for (const r of mutator.takeReplies()) child.stdin.write(serialize(r));
    const text = lines(line, parsed.value, out);
    // Framing hooks see each line as it will be written.
    for (const l of text.split('\n').slice(0, -1)) {
      const framed = mutator.stdoutLine(l, request);
      process.stdout.write(framed.map((f) => `${f}\n`).join(''));
    }
    const rest = text.endsWith('\n') ? '' : text.slice(text.lastIndexOf('\n') + 1);
    if (rest) process.stdout.write(rest);
  });
  child.stdout.on('data', (chunk: Buffer) => fromServer.push(chunk));
  child.stdout.on('end', () => fromServer.end());

  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled = signal;
    const tree = child.pid ? [child.pid, ...listDescendants(child.pid)] : [];
    signalAll(tree, signal);
    setTimeout(() => signalAll(tree, 'SIGKILL'), 2000).unref();
  };
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, onSignal);

  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
  await new Promise<void>((resolve) => (child.stdout.readableEnded ? resolve() : child.stdout.once('close', () => resolve())));
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  // The server is gone: so are we (our client sees its server end), whatever our stdin still holds.
  process.stdin.destroy();
  const by = signalled ?? signal;
  if (by) return 128 + (constants.signals[by] ?? 1);
  return code ?? 0;
}
