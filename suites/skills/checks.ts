// skills.*: the skills extension io.modelcontextprotocol/skills (SEP-2640, Final), judged on the
// skills scenario. Requirement IDs SK-01..SK-11 are the project's supplement
// (docs/requirements-skills.md): the shared digest has no skills section. Every check needs the
// server to declare the extension (2026-07-28: capabilities.extensions of server/discover).

import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, skip, untestable, violated, type Judgement } from '../kit/check.js';
import { errorCode, evidence, isObj, outcome, resultOf, unanswerable } from '../kit/exchange.js';
import { firstOffenders } from '../kit/judge.js';
import type { Exchange } from '../ports/session.js';
import { DIRECTORY_MIME, listedFiles, listResults, SKILL_MD, skillDirectory, skillsScenario, SKILLS_EXTENSION, UNKNOWN_SKILL_URI, type DirectoryRead, type FileRead, type SkillsObs } from './scenario.js';

export const SKILLS_SPEC = 'https://modelcontextprotocol.io/seps/2640-skills-extension';
const REQUIRES = { extensions: [SKILLS_EXTENSION] };

type Obj = Record<string, unknown>;

/** A problem found in what the server served, with the evidence it rests on. */
interface Problem {
  what: string;
  ev: Evidence;
}

function judgeProblems(problems: Problem[], summary: (n: number) => string, passed: string): Judgement {
  if (problems.length === 0) return holds(passed);
  const shown = firstOffenders(problems);
  return violated(`${summary(problems.length)}: ${shown.map((p) => p.what).join('; ')}${problems.length > shown.length ? ` (+${problems.length - shown.length} more)` : ''}`, shown.map((p) => p.ev));
}

// ---------------------------------------------------------------------------------------------
// Pure helpers over skill entries and files

/** Agent Skills naming: 1-64 characters, lowercase letters, digits and hyphens, no hyphen first, last or doubled. */
export function validSkillName(name: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/.test(name) && !name.includes('--');
}

/** An RFC 3986 reg-name: unreserved, percent-encoded and sub-delims characters only. */
export function isRegName(s: string): boolean {
  return /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/.test(s);
}

/** The skill-path segments of a uri (what follows "scheme://"), or undefined without "://". */
export function skillPath(uri: string): string[] | undefined {
  const at = uri.indexOf('://');
  return at < 0 ? undefined : uri.slice(at + 3).split('/').filter((s) => s.length > 0);
}

/** The skill name a uri ending in /SKILL.md carries (its final skill-path segment), or undefined. */
export function skillNameOf(uri: string): string | undefined {
  const segs = skillPath(uri);
  return segs && segs.length >= 2 && segs[segs.length - 1] === SKILL_MD ? segs[segs.length - 2] : undefined;
}

export const DIGEST = /^sha256:[0-9a-f]{64}$/;

export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The raw bytes of the first content of a resources/read result (text as UTF-8, blob decoded), or why there are none. */
export function servedBytes(read: Exchange): { bytes: Uint8Array; text?: string; mimeType?: unknown } | string {
  const r = resultOf(read);
  if (!r) return outcome(read);
  const c = Array.isArray(r.contents) ? r.contents.find(isObj) : undefined;
  if (!c) return 'a result with no contents';
  if (typeof c.text === 'string') return { bytes: Buffer.from(c.text, 'utf8'), text: c.text, mimeType: c.mimeType };
  if (typeof c.blob === 'string') return { bytes: Buffer.from(c.blob, 'base64'), mimeType: c.mimeType };
  return 'contents with neither text nor blob';
}

