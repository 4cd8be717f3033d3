// Repro files: a finding's minimal sequence, versioned JSON, and `replay()`, which runs it again on a
// fresh target (the same one or another) and says whether the same rule still breaks.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IdStyle } from '../arbitraries/sequences.js';
import type { FuzzStep } from '../arbitraries/fuzz-sequences.js';
import { isSpecVersion, type SpecVersion } from '../protocol/versions.js';
import type { TargetInfo } from '../results/run.js';
import { ParamHeaderBook, type ParamHeaderTable } from '../runner/param-header-book.js';
import { runSequence, targetFactory, type ListedPrompt, type Observation, type SequenceOutcome } from './run-sequence.js';
import { ruleOf, type OracleId } from './oracles.js';
import { Recorder } from '../runner/recorder.js';
import type { ServerTarget } from '../runner/server-driver.js';
import type { StartCommand } from '../runner/started-http.js';
import { makeSandbox, type EnvOptions } from '../runner/target-env.js';

// 2: findings name the check that broke (and de-duplicate by it); version 1 named fuzz-only oracles.
export const REPRO_VERSION = 2;

export interface Repro {
  reproVersion: typeof REPRO_VERSION;
  tool: { name: 'mcpspec'; version: string };
  /** The target the sequence was found on. */
  target: TargetInfo;
  /** The version whose rules judged it (and that replay speaks). */
  specVersion: SpecVersion;
  era: 'legacy' | 'modern';
  /** fast-check seed and path of the shrunk sequence (the campaign's chunk seed). */
  seed: number;
  path: string;
  finding: { key: string; oracle: OracleId; check: string; requirements: string[]; spec: string; level: 'MUST' | 'SHOULD'; method: string; message: string; title: string };
  /** Whether `steps` is the shrunk sequence (false: the generated one, cut after the step that broke the rule). */
  shrunk: boolean;
  /** What the server declared at discovery: which oracles judged the sequence. */
  capabilities?: Record<string, unknown>;
  /**
   * The minimal sequence. Ids the session chooses are implicit (its counter), unusual ids are given by
   * style; `resources/read` steps refer symbolically to a listed resource (`{ ref: 'resource', index }`).
   */
  steps: FuzzStep[];
  /** The id style of the sequence (ID_THEMES; absent: the session's counter, as in older repros). */
  idTheme?: IdStyle;
  /** What the steps sent when the finding was made, resolved (for reading; replay resolves afresh). */
  sent: unknown[];
  /** Resource URIs the target listed at discovery (what `read` steps refer to before a resources/list in the sequence). */
  resources: string[];
  /** Prompts and resource templates listed at discovery (what prompts/get and completion/complete steps refer to first). */
  prompts?: ListedPrompt[];
  templates?: string[];
  /** x-mcp-header declarations of the tools listed at discovery: over HTTP the replay's tools/call requests carry the same Mcp-Param-* headers. */
  toolHeaders?: ParamHeaderTable;
  evidence: Observation['evidence'];
  timeoutMs: number;
  /** HTTP: the command that started a fresh server for each run (`--start`); replay starts it again. */
  start?: StartCommand;
}

export class ReproFormatError extends Error {
  override readonly name = 'ReproFormatError';
}

function slug(s: string): string {
  return s.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
}

/** Write a repro into `dir`; returns its path. */
export function writeRepro(dir: string, repro: Repro): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `repro-${slug(repro.finding.oracle)}-${slug(repro.finding.method)}.json`);
  writeFileSync(path, `${JSON.stringify(repro, null, 2)}\n`);
  return path;
}

export function readRepro(path: string): Repro {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ReproFormatError(`cannot read the repro ${path}: ${(e as Error).message}`);
  }
  return parseRepro(data, path);
}

