// Validators for the vendored MCP schemas' definitions, compiled to code at build time
// (`build-validators.ts`), one CommonJS module per schema, loaded on first use. Loading it costs
// tens of milliseconds where compiling one definition costs tens to hundreds, and a full run needs
// twenty or more. A missing or stale set (built from another copy of the schema file) is ignored and
// the caller compiles as before. The modules load through V8's code cache (code-cache.ts).
//
// The JSON Schema meta-schemas (2020-12, draft-07) are compiled the same way: every tool schema a
// run meets is checked against one, and ajv compiles a meta-schema in ~0.2 s.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { requireCached } from './code-cache.js';
import { packageRoot } from './package-root.js';

/** Bump when the generated code's shape changes, so old builds are not trusted. */
export const GENERATOR_VERSION = 3;
export const MODULE_FILE = 'validators.cjs';

export interface Manifest {
  generator: number;
  /** sha256 of the schema file the set was compiled from. */
  schemaSha256: string;
  /** Definition name -> the module's export (definition names may hold characters unfit for names). */
  exports: Record<string, string>;
}

const require = createRequire(import.meta.url);

export function validatorsDir(key: string): string {
  return join(packageRoot(), 'dist', 'protocol', 'validators', key);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The precompiled set of one vendored schema, or undefined when there is none for this file's text. */
export function precompiledSet(key: string, schemaText: string): ((definition: string) => ValidateFunction | undefined) | undefined {
  const dir = validatorsDir(key);
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) return undefined;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
  if (manifest.generator !== GENERATOR_VERSION || manifest.schemaSha256 !== sha256(schemaText)) return undefined;
  let mod: Record<string, ValidateFunction> | undefined;
  return (definition) => {
    const name = Object.hasOwn(manifest.exports, definition) ? manifest.exports[definition] : undefined;
    if (!name) return undefined;
    try {
      mod ??= requireCached(join(dir, MODULE_FILE)) as Record<string, ValidateFunction>;
    } catch {
      return undefined;
    }
    return typeof mod[name] === 'function' ? mod[name] : undefined;
  };
}

/** The meta-schema ids a precompiled meta validator stands for, by dialect. */
export const META_SCHEMAS = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema',
} as const;

/** ajv's version: a meta validator compiled by another ajv is not trusted. */
export function ajvVersion(): string {
  return (require('ajv/package.json') as { version: string }).version;
}

const metaCache = new Map<string, ValidateFunction | null>();

/** The build-time validator of a dialect's meta-schema, if it is current. */
export function precompiledMeta(dialect: keyof typeof META_SCHEMAS): ValidateFunction | undefined {
  if (!metaCache.has(dialect)) {
    let found: ValidateFunction | null = null;
    try {
      const dir = validatorsDir(`meta-${dialect}`);
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
      if (manifest.generator === GENERATOR_VERSION && manifest.schemaSha256 === sha256(`ajv ${ajvVersion()}`)) {
        found = (requireCached(join(dir, MODULE_FILE)) as Record<string, ValidateFunction>).meta ?? null;
      }
    } catch {
      found = null;
    }
    metaCache.set(dialect, found);
  }
  return metaCache.get(dialect) ?? undefined;
}