/** The YAML front matter a SKILL.md begins with, as an object; a string says why there is none. */
export function frontMatter(text: string): Obj | string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(body);
  if (!m) return 'it does not begin with a --- delimited YAML front matter block';
  try {
    const v: unknown = parseYaml(m[1]);
    return isObj(v) ? v : 'its front matter is not a YAML mapping';
  } catch (e) {
    return `its front matter is not valid YAML (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
}

/** Deep equality of JSON-like values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return a === b;
}

/** What is wrong with one skill entry (its fields, uri and resources list), in words. */
export function entryProblems(e: Obj): string[] {
  const out: string[] = [];
  const uri = typeof e.uri === 'string' && e.uri.length > 0 ? e.uri : undefined;
  const label = uri ?? JSON.stringify(e).slice(0, 80);
  if (!uri) out.push(`${label}: no uri`);
  const fm = e.frontmatter;
  if (!isObj(fm)) out.push(`${label}: frontmatter is ${fm === undefined ? 'missing' : 'not an object'}`);
  else {
    for (const k of ['name', 'description']) if (typeof fm[k] !== 'string' || fm[k] === '') out.push(`${label}: frontmatter.${k} is missing or empty`);
  }
  if (uri) {
    const name = skillNameOf(uri);
    if (name === undefined) out.push(`${uri}: does not end in <skill-path>/${SKILL_MD}`);
    else {
      if (!validSkillName(name)) out.push(`${uri}: the skill name "${name}" breaks the naming rules (1-64 of a-z, 0-9 and single inner hyphens)`);
      if (isObj(fm) && typeof fm.name === 'string' && fm.name !== name) out.push(`${uri}: final skill-path segment "${name}" is not frontmatter.name "${fm.name}"`);
    }
  }
  const files = listedFiles(e);
  if (files === undefined) {
    if (e.resources !== 'dynamic') out.push(`${label}: resources is ${JSON.stringify(e.resources) ?? 'missing'}, neither a list of files nor "dynamic"`);
    return out;
  }
  if (Array.isArray(e.resources) && files.length !== e.resources.length) out.push(`${label}: resources holds a non-object item`);
  const dir = uri ? skillDirectory(uri) : undefined;
  const seen = new Set<string>();
  for (const f of files) {
    const fu = typeof f.uri === 'string' ? f.uri : undefined;
    if (!fu) out.push(`${label}: a resources item has no uri`);
    else {
      if (seen.has(fu)) out.push(`${label}: resources lists ${fu} twice`);
      seen.add(fu);
      if (dir && fu !== uri && !fu.startsWith(`${dir}/`)) out.push(`${label}: ${fu} is outside the skill's directory ${dir}`);
    }
    if (typeof f.digest !== 'string' || !DIGEST.test(f.digest)) out.push(`${label}: ${fu ?? 'an item'} has digest ${JSON.stringify(f.digest) ?? 'missing'}, not sha256:<64 lowercase hex>`);
    if (typeof f.size !== 'number' || !Number.isInteger(f.size) || f.size < 0) out.push(`${label}: ${fu ?? 'an item'} has size ${JSON.stringify(f.size) ?? 'missing'}, not a non-negative integer`);
  }
  if (uri && !seen.has(uri)) out.push(`${uri}: resources has no item for the skill's own uri (SKILL.md's digest and size)`);
  return out;
}

const noListing = (o: SkillsObs): Judgement | undefined => {
  if (o.list.failed && unanswerable(o.list.failed)) return untestable('the run ended before skills/list was answered');
  if (o.list.failed) return untestable(`skills/list got ${outcome(o.list.failed)} (skills.declared-served judges that)`);
  return undefined;
};

// ---------------------------------------------------------------------------------------------

