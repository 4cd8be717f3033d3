// The project's 2.x SDK fixture server (fixtures/servers/sdk2, with the tasks extension) over
// Streamable HTTP on a free loopback port: a target with tools, resources, prompts, input_required
// and tasks that imposes no long waits (its slowest task ends after about a second).
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { spawnTracked, stop } from './processes.js';

const SDK2 = fileURLToPath(new URL('../fixtures/servers/sdk2/server.js', import.meta.url));

/** Start the fixture with `--http --port 0 --tasks` and wait (20 s at most) for its `listening URL` line. */
export async function startSdk2Http(): Promise<{ url: string; stop: () => Promise<void> }> {
  const proc = spawnTracked(process.execPath, [SDK2, '--http', '--port', '0', '--tasks'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: proc.stdout! });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the sdk2 fixture did not print its URL within 20 s')), 20_000);
      lines.on('line', (line) => {
        const m = /^listening (\S+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the sdk2 fixture exited (${code}) before listening`));
      });
    });
    lines.close();
    proc.stdout!.resume();
    return { url, stop: () => stop(proc) };
  } catch (e) {
    lines.close();
    await stop(proc);
    throw e;
  }
}
