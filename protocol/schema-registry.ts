import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv as Ajv07 } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv as AjvCore } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { addMcpFormats } from './formats.js';
import { packageRoot } from './package-root.js';
import { META_SCHEMAS, precompiledMeta, precompiledSet } from './precompiled-validators.js';
import { SPEC_VERSIONS } from './versions.js';

// ajv-formats is CommonJS with only a default export; under NodeNext it sits on `.default`.
type FormatsPlugin = (ajv: AjvCore) => AjvCore;
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

export type AjvInstance = AjvCore;
export type SchemaNode = Record<string, unknown> | boolean;

export { SPEC_VERSIONS, type SpecVersion } from './versions.js';

/** Every vendored schema, by the key users pass to `--spec-version` or `loadSchema`: each spec version's own, then extras. */
export const VENDORED_SCHEMAS: Record<string, string> = {
  ...Object.fromEntries(SPEC_VERSIONS.map((v) => [v, `mcp-${v}.schema.json`])),
  'ext-tasks-2025-11-25': 'mcp-ext-tasks-2025-11-25.schema.json',
  'ext-tasks-draft': 'mcp-ext-tasks-draft.schema.json',
  'rmcp-client-2026-07-28': 'rmcp-client-message-2026-07-28.schema.json',
  'rmcp-server-2026-07-28': 'rmcp-server-message-2026-07-28.schema.json',
};

export class SchemaLookupError extends Error {
  override name = 'SchemaLookupError';
}

export type Dialect = '2020-12' | 'draft-07';
let anonymousDocuments = 0;

/**
 * One JSON Schema document (an MCP schema or any user schema) with its definitions, a resolver for
 * local `$ref`s and lazily compiled, cached ajv validators.
 */
export class SchemaDocument {
  readonly id: string;
  readonly dialect: Dialect;
  /** Where definitions live: `$defs` (2020-12 and some draft-07 files) or `definitions`. */
  readonly defsKey: '$defs' | 'definitions' | undefined;
  private ajvInstance: AjvInstance | undefined;
  private readonly validators = new Map<string, ValidateFunction>();
  private pointers: WeakMap<object, string> | undefined;

  constructor(
    readonly root: Record<string, unknown>,
    readonly source: string,
    /** A vendored schema: not checked against its meta-schema. */
    readonly trusted = false,
    /** Build-time compiled validators of its definitions, when there are current ones. */
    private readonly precompiled?: (definition: string) => ValidateFunction | undefined,
  ) {
    const declared = typeof root.$schema === 'string' ? root.$schema : '';
    this.dialect = declared.includes('draft-07') || declared.includes('draft-06') || declared.includes('draft-04') ? 'draft-07' : '2020-12';
    this.defsKey = isObject(root.$defs) ? '$defs' : isObject(root.definitions) ? 'definitions' : undefined;
    // ajv needs a URI; a file name or label may hold spaces, so anonymous documents get a counter.
    // A document claiming a meta-schema's id (json-schema.org) would collide with ajv's own copy.
    const own = typeof root.$id === 'string' && !/^https?:\/\/json-schema\.org\//.test(root.$id) ? root.$id : undefined;
    this.id = own ?? `mcpspec:schema-${++anonymousDocuments}`;
  }

  /** Names of every definition in the document, in file order. */
  definitions(): string[] {
    return this.defsKey ? Object.keys(this.root[this.defsKey] as object) : [];
  }

  /**
   * A JSON pointer (`#/$defs/X`) for a definition named `X`, `#/$defs/X`, `#/definitions/X`, `$defs/X`
   * or `#` (the document root).
   */
  pointerOf(ref: string): string {
    const trimmed = ref.startsWith(this.id) ? ref.slice(this.id.length) : ref;
    if (trimmed === '#' || trimmed === '') return '#';
    if (trimmed.startsWith('#/') || trimmed.startsWith('/')) {
      const pointer = trimmed.startsWith('#') ? trimmed : `#${trimmed}`;
      if (this.resolvePointer(pointer) === undefined) throw new SchemaLookupError(`no definition at ${pointer} in ${this.source}`);
      return pointer;
    }
    if (!this.defsKey || !Object.hasOwn(this.root[this.defsKey] as object, trimmed)) {
      const near = this.definitions().filter((d) => d.toLowerCase().includes(trimmed.toLowerCase())).slice(0, 5);
      throw new SchemaLookupError(
        `unknown definition "${ref}" in ${this.source}` + (near.length ? ` (did you mean ${near.join(', ')}?)` : ''),
      );
    }
    return `#/${this.defsKey}/${escapePointer(trimmed)}`;
  }

  /** The schema node for a definition name or pointer. */
  definition(ref: string): SchemaNode {
    return this.resolvePointer(this.pointerOf(ref)) as SchemaNode;
  }

