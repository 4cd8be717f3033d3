// skills.*: the judges on hand-made observations (a conformant server's, then one broken rule at a
// time), and the pure helpers they rest on (naming rules, front matter, digests).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JudgeContext } from '../../suites/kit/check.js';
import type { Exchange } from '../../suites/ports/session.js';
import { entryProblems, frontMatter, isRegName, sameJson, skillNameOf, skillsChecks, validSkillName } from '../../suites/skills/checks.js';
import { skillsClientChecks } from '../../suites/skills/client-checks.js';
import type { SkillsClientObs, TamperedClientObs, TamperedSkill } from '../../suites/skills/client-scenarios.js';
import { UNKNOWN_SKILL_URI, type SkillsObs } from '../../suites/skills/scenario.js';

const ctx: JudgeContext = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: { resources: {}, extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } } } };
const judge = (id: string, o: SkillsObs) => skillsChecks.find((c) => c.id === id)!.judge(o, ctx);

let seq = 0;
function ex(method: string, params: Record<string, unknown>, answer: { result?: Record<string, unknown>; error?: { code: number; message: string } }): Exchange {
  const id = ++seq;
  const response = { jsonrpc: '2.0', id, ...answer };
  return { id, request: { jsonrpc: '2.0', id, method, params }, method, response, messages: [response], timedOut: false, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [id] };
}
const ok = (result: Record<string, unknown>) => ({ result: { resultType: 'complete', ttlMs: 60_000, cacheScope: 'private', ...result } });
const err = (code: number) => ({ error: { code, message: 'no' } });
const sha = (t: string) => `sha256:${createHash('sha256').update(t, 'utf8').digest('hex')}`;

const MD = '---\nname: pdf-tools\ndescription: Fill PDF forms.\nmetadata:\n  owner: qa\n---\n\n# PDF tools\n';
const FORMS = 'Field list.\n';
const URI = 'skill://pdf-tools/SKILL.md';
const FORMS_URI = 'skill://pdf-tools/ref/FORMS.md';

function entry(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uri: URI,
    frontmatter: { name: 'pdf-tools', description: 'Fill PDF forms.', metadata: { owner: 'qa' } },
    resources: [{ uri: URI, digest: sha(MD), size: Buffer.byteLength(MD) }, { uri: FORMS_URI, digest: sha(FORMS), size: Buffer.byteLength(FORMS) }],
    ...over,
  };
}

/** A conformant server's observations; `tweak` breaks one thing. */
function observed(opts: { entries?: Record<string, unknown>[]; md?: string; mime?: string; forms?: string; unknown?: Exchange; get?: Exchange; subMime?: string; fileDir?: Exchange; settings?: unknown } = {}): SkillsObs {
  const entries = opts.entries ?? [entry()];
  const e = entries[0] ?? entry();
  const read = (uri: string, text: string, mimeType = 'text/markdown') => ex('resources/read', { uri }, ok({ contents: [{ uri, mimeType, text }] }));
  return {
    settings: opts.settings ?? { directoryRead: true },
    resourcesDeclared: true,
    list: { pages: [ex('skills/list', {}, ok({ skills: entries }))], entries, endless: false },
    get: { uri: URI, ex: opts.get ?? ex('skills/get', { uri: URI }, ok({ skill: e })) },
    unknownGet: opts.unknown ?? ex('skills/get', { uri: UNKNOWN_SKILL_URI }, err(-32602)),
    manifests: [{ skill: URI, uri: URI, listed: (e.resources as Record<string, unknown>[])[0], read: read(URI, opts.md ?? MD, opts.mime) }],
    files: [{ skill: URI, uri: FORMS_URI, listed: (e.resources as Record<string, unknown>[])[1], read: read(FORMS_URI, opts.forms ?? FORMS) }],
    directory: {
      uri: 'skill://pdf-tools',
      pages: [ex('resources/directory/read', { uri: 'skill://pdf-tools' }, ok({ resources: [] }))],
      children: [{ uri: URI, name: 'SKILL.md', mimeType: 'text/markdown' }, { uri: 'skill://pdf-tools/ref', name: 'ref', mimeType: opts.subMime ?? 'inode/directory' }],
      endless: false,
    },
    notADirectory: { uri: URI, ex: opts.fileDir ?? ex('resources/directory/read', { uri: URI }, err(-32602)) },
  };
}

describe('skills judges on a conformant server', () => {
  it('every check passes, none vacuously', () => {
    for (const c of skillsChecks) expect(c.judge(observed(), ctx), c.id).toMatchObject({ outcome: 'holds' });
  });
});

