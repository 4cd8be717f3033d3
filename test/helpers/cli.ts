import { spawn } from 'node:child_process';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** Run the built CLI as the package ships it (dist/cli/mcpspec.js, the bundle); bounded so a hang fails the test instead of stalling it. */
export function cli(args: string[], timeoutMs = 120_000, env?: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/cli/mcpspec.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}