  resolvePointer(pointer: string): unknown {
    const path = pointer.replace(/^#/, '');
    if (path === '') return this.root;
    let node: unknown = this.root;
    for (const raw of path.slice(1).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (node === null || typeof node !== 'object') return undefined;
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  }

  /** Follow a `$ref` found inside this document. Only local references are supported. */
  resolveRef(ref: string): SchemaNode {
    const local = ref.startsWith(this.id) ? ref.slice(this.id.length) : ref;
    if (!local.startsWith('#')) throw new SchemaLookupError(`unsupported non-local $ref "${ref}" in ${this.source}`);
    const target = this.resolvePointer(local);
    if (target === undefined) throw new SchemaLookupError(`dangling $ref "${ref}" in ${this.source}`);
    return target as SchemaNode;
  }

  /** The JSON pointer of a node that belongs to this document (used to compile sub-schemas). */
  pointerOfNode(node: object): string | undefined {
    if (!this.pointers) {
      this.pointers = new WeakMap();
      const walk = (n: unknown, p: string): void => {
        if (n === null || typeof n !== 'object') return;
        if (!this.pointers!.has(n)) this.pointers!.set(n, p);
        for (const [k, v] of Object.entries(n)) walk(v, `${p}/${escapePointer(k)}`);
      };
      walk(this.root, '#');
    }
    return this.pointers.get(node);
  }

  get ajv(): AjvInstance {
    if (!this.ajvInstance) {
      // Vendored documents are trusted: checking them against the meta-schema costs ~60 ms each.
      // Others are checked by the build-time meta validator where there is one (ajv would first
      // compile the meta-schema, ~0.2 s), else by ajv itself.
      const shared = sharedAjv(this.dialect);
      // Checked here once; the instances never check again (their `{ $ref }` wrappers need no check).
      if (!this.trusted && !this.passesPrecompiledMeta(shared.ajv)) shared.ajv.validateSchema({ ...this.root, $id: this.id }, true);
      if (!shared.has(this.id) && !isKnownTo(shared.ajv, this.id)) {
        shared.ajv.addSchema({ ...this.root, $id: this.id }, this.id, undefined, false);
        shared.added.add(this.id);
        this.ajvInstance = shared.ajv;
      } else {
        // Another document already owns this $id (two tools naming the same one): keep them apart.
        const ajv = newAjv(this.dialect);
        ajv.addSchema({ ...this.root, $id: this.id }, this.id, undefined, false);
        this.ajvInstance = ajv;
      }
    }
    return this.ajvInstance;
  }

  /**
   * True when the build-time meta validator of this document's dialect accepts it; throws ajv's own
   * "schema is invalid" error when it does not; false when there is no such validator to ask.
   */
  private passesPrecompiledMeta(ajv: AjvInstance): boolean {
    const declared = typeof this.root.$schema === 'string' ? this.root.$schema.replace(/#$/, '') : undefined;
    if (declared !== undefined && declared !== META_SCHEMAS[this.dialect]) return false;
    const meta = precompiledMeta(this.dialect);
    if (!meta) return false;
    if (!meta(this.root)) throw new Error(`schema is invalid: ${ajv.errorsText(meta.errors)}`);
    return true;
  }

  /** A compiled validator for a definition name or pointer; compiled on first use and cached. */
  validator(ref: string): ValidateFunction {
    const pointer = this.pointerOf(ref);
    const hit = this.validators.get(pointer);
    if (hit) return hit;
    const got = this.precompiledAt(pointer) ?? this.ajv.getSchema(`${this.id}${pointer}`);
    if (!got) throw new SchemaLookupError(`cannot compile ${pointer} in ${this.source}`);
    this.validators.set(pointer, got);
    return got;
  }

  /** A validator for an arbitrary node of this document, or a list of nodes that must all hold. */
  validatorForNodes(nodes: SchemaNode[]): ValidateFunction {
    const parts = nodes.map((n) => {
      if (typeof n === 'boolean') return n;
      const p = this.pointerOfNode(n);
      return p ? { $ref: `${this.id}${p}` } : n;
    });
    const key = JSON.stringify(parts);
    const hit = this.validators.get(key);
    if (hit) return hit;
    if (nodes.length === 1 && typeof nodes[0] === 'object') {
      const pointer = this.pointerOfNode(nodes[0]);
      const ready = pointer ? this.precompiledAt(pointer) : undefined;
      if (ready) {
        this.validators.set(key, ready);
        return ready;
      }
    }
    const compiled = this.ajv.compile(parts.length === 1 && typeof parts[0] === 'object' ? (parts[0] as object) : { allOf: parts });
    this.validators.set(key, compiled);
    return compiled;
  }

  /** The build-time validator for a definition's pointer (`#/$defs/X`), if there is one. */
  private precompiledAt(pointer: string): ValidateFunction | undefined {
    if (!this.precompiled || !this.defsKey) return undefined;
    const prefix = `#/${this.defsKey}/`;
    if (!pointer.startsWith(prefix) || pointer.indexOf('/', prefix.length) !== -1) return undefined;
    return this.precompiled(pointer.slice(prefix.length).replace(/~1/g, '/').replace(/~0/g, '~'));
  }

  validate(ref: string, value: unknown): { valid: boolean; errors: ErrorObject[] } {
    const v = this.validator(ref);
    const valid = v(value) as boolean;
    return { valid, errors: valid ? [] : [...(v.errors ?? [])] };
  }
}

function newAjv(dialect: Dialect): AjvInstance {
  const options = { allErrors: true, strict: false, validateFormats: true, logger: false, validateSchema: false } as const;
  const ajv: AjvInstance = dialect === 'draft-07' ? new Ajv07(options) : new Ajv2020(options);
  addFormats(ajv);
  addMcpFormats(ajv);
  return ajv;
}

/**
 * One ajv instance per dialect holds every document: a new instance costs 50 ms or more (its
 * meta-schemas and formats), and a run compiles a document for every tool schema it sees. After
 * MAX_SHARED documents a fresh instance takes over, so long fuzz campaigns do not grow without bound.
 */
const MAX_SHARED = 500;
const shared = new Map<Dialect, { ajv: AjvInstance; added: Set<string>; has(id: string): boolean }>();

function sharedAjv(dialect: Dialect) {
  let entry = shared.get(dialect);
  if (!entry || entry.added.size >= MAX_SHARED) {
    const added = new Set<string>();
    entry = { ajv: newAjv(dialect), added, has: (id: string) => added.has(id) };
    shared.set(dialect, entry);
  }
  return entry;
}

/** Whether ajv already holds a schema (a meta-schema, say) under this id. */
function isKnownTo(ajv: AjvInstance, id: string): boolean {
  const held = ajv as unknown as { schemas: Record<string, unknown>; refs: Record<string, unknown> };
  return id in held.schemas || id in held.refs;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

const cache = new Map<string, SchemaDocument>();

/** Load a vendored schema by spec version (`2026-07-28`) or key (`ext-tasks-draft`). */
export function loadSchema(key: string): SchemaDocument {
  const file = VENDORED_SCHEMAS[key];
  if (!file) {
    throw new SchemaLookupError(`unknown schema "${key}"; known: ${Object.keys(VENDORED_SCHEMAS).join(', ')}`);
  }
  return loadFile(join(packageRoot(), 'fixtures', 'schemas', file), key, key);
}

/** Load any JSON Schema document from a file. */
export function loadSchemaFile(path: string, label?: string): SchemaDocument {
  return loadFile(path, label);
}

function loadFile(path: string, label?: string, vendoredKey?: string): SchemaDocument {
  const full = resolve(path);
  let doc = cache.get(full);
  if (!doc) {
    let text: string;
    try {
      text = readFileSync(full, 'utf8');
    } catch (e) {
      throw new SchemaLookupError(`cannot read schema file ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    let root: unknown;
    try {
      root = JSON.parse(text);
    } catch (e) {
      throw new SchemaLookupError(`schema file ${path} is not JSON: ${(e as Error).message}`);
    }
    if (!isObject(root)) throw new SchemaLookupError(`schema file ${path} does not hold a JSON object`);
    doc = new SchemaDocument(root, label ?? path, vendoredKey !== undefined, vendoredKey ? precompiledSet(vendoredKey, text) : undefined);
    cache.set(full, doc);
  }
  return doc;
}

/** Wrap an in-memory schema (e.g. a tool's inputSchema) as a document of its own. */
export function schemaFromObject(schema: Record<string, unknown>, label = 'inline schema'): SchemaDocument {
  // One document per schema: a tool's schema is checked, generated from and validated against by
  // different scenarios, each holding its own copy from its own tools/list, and each document
  // compiles on its own (ajv: a few ms per schema). Equal schemas share a document, so callers
  // must use `doc.root` (not their own copy) where a node's identity matters.
  let doc = inlineDocuments.get(schema);
  if (doc) return doc;
  const text = JSON.stringify(schema);
  doc = inlineByText.get(text);
  if (!doc) {
    if (inlineByText.size >= MAX_INLINE_DOCUMENTS) inlineByText.clear();
    inlineByText.set(text, (doc = new SchemaDocument(schema, label)));
  }
  inlineDocuments.set(schema, doc);
  return doc;
}

const inlineDocuments = new WeakMap<object, SchemaDocument>();
const inlineByText = new Map<string, SchemaDocument>();
/** Past this many distinct schemas (a long fuzz campaign), older documents are let go. */
const MAX_INLINE_DOCUMENTS = 1000;