describe('skills judges find each broken rule', () => {
  it('skills.declared-served: skills/get unanswered, no cache hints, a non-object declaration', () => {
    expect(judge('skills.declared-served', observed({ get: ex('skills/get', { uri: URI }, err(-32601)) }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('-32601') });
    const noHints = observed();
    noHints.list.pages = [ex('skills/list', {}, { result: { resultType: 'complete', skills: [entry()] } })];
    expect(judge('skills.declared-served', noHints)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('ttlMs/cacheScope') });
    expect(judge('skills.declared-served', { ...observed(), settings: true })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('not a settings object') });
    expect(judge('skills.declared-served', { ...observed(), resourcesDeclared: false })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('resources capability') });
  });

  it('skills.entry-shape: missing own item, bad digest, name mismatch, "dynamic" allowed, duplicates across pages', () => {
    const noOwn = entry({ resources: [(entry().resources as unknown[])[1]] });
    expect(judge('skills.entry-shape', observed({ entries: [noOwn] }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining("skill's own uri") });
    expect(entryProblems(entry({ resources: [{ uri: URI, digest: 'sha256:ABC', size: 3 }] }))).toEqual([expect.stringContaining('not sha256:<64 lowercase hex>')]);
    expect(entryProblems(entry({ uri: 'skill://pdf/SKILL.md' }))[0]).toContain('is not frontmatter.name');
    expect(entryProblems(entry({ resources: 'dynamic' }))).toEqual([]);
    expect(entryProblems(entry({ resources: [{ uri: URI, digest: sha(MD), size: 1 }, { uri: 'skill://other/x.md', digest: sha(''), size: 0 }] }))).toEqual([expect.stringContaining('outside the skill')]);
    const twice = observed();
    twice.list.pages = [ex('skills/list', {}, ok({ skills: [entry()], nextCursor: 'c' })), ex('skills/list', { cursor: 'c' }, ok({ skills: [entry()] }))];
    twice.list.entries = [entry(), entry()];
    expect(judge('skills.entry-shape', twice)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('listed 2 times') });
    expect(judge('skills.entry-shape', { ...observed({ entries: [] }), manifests: [], files: [] })).toMatchObject({ outcome: 'untestable' });
  });

  it('skills.get: a wrong code for an unserved uri, a cursor, another entry', () => {
    expect(judge('skills.get', observed({ unknown: ex('skills/get', { uri: UNKNOWN_SKILL_URI }, err(-32002)) }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('-32002') });
    expect(judge('skills.get', observed({ get: ex('skills/get', { uri: URI }, ok({ skill: entry(), nextCursor: 'x' })) }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('nextCursor') });
    expect(judge('skills.get', observed({ get: ex('skills/get', { uri: URI }, ok({ skill: entry({ frontmatter: { name: 'pdf-tools', description: 'other' } }) })) }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('differs') });
    // A failed skills/get of a listed skill is skills.declared-served's to judge.
    expect(judge('skills.get', observed({ get: ex('skills/get', { uri: URI }, err(-32601)) }))).toMatchObject({ outcome: 'untestable' });
  });

  it('skills.manifest: no front matter, a front matter other than the entry\'s', () => {
    expect(judge('skills.manifest', observed({ md: '# no front matter\n' }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('does not begin') });
    const other = entry({ frontmatter: { name: 'pdf-tools', description: 'Fill PDF forms.' } });
    expect(judge('skills.manifest', observed({ entries: [other] }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('differs from the file\'s in metadata') });
  });

  it('skills.digest-size: bytes other than listed', () => {
    expect(judge('skills.digest-size', observed({ forms: 'Field list!\n' }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('hash to') });
    expect(judge('skills.digest-size', observed({ forms: 'Field list, longer.\n' }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('bytes served') });
  });

  it('skills.conventions: another scheme, duplicate names, SKILL.md not text/markdown', () => {
    expect(judge('skills.conventions', observed({ mime: 'text/plain' }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('text/markdown') });
    const dup = observed({ entries: [entry(), entry({ uri: 'skill://team/pdf-tools/SKILL.md' })] });
    expect(judge('skills.conventions', dup)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('served 2 times') });
    expect(judge('skills.conventions', observed({ entries: [entry({ uri: 'https://x.example/pdf-tools/SKILL.md' })] }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('skill:// scheme') });
    const reserved = entry({ frontmatter: { name: 'pdf-tools', description: 'Fill PDF forms.', metadata: { 'io.modelcontextprotocol/x': 1 } } });
    expect(judge('skills.conventions', observed({ entries: [reserved] }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('reserved') });
  });

  it('skills.directory-read: a subdirectory not inode/directory, a file read as a directory; skipped without directoryRead', () => {
    expect(judge('skills.directory-read', observed({ subMime: 'text/plain' }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('inode/directory') });
    expect(judge('skills.directory-read', observed({ fileDir: ex('resources/directory/read', { uri: URI }, ok({ resources: [] })) }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('not -32602') });
    expect(judge('skills.directory-read', observed({ settings: {} }))).toMatchObject({ outcome: 'skip' });
  });
});

describe('skills helpers', () => {
  it('naming rules, reg-names, skill names from URIs', () => {
    for (const ok of ['a', 'pdf-tools', 'x1', 'a'.repeat(64)]) expect(validSkillName(ok), ok).toBe(true);
    for (const bad of ['', '-a', 'a-', 'a--b', 'PDF', 'a_b', 'a'.repeat(65)]) expect(validSkillName(bad), bad).toBe(false);
    expect(isRegName('acme.example')).toBe(true);
    expect(isRegName('a b')).toBe(false);
    expect(skillNameOf('skill://acme/tools/pdf/SKILL.md')).toBe('pdf');
    expect(skillNameOf('skill://pdf/README.md')).toBeUndefined();
  });

  it('front matter: parsed from a leading --- block (BOM allowed), compared key order aside', () => {
    expect(frontMatter(`\ufeff${MD}`)).toEqual({ name: 'pdf-tools', description: 'Fill PDF forms.', metadata: { owner: 'qa' } });
    expect(frontMatter('---\n: [\n---\n')).toEqual(expect.stringContaining('not valid YAML'));
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  });
});

describe('client.skills-no-prefetch', () => {
  const files = ['skill://s/SKILL.md', 'skill://s/notes/NOTES.md'];
  const exit = { exitCode: 0, signal: null, timedOut: false, stderrTail: '', stdoutTail: '' };
  const got = (methods: [string, Record<string, unknown>][]): SkillsClientObs =>
    ({ exit, transport: 'stdio', received: methods.map(([method, params], i) => ({ message: { jsonrpc: '2.0', id: i, method, params }, connection: 1, seq: i })), log: {} as SkillsClientObs['log'], skillFiles: files });
  const noPrefetch = skillsClientChecks.find((c) => c.id === 'client.skills-no-prefetch')!;
  const verdict = (o: SkillsClientObs) => noPrefetch.judge(o as never, { ...ctx, capabilities: {} });

  it('passes a host that lists skills and reads none of their files (other resources are its business)', () => {
    expect(verdict(got([['server/discover', {}], ['skills/list', {}], ['resources/read', { uri: 'mcpspec://scripted/readme' }]]))).toMatchObject({ outcome: 'holds' });
  });
  it('fails a host that reads a listed skill file with no need for it', () => {
    expect(verdict(got([['skills/list', {}], ['resources/read', { uri: files[1] }]]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining(files[1]) });
  });
  it('leaves untestable a client that never lists skills', () => {
    expect(verdict(got([['server/discover', {}], ['tools/list', {}]]))).toMatchObject({ outcome: 'untestable' });
  });
});

describe('client.skills-verified', () => {
  const skills: TamperedSkill[] = (['digest', 'size', 'frontmatter'] as const).map((t) => ({ tampering: t, skillMd: `skill://t-${t}/SKILL.md`, supporting: `skill://t-${t}/reference/GUIDE.md` }));
  const exit = { exitCode: 0, signal: null, timedOut: false, stderrTail: '', stdoutTail: '' };
  const reads = (uris: string[]): TamperedClientObs =>
    ({ exit, transport: 'stdio', received: [['skills/list', {}] as const, ...uris.map((uri) => ['resources/read', { uri }] as const)].map(([method, params], i) => ({ message: { jsonrpc: '2.0', id: i, method, params }, connection: 1, seq: i })), log: {} as TamperedClientObs['log'], skills });
  const verified = skillsClientChecks.find((c) => c.id === 'client.skills-verified')!;
  const verdict = (o: TamperedClientObs) => verified.judge(o as never, { ...ctx, capabilities: {} });

  it('passes a host that reads each tampered SKILL.md and goes no further', () => {
    expect(verdict(reads(skills.map((k) => k.skillMd)))).toMatchObject({ outcome: 'holds', message: expect.stringContaining('3 skill(s)') });
  });
  it('fails a host that reads a skill\'s supporting file after its SKILL.md failed, naming how it failed', () => {
    expect(verdict(reads([skills[0].skillMd, skills[1].skillMd, skills[1].supporting]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('size') });
  });
  it('does not count a supporting file read before SKILL.md (that is prefetching, judged elsewhere), and leaves untestable a host that loads nothing', () => {
    expect(verdict(reads([skills[2].supporting, skills[2].skillMd]))).toMatchObject({ outcome: 'holds' });
    expect(verdict(reads([]))).toMatchObject({ outcome: 'untestable' });
  });
});
