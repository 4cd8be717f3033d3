// `npm test` type-checks the tests (tsconfig.test.json, against the sources' declarations) as one of
// its files, beside the others rather than before them: vitest compiles the tests itself, so the two
// are independent, and side by side they finish sooner on a busy machine. Only under `npm test`
// (MCPSPEC_TYPECHECK=1): a file run by hand is not slowed down.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

describe('the tests', () => {
  it.skipIf(process.env.MCPSPEC_TYPECHECK !== '1')('type-check (tsc -p tsconfig.test.json)', { timeout: 300_000 }, async () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const r = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, [tsc, '-p', 'tsconfig.test.json'], { maxBuffer: 16 * 1024 * 1024 }, (e, stdout, stderr) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}`.slice(-20_000) }));
    });
    expect(r.code, r.output).toBe(0);
  });
});
