// Build step (after tsc): compile every definition of the vendored MCP schemas to standalone
// validator code in dist/protocol/validators/<key>/ (see precompiled-validators.ts). A schema whose
// set is already current is skipped, so repeated builds cost nothing.
//
// Schemas using mcpspec's own formats (the Rust SDK's int32, float, ...) are left to runtime
// compilation: generated code can reach ajv-formats' formats but not functions defined here.

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv as Ajv07, _ } from 'ajv';
import type { Ajv as AjvCore } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { packageRoot } from './package-root.js';
import { ajvVersion, GENERATOR_VERSION, META_SCHEMAS, MODULE_FILE, sha256, validatorsDir, type Manifest } from './precompiled-validators.js';
import { SPEC_VERSIONS } from './versions.js';

type Standalone = (ajv: AjvCore, refs: Record<string, string>) => string;
const standaloneCode: Standalone = (standaloneModule as unknown as { default?: Standalone }).default ?? (standaloneModule as unknown as Standalone);
type FormatsPlugin = (ajv: AjvCore) => AjvCore;
const addFormats: FormatsPlugin = (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

/** The vendored schemas compiled ahead: every spec version's and the tasks extension's. */
export const PRECOMPILED: Record<string, string> = {
  ...Object.fromEntries(SPEC_VERSIONS.map((v) => [v, `mcp-${v}.schema.json`])),
  'ext-tasks-2025-11-25': 'mcp-ext-tasks-2025-11-25.schema.json',
  'ext-tasks-draft': 'mcp-ext-tasks-draft.schema.json',
};

/** Whether the set of `key` was built by this generator from input with this hash. */
function isCurrent(key: string, hash: string): boolean {
  try {
    const old = JSON.parse(readFileSync(join(validatorsDir(key), 'manifest.json'), 'utf8')) as Manifest;
    return old.generator === GENERATOR_VERSION && old.schemaSha256 === hash;
  } catch {
    return false; // no usable set yet
  }
}

function newAjv(draft07: boolean): AjvCore {
  // Same options as SchemaDocument's runtime instance, plus code generation.
  const options = {
    allErrors: true,
    strict: false,
    validateFormats: true,
    logger: false,
    validateSchema: false,
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  } as const;
  const ajv: AjvCore = draft07 ? new Ajv07(options) : new Ajv2020(options);
  addFormats(ajv);
  return ajv;
}

function write(key: string, hash: string, code: string, exports: Record<string, string>): void {
  const dir = validatorsDir(key);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MODULE_FILE), code);
  // The manifest goes last: a half-written set has none and is ignored.
  const manifest: Manifest = { generator: GENERATOR_VERSION, schemaSha256: hash, exports };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
}

function buildMeta(dialect: keyof typeof META_SCHEMAS): 'built' | 'current' {
  const key = `meta-${dialect}`;
  const hash = sha256(`ajv ${ajvVersion()}`);
  if (isCurrent(key, hash)) return 'current';
  const ajv = newAjv(dialect === 'draft-07');
  write(key, hash, standaloneCode(ajv, { meta: META_SCHEMAS[dialect] }), { meta: 'meta' });
  return 'built';
}

function build(key: string, file: string): 'built' | 'current' {
  const text = readFileSync(join(packageRoot(), 'fixtures', 'schemas', file), 'utf8');
  const hash = sha256(text);
  if (isCurrent(key, hash)) return 'current';
  const root = JSON.parse(text) as Record<string, unknown>;
  const ajv = newAjv(String(root.$schema ?? '').includes('draft-07'));
  const id = 'mcpspec:precompiled';
  ajv.addSchema({ ...root, $id: id }, id);
  const defsKey = root.$defs ? '$defs' : 'definitions';
  // One module per schema: per-definition modules would each repeat every definition they reach.
  const exports: Record<string, string> = {};
  const refs: Record<string, string> = {};
  for (const [i, name] of Object.keys(root[defsKey] as object).entries()) {
    exports[name] = `d${i}`;
    refs[`d${i}`] = `${id}#/${defsKey}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  }
  write(key, hash, standaloneCode(ajv, refs), exports);
  return 'built';
}

const started = Date.now();
const outcome = [
  ...Object.entries(PRECOMPILED).map(([key, file]) => `${key} ${build(key, file)}`),
  ...(['2020-12', 'draft-07'] as const).map((d) => `meta-${d} ${buildMeta(d)}`),
];
if (outcome.some((o) => o.endsWith('built'))) console.error(`validators: ${outcome.join(', ')} (${Date.now() - started} ms)`);