export const skillsChecks = [
  check(skillsScenario, {
    id: 'skills.declared-served',
    // SEP-2640: a server declaring the extension MUST also declare resources and implement skills/list and skills/get.
    title: 'a server declaring the skills extension declares resources and answers skills/list and skills/get (with cache hints)',
    requirements: ['SK-01'],
    level: 'MUST',
    versions: MODERN,
    requires: REQUIRES,
    spec: `${SKILLS_SPEC}#specification`,
    judge(o) {
      const problems: Problem[] = [];
      const declared = { what: `capabilities.extensions["${SKILLS_EXTENSION}"]`, actual: o.settings };
      if (!isObj(o.settings)) problems.push({ what: `the extension is declared as ${JSON.stringify(o.settings)}, not a settings object (an empty object declares no optional features)`, ev: { ...declared, expected: 'an object' } });
      else for (const k of ['config', 'specVersion', 'stability', 'id']) if (k in o.settings) problems.push({ what: `the settings are wrapped in an envelope (key "${k}") instead of sitting under the identifier`, ev: declared });
      if (!o.resourcesDeclared) problems.push({ what: 'the resources capability is not declared, though skill files are served by resources/read', ev: { what: 'capabilities', expected: { resources: {} } } });
      const list = o.list.failed ?? o.list.pages[0];
      if (unanswerable(list)) return untestable('the run ended before skills/list was answered');
      const lr = resultOf(list);
      if (!lr) problems.push({ what: `skills/list got ${outcome(list)}`, ev: evidence('skills/list', list, { expected: 'a result with skills' }) });
      else if (!Array.isArray(lr.skills)) problems.push({ what: 'the skills/list result has no skills array', ev: evidence('skills/list', list, { pointer: '/result/skills' }) });
      const answered = [...o.list.pages.filter((p) => resultOf(p)).map((ex) => ({ name: 'skills/list', ex }))];
      if (o.get) {
        if (unanswerable(o.get.ex)) return untestable('the run ended before skills/get was answered');
        if (!resultOf(o.get.ex)) problems.push({ what: `skills/get of the listed ${o.get.uri} got ${outcome(o.get.ex)}`, ev: evidence(`skills/get ${o.get.uri}`, o.get.ex, { expected: 'a result with skill' }) });
        else answered.push({ name: 'skills/get', ex: o.get.ex });
      }
      for (const { name, ex } of answered) {
        const r = resultOf(ex)!;
        const ttlOk = typeof r.ttlMs === 'number' && Number.isInteger(r.ttlMs) && r.ttlMs >= 0;
        const scopeOk = r.cacheScope === 'public' || r.cacheScope === 'private';
        if (!ttlOk || !scopeOk) problems.push({ what: `the ${name} result lacks valid ttlMs/cacheScope (ttlMs ${JSON.stringify(r.ttlMs) ?? 'absent'}, cacheScope ${JSON.stringify(r.cacheScope) ?? 'absent'})`, ev: evidence(name, ex, { expected: { ttlMs: 'integer >= 0', cacheScope: 'public | private' } }) });
      }
      const get = o.get ? 'and skills/get' : '(nothing listed, so skills/get was not asked for a listed skill)';
      return judgeProblems(problems, (n) => `${n} problem(s) with the declared skills extension`, `declared as a settings object with resources; skills/list ${get} answered with cache hints`);
    },
  }),
  check(skillsScenario, {
    id: 'skills.entry-shape',
    // SEP-2640: every entry carries uri, frontmatter (name, description) and resources; the final skill-path segment is the name.
    title: 'every skills/list entry has uri, frontmatter (name, description) and a complete resources list; its name follows the naming rules',
    requirements: ['SK-02', 'SK-03', 'SK-04', 'SK-05'],
    level: 'MUST',
    versions: MODERN,
    requires: REQUIRES,
    spec: `${SKILLS_SPEC}#specification`,
    judge(o) {
      const pre = noListing(o);
      if (pre) return pre;
      const problems: Problem[] = [];
      if (o.list.endless) problems.push({ what: `skills/list kept returning a nextCursor (or repeated one) for ${o.list.pages.length} pages`, ev: evidence('the last skills/list page', o.list.pages[o.list.pages.length - 1]) });
      const pagesOf = new Map<string, number[]>();
      o.list.pages.forEach((p, i) => {
        const r = resultOf(p);
        for (const e of Array.isArray(r?.skills) ? r.skills.filter(isObj) : []) if (typeof e.uri === 'string') pagesOf.set(e.uri, [...(pagesOf.get(e.uri) ?? []), i + 1]);
      });
      for (const [uri, pages] of pagesOf) if (pages.length > 1) problems.push({ what: `${uri} is listed ${pages.length} times (pages ${pages.join(', ')})`, ev: evidence('skills/list', o.list.pages[pages[1] - 1], { actual: uri }) });
      o.list.entries.forEach((e, i) => {
        const page = o.list.pages.find((p) => (resultOf(p)?.skills as unknown[] | undefined)?.includes(e));
        for (const what of entryProblems(e)) problems.push({ what, ev: evidence(`skills/list entry ${i}`, page, { actual: e }) });
      });
      if (o.list.entries.length === 0 && problems.length === 0) return untestable('skills/list lists no skill (an empty listing is allowed): no entry to judge');
      return judgeProblems(problems, (n) => `${n} problem(s) in the skills/list entries`, `${o.list.entries.length} entries over ${o.list.pages.length} page(s) have uri, frontmatter and complete {uri, digest, size} resources (or "dynamic"), named by the rules`);
    },
  }),
  check(skillsScenario, {
    id: 'skills.get',
    // SEP-2640: skills/get returns the entry of the skill its uri names, with no cursor; an unserved uri is -32602.
    title: 'skills/get returns the listed entry of the skill it names (no nextCursor); an unserved uri gets -32602',
    requirements: ['SK-07'],
    level: 'MUST',
    versions: MODERN,
    requires: REQUIRES,
    spec: `${SKILLS_SPEC}#specification`,
    judge(o) {
      const pre = noListing(o);
      if (pre) return pre;
      if (!o.unknownGet || unanswerable(o.unknownGet) || (o.get && unanswerable(o.get.ex))) return untestable('the run ended before skills/get was answered');
      const problems: Problem[] = [];
      if (errorCode(o.unknownGet) !== -32602) problems.push({ what: `skills/get of the unserved ${UNKNOWN_SKILL_URI} got ${outcome(o.unknownGet)}, not -32602`, ev: evidence(`skills/get ${UNKNOWN_SKILL_URI}`, o.unknownGet, { expected: { error: { code: -32602 } } }) });
      const r = o.get ? resultOf(o.get.ex) : undefined;
      if (o.get && !r && problems.length === 0) return untestable(`skills/get of the listed ${o.get.uri} got ${outcome(o.get.ex)} (skills.declared-served judges that); the unserved uri got -32602`);
      if (o.get && r) {
        const listed = o.list.entries.find((e) => e.uri === o.get!.uri);
        const ev = evidence(`skills/get ${o.get.uri}`, o.get.ex, { expected: listed });
        if (!isObj(r.skill)) problems.push({ what: 'the skills/get result has no skill object', ev: { ...ev, pointer: '/result/skill' } });
        else {
          if (r.skill.uri !== o.get.uri) problems.push({ what: `result.skill.uri ${JSON.stringify(r.skill.uri)} is not the uri asked for`, ev: { ...ev, pointer: '/result/skill/uri' } });
          // The entry's own rules are skills.entry-shape's (on the listing); here: the same entry, in its shape.
          if (!isObj(r.skill.frontmatter)) problems.push({ what: 'result.skill.frontmatter is not an object', ev: { ...ev, pointer: '/result/skill/frontmatter' } });
          if (!Array.isArray(r.skill.resources) && r.skill.resources !== 'dynamic') problems.push({ what: `result.skill.resources is ${JSON.stringify(r.skill.resources) ?? 'missing'}, neither a list nor "dynamic"`, ev: { ...ev, pointer: '/result/skill/resources' } });
          if (listed && (!sameJson(r.skill.frontmatter, listed.frontmatter) || !sameJson(r.skill.resources, listed.resources))) problems.push({ what: 'the entry skills/get returns differs from the one skills/list gave (frontmatter or resources)', ev });
        }
        if ('nextCursor' in r) problems.push({ what: `the skills/get result carries nextCursor ${JSON.stringify(r.nextCursor)}: a single entry is not a list`, ev: { ...ev, pointer: '/result/nextCursor' } });
      }
      if (!o.get && problems.length === 0) return untestable('skills/list lists no skill: skills/get of a served skill cannot be asked (the unserved uri got -32602)');
      return judgeProblems(problems, (n) => `${n} problem(s) with skills/get`, `skills/get of ${o.get?.uri} echoes the listed entry without a cursor; the unserved uri got -32602`);
    },
  }),
  check(skillsScenario, {
    id: 'skills.manifest',
    // SEP-2640: every skill has a SKILL.md at its root that begins with YAML front matter (name, description);
    // the entry's frontmatter is identical in content to it, and its name is the final skill-path segment.
    title: 'each listed SKILL.md can be read, begins with YAML front matter naming the skill, and the entry\'s frontmatter is identical to it',
    requirements: ['SK-04', 'SK-08'],
    level: 'MUST',
    versions: MODERN,
    requires: REQUIRES,
    spec: `${SKILLS_SPEC}#specification`,
    judge(o) {
      const pre = noListing(o);
      if (pre) return pre;
      if (o.manifests.length === 0) return untestable('skills/list lists no skill with a uri: no SKILL.md to read');
      if (o.manifests.some((m) => unanswerable(m.read))) return untestable('the run ended before every SKILL.md was read');
      const problems: Problem[] = [];
      for (const m of o.manifests) {
        const entry = o.list.entries.find((e) => e.uri === m.skill);
        const ev = evidence(`resources/read ${m.uri}`, m.read, { expected: entry?.frontmatter });
        const served = servedBytes(m.read);
        if (typeof served === 'string') {
          problems.push({ what: `${m.uri} could not be read: ${served}`, ev });
          continue;
        }
        if (served.text === undefined) {
          problems.push({ what: `${m.uri} is served as a blob, not as the text of a markdown file`, ev });
          continue;
        }
        const fm = frontMatter(served.text);
        if (typeof fm === 'string') {
          problems.push({ what: `${m.uri}: ${fm}`, ev });
          continue;
        }
        for (const k of ['name', 'description']) if (typeof fm[k] !== 'string' || fm[k] === '') problems.push({ what: `${m.uri}: the front matter has no ${k}`, ev });
        const name = skillNameOf(m.uri);
        if (typeof fm.name === 'string' && name !== undefined && fm.name !== name) problems.push({ what: `${m.uri}: front matter name "${fm.name}" is not the final skill-path segment "${name}"`, ev });
        if (entry && isObj(entry.frontmatter) && !sameJson(JSON.parse(JSON.stringify(fm)), entry.frontmatter)) {
          const keys = [...new Set([...Object.keys(fm), ...Object.keys(entry.frontmatter)])].filter((k) => !sameJson(JSON.parse(JSON.stringify(fm[k] ?? null)), (entry.frontmatter as Obj)[k] ?? null));
          problems.push({ what: `${m.uri}: the entry's frontmatter differs from the file's in ${keys.join(', ')}`, ev: { ...ev, actual: fm } });
        }
      }
      return judgeProblems(problems, (n) => `${n} problem(s) with the SKILL.md files`, `${o.manifests.length} SKILL.md file(s) read: front matter with name and description, identical to the listed entries`);
    },
  }),
  check(skillsScenario, {
    id: 'skills.digest-size',
    // SEP-2640: digest is the SHA-256 of the file's raw bytes and size their length: the same bytes resources/read serves.
    title: 'every skill file read back matches the digest and size its entry lists',
    requirements: ['SK-06'],
    level: 'MUST',
    versions: MODERN,
    requires: REQUIRES,
    spec: `${SKILLS_SPEC}#integrity-and-verification`,
    judge(o) {
      const pre = noListing(o);
      if (pre) return pre;
      const reads: FileRead[] = [...o.manifests, ...o.files].filter((f) => f.listed && typeof f.listed.digest === 'string' && typeof f.listed.size === 'number');
      if (reads.length === 0) return untestable('no listed skill file has a digest and size to compare with (no skills, "dynamic" resources, or malformed entries: skills.entry-shape judges those)');
      if (reads.some((f) => unanswerable(f.read))) return untestable('the run ended before every skill file was read');
      const problems: Problem[] = [];
      for (const f of reads) {
        const served = servedBytes(f.read);
        const ev = evidence(`resources/read ${f.uri}`, f.read, { expected: { digest: f.listed!.digest, size: f.listed!.size } });
        if (typeof served === 'string') {
          problems.push({ what: `${f.uri}, listed with a digest, could not be read: ${served}`, ev });
          continue;
        }
        const digest = sha256Digest(served.bytes);
        if (served.bytes.length !== f.listed!.size) problems.push({ what: `${f.uri}: ${served.bytes.length} bytes served, size ${String(f.listed!.size)} listed`, ev: { ...ev, actual: { digest, size: served.bytes.length } } });
        else if (digest !== f.listed!.digest) problems.push({ what: `${f.uri}: the served bytes hash to ${digest}, not the listed ${String(f.listed!.digest)}`, ev: { ...ev, actual: { digest, size: served.bytes.length } } });
      }
      return judgeProblems(problems, (n) => `${n} skill file(s) do not match their listed digest and size`, `${reads.length} skill file(s) read back match their listed sha256 digest and size`);
    },
  }),
  check(skillsScenario, {
    id: 'skills.conventions',
    // SEP-2640 SHOULDs: the skill:// scheme, unique names, the authority a reg-name, at most 512 files and
    // 16 MiB per skill, SKILL.md served as text/markdown; metadata keys under io.modelcontextprotocol/ are reserved.
    title: 'skills use skill:// URIs with a reg-name authority, unique names, at most 512 files and 16 MiB each, no reserved metadata keys; SKILL.md is text/markdown',
    requirements: ['SK-09', 'SK-10'],
    level: 'SHOULD',
    versions: MODERN,
    requires: REQUIRES,
    spec: `${SKILLS_SPEC}#specification`,
    judge(o) {
      const pre = noListing(o);
      if (pre) return pre;
      const entries = o.list.entries.filter((e) => typeof e.uri === 'string');
      if (entries.length === 0) return untestable('skills/list lists no skill with a uri');
      const problems: Problem[] = [];
      const ev = (e: Obj): Evidence => ({ what: 'skills/list entry', actual: e });
      const names = new Map<string, string[]>();
      for (const e of entries) {
        const uri = e.uri as string;
        if (!uri.startsWith('skill://')) problems.push({ what: `${uri} does not use the skill:// scheme`, ev: ev(e) });
        const authority = skillPath(uri)?.[0];
        if (authority !== undefined && !isRegName(authority)) problems.push({ what: `${uri}: the authority "${authority}" is not an RFC 3986 reg-name`, ev: ev(e) });
        const name = skillNameOf(uri);
        if (name !== undefined) names.set(name, [...(names.get(name) ?? []), uri]);
        const files = listedFiles(e);
        if (files && files.length > 512) problems.push({ what: `${uri} lists ${files.length} files (more than 512)`, ev: { what: 'skills/list entry', actual: uri } });
        const meta = isObj(e.frontmatter) && isObj(e.frontmatter.metadata) ? Object.keys(e.frontmatter.metadata) : [];
        const reserved = meta.filter((k) => k.startsWith('io.modelcontextprotocol/'));
        if (reserved.length) problems.push({ what: `${uri}: frontmatter.metadata uses the reserved io.modelcontextprotocol/ prefix, for which this extension defines no key (${reserved.join(', ')})`, ev: ev(e) });
        const total = (files ?? []).reduce((s, f) => s + (typeof f.size === 'number' ? f.size : 0), 0);
        if (total > 16 * 1024 * 1024) problems.push({ what: `${uri} totals ${total} bytes (more than 16 MiB)`, ev: { what: 'skills/list entry', actual: uri } });
      }
      for (const [name, uris] of names) if (uris.length > 1) problems.push({ what: `the name "${name}" is served ${uris.length} times (${uris.join(', ')})`, ev: { what: 'skills/list entries', actual: uris } });
      for (const m of o.manifests) {
        const served = servedBytes(m.read);
        if (typeof served !== 'string' && served.mimeType !== 'text/markdown') problems.push({ what: `${m.uri} is served as ${JSON.stringify(served.mimeType) ?? 'no mimeType'}, not text/markdown`, ev: evidence(`resources/read ${m.uri}`, m.read, { expected: { mimeType: 'text/markdown' } }) });
      }
      return judgeProblems(problems, (n) => `${n} departure(s) from the skills conventions`, `${entries.length} skill(s): skill:// URIs, unique names, within the limits; ${o.manifests.length} SKILL.md served as text/markdown`);
    },
  }),
  check(skillsScenario, {
    id: 'skills.directory-read',
    // SEP-2640: directoryRead declared => resources/directory/read lists a skill directory's direct
    // children, subdirectories as inode/directory, pages as resources/list; a non-directory uri is -32602.
    title: 'with directoryRead declared, resources/directory/read lists a skill directory (subdirectories as inode/directory) and refuses a file with -32602',
    requirements: ['SK-11'],
    level: 'MUST',
    versions: MODERN,
    requires: REQUIRES,
    spec: `${SKILLS_SPEC}#specification`,
    judge(o) {
      if (!isObj(o.settings) || o.settings.directoryRead !== true) return skip('the server does not declare directoryRead: true in the skills extension settings');
      const pre = noListing(o);
      if (pre) return pre;
      if (!o.directory || !o.notADirectory) return untestable(`no listed skill has a uri ending in /${SKILL_MD}: no skill directory to read`);
      const dirs = [o.directory, ...(o.subdirectory ? [o.subdirectory] : [])];
      if ([...dirs.flatMap((d) => d.pages), o.notADirectory.ex].some(unanswerable)) return untestable('the run ended before every directory read was answered');
      const problems: Problem[] = [];
      const judgeDir = (d: DirectoryRead) => {
        const last = d.failed ?? d.pages[d.pages.length - 1];
        if (d.failed) problems.push({ what: `resources/directory/read ${d.uri} got ${outcome(d.failed)}`, ev: evidence(`resources/directory/read ${d.uri}`, d.failed, { expected: 'a result with resources' }) });
        else if (d.pages.some((p) => !Array.isArray(resultOf(p)?.resources))) problems.push({ what: `resources/directory/read ${d.uri}: a result has no resources array`, ev: evidence(`resources/directory/read ${d.uri}`, d.pages.find((p) => !Array.isArray(resultOf(p)?.resources))) });
        if (d.endless) problems.push({ what: `resources/directory/read ${d.uri} kept returning a nextCursor (or repeated one)`, ev: evidence(`resources/directory/read ${d.uri}`, last) });
        for (const c of d.children) {
          const uri = typeof c.uri === 'string' ? c.uri : undefined;
          if (!uri) problems.push({ what: `a child of ${d.uri} has no uri`, ev: { what: `resources/directory/read ${d.uri} child`, actual: c } });
          else if (!uri.startsWith(`${d.uri}/`) || uri.slice(d.uri.length + 1).includes('/')) problems.push({ what: `${uri} is not a direct child of ${d.uri}`, ev: { what: `resources/directory/read ${d.uri} child`, actual: c } });
        }
      };
      for (const d of dirs) judgeDir(d);
      // A subdirectory the skill lists files in must appear as a directory child.
      const entry = o.list.entries.find((e) => e.uri === o.notADirectory!.uri);
      const base = o.directory.uri;
      const subdirs = new Set((listedFiles(entry ?? {}) ?? []).map((f) => (typeof f.uri === 'string' && f.uri.startsWith(`${base}/`) ? f.uri.slice(base.length + 1).split('/') : [])).filter((s) => s.length > 1).map((s) => `${base}/${s[0]}`));
      for (const sub of subdirs) {
        const child = o.directory.children.find((c) => c.uri === sub);
        if (!child || child.mimeType !== DIRECTORY_MIME) problems.push({ what: `${sub} holds listed files but is ${child ? `listed with mimeType ${JSON.stringify(child.mimeType) ?? 'absent'}` : 'not listed'}, not as a child of mimeType ${DIRECTORY_MIME}`, ev: { what: `resources/directory/read ${base} children`, actual: o.directory.children, expected: { uri: sub, mimeType: DIRECTORY_MIME } } });
      }
      if (errorCode(o.notADirectory.ex) !== -32602) problems.push({ what: `resources/directory/read of the file ${o.notADirectory.uri} got ${outcome(o.notADirectory.ex)}, not -32602`, ev: evidence(`resources/directory/read ${o.notADirectory.uri}`, o.notADirectory.ex, { expected: { error: { code: -32602 } } }) });
      const sub = o.subdirectory ? `, its subdirectory ${o.subdirectory.uri}` : '';
      return judgeProblems(problems, (n) => `${n} problem(s) with resources/directory/read`, `${base} (${o.directory.children.length} children${sub}) listed with direct children and inode/directory subdirectories; the file got -32602`);
    },
  }),
];
