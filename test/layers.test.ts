import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// Data flows one way. Each folder may import only from the folders listed before it; a new import
// against this order (and so any cycle) fails here.
const ORDER = ['protocol', 'results', 'arbitraries', 'suites', 'runner', 'fuzz', 'mutation', 'reports', 'bin', 'bench'];
const ROOT = resolve('.');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (e.endsWith('.ts') && !e.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
}

describe('the folder import graph', () => {
  it('follows the layer order protocol < results < arbitraries < suites < runner < fuzz < mutation < reports < bin < bench', () => {
    const wrong: string[] = [];
    for (const layer of ORDER) {
      for (const file of sources(join(ROOT, layer))) {
        for (const spec of imports(file)) {
          const target = relative(ROOT, resolve(dirname(file), spec)).split(sep)[0];
          if (target === layer || !ORDER.includes(target)) continue;
          if (ORDER.indexOf(target) > ORDER.indexOf(layer)) wrong.push(`${relative(ROOT, file)} imports ${spec} (${layer} -> ${target})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle between files either (type-only imports included)', () => {
    const files = ORDER.flatMap((layer) => sources(join(ROOT, layer))).concat(join(ROOT, 'index.ts'));
    const graph = new Map(files.map((f) => [f, imports(f).map((spec) => resolve(dirname(f), spec.replace(/\.js$/, '.ts')))]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, stack: string[]): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push(stack.slice(stack.indexOf(next)).concat(next).map((f) => relative(ROOT, f)).join(' -> '));
        else if (!state.has(next) && graph.has(next)) visit(next, stack);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it('keeps the reference client independent of mcpspec code', () => {
    const dir = join(ROOT, 'fixtures', 'clients', 'reference');
    const wrong = sources(dir).flatMap((f) => imports(f).filter((s) => !resolve(dirname(f), s).startsWith(dir)).map((s) => `${relative(ROOT, f)} imports ${s}`));
    expect(wrong).toEqual([]);
  });

  it('keeps the reference fixture independent of mcpspec code', () => {
    const wrong = sources(join(ROOT, 'fixtures', 'servers', 'reference')).flatMap((f) => imports(f).filter((s) => !resolve(dirname(f), s).startsWith(join(ROOT, 'fixtures', 'servers', 'reference'))).map((s) => `${relative(ROOT, f)} imports ${s}`));
    expect(wrong).toEqual([]);
  });
});
