// The project's 2.x SDK fixture server (fixtures/servers/sdk2, with the tasks extension) over
// Streamable HTTP on a free loopback port: a target with tools, resources, prompts, input_required
// and tasks that imposes no long waits (its slowest task ends after about a second).
import { fileURLToPath } from 'node:url';
import { startListening } from './processes.js';

const SDK2 = fileURLToPath(new URL('../fixtures/servers/sdk2/server.js', import.meta.url));

/** Start the fixture with `--http --port 0 --tasks`. */
export function startSdk2Http(): Promise<{ url: string; stop: () => Promise<void> }> {
  return startListening(process.execPath, [SDK2, '--http', '--port', '0', '--tasks'], 'the sdk2 fixture');
}