export function parseRepro(data: unknown, where = 'repro'): Repro {
  const r = data as Partial<Repro>;
  if (typeof r !== 'object' || r === null) throw new ReproFormatError(`${where} is not a JSON object`);
  if ((r.reproVersion as number | undefined) === 1) throw new ReproFormatError(`${where}: a reproVersion 1 repro (made before findings named their checks) cannot be replayed by this mcpspec; run the campaign again with the same --seed`);
  if (r.reproVersion !== REPRO_VERSION) throw new ReproFormatError(`${where}: reproVersion ${JSON.stringify(r.reproVersion)} is not supported (expected ${REPRO_VERSION})`);
  if (!isSpecVersion(r.specVersion)) throw new ReproFormatError(`${where}: specVersion ${JSON.stringify(r.specVersion)} is not a known version`);
  if (!Array.isArray(r.steps) || r.steps.length === 0) throw new ReproFormatError(`${where}: no steps`);
  if (!r.finding || typeof r.finding.key !== 'string' || typeof r.finding.check !== 'string') throw new ReproFormatError(`${where}: the finding names no check`);
  try {
    ruleOf(r.finding.check);
  } catch {
    throw new ReproFormatError(`${where}: the finding names ${JSON.stringify(r.finding.check)}, which is no check of this mcpspec`);
  }
  return r as Repro;
}

export interface ReplayOptions {
  /** Per-request timeout (default: the repro's). */
  timeoutMs?: number;
  env?: EnvOptions;
  /**
   * HTTP: start the server with this command for the replay (and stop it after). Default: the
   * repro's own start command when replaying on the repro's target; none for another target.
   */
  start?: StartCommand;
  signal?: AbortSignal;
}

export interface ReplayResult {
  /** The same rule broke again at the same method: the bug is still there. */
  reproduced: boolean;
  /** Everything the replay observed (other rules may break too). */
  observations: Observation[];
  outcome: SequenceOutcome;
  target: TargetInfo;
}

function fromTargetInfo(t: TargetInfo): ServerTarget {
  if (t.role !== 'server') throw new ReproFormatError('the repro names a client target; only servers can be replayed');
  return t.transport === 'stdio' ? { kind: 'stdio', command: t.command, args: t.args } : { kind: 'http', url: t.url };
}

/**
 * Replay a repro's sequence on a fresh target: the repro's own target unless another is given.
 * Throws TargetStartError/HandshakeError when the target cannot be started at all.
 */
export async function replay(repro: Repro | string, target?: ServerTarget, opts: ReplayOptions = {}): Promise<ReplayResult> {
  const r = typeof repro === 'string' ? readRepro(repro) : parseRepro(repro);
  const spec = target ?? fromTargetInfo(r.target);
  const start = opts.start ?? (target === undefined ? r.start : undefined);
  if (start && spec.kind !== 'http') throw new ReproFormatError('a start command goes with an HTTP target only');
  const sandbox = spec.kind === 'stdio' ? makeSandbox(opts.env, spec.cwd) : start ? makeSandbox(opts.env) : undefined;
  const timeoutMs = opts.timeoutMs ?? r.timeoutMs;
  // A split write shows a read-splitting bug only if the target reads the pieces apart, which a
  // loaded machine may not do: such a repro gets up to three attempts (one showing it is enough).
  const attempts = r.steps.some((s) => s.kind === 'split') ? 3 : 1;
  try {
    for (let attempt = 1; ; attempt++) {
      const result = await replayOnce();
      if (result.reproduced || attempt >= attempts || opts.signal?.aborted) return result;
    }
  } finally {
    sandbox?.dispose();
  }

  async function replayOnce(): Promise<ReplayResult> {
    const outcome = await runSequence(r.steps, {
      factory: targetFactory(spec, sandbox, start, timeoutMs, new ParamHeaderBook(r.toolHeaders)),
      version: r.specVersion,
      timeoutMs,
      resources: r.resources ?? [],
      prompts: r.prompts ?? [],
      templates: r.templates ?? [],
      parent: new Recorder(),
      source: 'replay',
      signal: opts.signal,
      idTheme: r.idTheme,
      era: r.era,
      capabilities: r.capabilities,
    });
    if (outcome.startFailure) throw new ReproFormatError(`the target could not be started for the replay: ${outcome.startFailure}`);
    const observations = outcome.observations;
    return { reproduced: observations.some((o) => o.key === r.finding.key), observations, outcome, target: spec.kind === 'stdio' ? { role: 'server', transport: 'stdio', command: spec.command, args: spec.args } : { role: 'server', transport: 'http', url: spec.url } };
  }
}
