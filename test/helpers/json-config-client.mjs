// A client configured by a JSON server entry ({"command","args"}), as config-file clients are:
// it runs the reference client against that server.
import { spawnSync } from 'node:child_process';
const [refClient, json] = process.argv.slice(2);
const server = JSON.parse(json);
const r = spawnSync(process.execPath, [refClient, '--stdio', server.command, ...server.args], { stdio: 'inherit' });
process.exit(r.status ?? 1);
