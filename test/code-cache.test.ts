// The code cache behind the precompiled validators (protocol/code-cache.ts): a second load gets V8's
// code back, a changed module never runs old code, a damaged cache file is only a miss, and a cache
// directory someone else could write to is not used. Each load runs in a fresh Node process (npm test
// builds dist first): within one process V8 reuses its own compilations and would hide the cache.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCacheDir, loadWithCodeCache } from '../protocol/code-cache.js';
import { packageRoot } from '../protocol/package-root.js';
import { precompiledSet } from '../protocol/precompiled-validators.js';

const root = mkdtempSync(join(tmpdir(), 'mcpspec-code-cache-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const CODE_CACHE = pathToFileURL(join(packageRoot(), 'dist', 'protocol', 'code-cache.js')).href;

function moduleFile(name: string, text: string): string {
  const file = join(root, name);
  writeFileSync(file, text);
  return file;
}

/** Loads `file` in a fresh process with the cache in `dir`; its exports' `probe()` and how the cache served it. */
function loadFresh(file: string, dir: string): { cache: string; probe: unknown; files: string[] } {
  const script = `const { loadWithCodeCache } = await import(${JSON.stringify(CODE_CACHE)});
const r = loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(dir)});
console.log(JSON.stringify({ cache: r.cache, probe: r.exports.probe() }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  return { ...(JSON.parse(out) as { cache: string; probe: unknown }), files: readdirSync(dir) };
}

describe('code cache', () => {
  it('a fresh process misses and writes the cache at exit; the next one is served from it', () => {
    const dir = codeCacheDir(mkdtempSync(join(root, 'a-')))!;
    expect(dir).toBeDefined();
    const file = moduleFile('twice.cjs', 'const path = require("node:path");\nexports.probe = () => [path.join("a", "b"), __filename, 41 + 1];\n// ends in a comment');
    const first = loadFresh(file, dir);
    expect(first).toEqual({ cache: 'miss', probe: [join('a', 'b'), file, 42], files: [expect.stringMatching(/^[^/]*-twice\.cjs-[0-9a-f]{32}\.bin$/)] });
    expect(loadFresh(file, dir)).toEqual({ ...first, cache: 'hit' });
  });

  it('never runs the old code of a module changed to text of the same length', () => {
    const dir = codeCacheDir(mkdtempSync(join(root, 'b-')))!;
    const file = moduleFile('same-length.cjs', 'exports.probe = () => 1;');
    expect(loadFresh(file, dir).probe).toBe(1);
    expect(loadFresh(file, dir).cache).toBe('hit');
    writeFileSync(file, 'exports.probe = () => 2;');
    const changed = loadFresh(file, dir);
    expect([changed.cache, changed.probe, changed.files.length]).toEqual(['miss', 2, 2]);
  });

  it('treats a damaged cache file as a miss and replaces it', () => {
    const dir = codeCacheDir(mkdtempSync(join(root, 'c-')))!;
    const file = moduleFile('damaged.cjs', 'exports.probe = function probe() { return "ok"; };');
    const [name] = loadFresh(file, dir).files;
    writeFileSync(join(dir, name), Buffer.from('not a code cache at all, only bytes'));
    expect(loadFresh(file, dir)).toEqual({ cache: 'rejected', probe: 'ok', files: [name] });
    expect(loadFresh(file, dir).cache).toBe('hit');
  });

  it('uses no cache directory that others may write to, or that is a link', () => {
    const open = mkdtempSync(join(root, 'd-'));
    const uid = process.getuid?.() ?? 'user';
    const dir = join(open, `mcpspec-code-cache-${uid}`);
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    expect(codeCacheDir(open)).toBeUndefined();
    chmodSync(dir, 0o755); // readable by others is fine: it holds compiled public code
    expect(codeCacheDir(open)).toBe(dir);

    const linked = mkdtempSync(join(root, 'e-'));
    symlinkSync(mkdtempSync(join(root, 'elsewhere-')), join(linked, `mcpspec-code-cache-${uid}`));
    expect(codeCacheDir(linked)).toBeUndefined();
  });

  it('off without a directory: the module still loads', () => {
    const file = moduleFile('off.cjs', 'exports.x = "x";');
    expect(loadWithCodeCache(file, undefined)).toEqual({ exports: { x: 'x' }, cache: 'off' });
  });

  it('the CLI keeps the validators it loads in the cache, unless NODE_DISABLE_COMPILE_CACHE is set', () => {
    const message = moduleFile('ping.ndjson', '{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    const validate = (tmp: string, extra: Record<string, string>) => execFileSync(process.execPath, [join(packageRoot(), 'dist', 'bin', 'mcpspec.js'), 'schema', 'validate', message, '--def', 'JSONRPCRequest', '--spec-version', '2025-11-25'], { env: { ...process.env, TMPDIR: tmp, ...extra }, encoding: 'utf8', timeout: 30_000 });
    const on = mkdtempSync(join(root, 'f-'));
    expect(validate(on, {})).toContain('1 valid, 0 invalid');
    const [cacheDir] = readdirSync(on);
    expect(readdirSync(join(on, cacheDir))).toEqual([expect.stringMatching(/^2025-11-25-validators\.cjs-[0-9a-f]{32}\.bin$/)]);
    const off = mkdtempSync(join(root, 'g-'));
    expect(validate(off, { NODE_DISABLE_COMPILE_CACHE: '1' })).toContain('1 valid, 0 invalid');
    expect(readdirSync(off)).toEqual([]);
  });

  it('serves the precompiled validators: a message judged the same way through the cache', () => {
    const text = readFileSync(join(packageRoot(), 'fixtures', 'schemas', 'mcp-2025-11-25.schema.json'), 'utf8');
    const validator = precompiledSet('2025-11-25', text)?.('JSONRPCRequest');
    expect(validator).toBeTypeOf('function');
    expect(validator!({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe(true);
    expect(validator!({ jsonrpc: '2.0', method: 'ping' })).toBe(false);
  });
});
