// Client-role skills scenarios: mcpspec's scripted server (suites/client/scripted-server.ts) declares
// the skills extension (io.modelcontextprotocol/skills, SEP-2640). In client-skills it lists one skill
// nothing in the run needs; in client-skills-tampered it lists three whose SKILL.md fails verification
// (a digest, a size, a front matter that the served file does not match), each with a supporting file a
// host reads only once it has accepted the skill. Judged by client-checks.ts beside them.

import { createHash } from 'node:crypto';
import { META_SERVER_INFO } from '../../protocol/meta.js';
import { MODERN } from '../../protocol/versions.js';
import { clientScenario } from '../kit/scenario.js';
import { observe, type ClientObs } from '../client/client-run.js';
import { discoverResult, MODERN_VERSION, runScript, SCRIPTED_INFO } from '../client/scripted-server.js';
import { SKILLS_EXTENSION } from './scenario.js';

const SKILL_DIR = 'skill://mcpspec-scripted-skill';
const SKILL_MD_TEXT = '---\nname: mcpspec-scripted-skill\ndescription: A skill no task of this run needs.\n---\n\n# Scripted skill\n\nSee notes/NOTES.md.\n';
const NOTES_TEXT = 'Notes of the scripted skill.\n';

/** The files of the one skill the scripted server lists: its SKILL.md, then a file in a subdirectory. */
export const SCRIPTED_SKILL_FILES: readonly { uri: string; text: string; mimeType: string }[] = [
  { uri: `${SKILL_DIR}/SKILL.md`, text: SKILL_MD_TEXT, mimeType: 'text/markdown' },
  { uri: `${SKILL_DIR}/notes/NOTES.md`, text: NOTES_TEXT, mimeType: 'text/markdown' },
];

export interface SkillsClientObs extends ClientObs {
  /** The skill file URIs the listing named. */
  skillFiles: string[];
}

const digestOf = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

interface SkillFile {
  uri: string;
  text: string;
  mimeType: string;
}
interface SkillEntry {
  uri: string;
  frontmatter: { name: string; description: string };
  resources: { uri: string; digest: string; size: number }[];
}

/** Play a 2026-07-28 server declaring resources and the skills extension, serving these entries and files. */
function serveSkills(ctx: Parameters<Parameters<typeof clientScenario>[0]['run']>[0], entries: SkillEntry[], files: readonly SkillFile[]) {
  const complete = (r: Record<string, unknown>) => ({ resultType: 'complete', ttlMs: 0, cacheScope: 'public', ...r, _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } });
  return runScript(ctx.server, {
    modern: true,
    legacy: false,
    timeoutMs: ctx.options.timeoutMs,
    override(req) {
      if (req.method === 'server/discover') {
        return { jsonrpc: '2.0', id: req.id, result: discoverResult([MODERN_VERSION], { tools: {}, prompts: {}, resources: {}, extensions: { [SKILLS_EXTENSION]: {} } }) };
      }
      if (req.method === 'skills/list') return { jsonrpc: '2.0', id: req.id, result: complete({ skills: entries }) };
      if (req.method === 'skills/get') {
        const entry = entries.find((e) => e.uri === req.params.uri);
        if (entry) return { jsonrpc: '2.0', id: req.id, result: complete({ skill: entry }) };
        return { jsonrpc: '2.0', id: req.id, error: { code: -32602, message: 'Unknown skill', data: { uri: req.params.uri } } };
      }
      const file = req.method === 'resources/read' ? files.find((f) => f.uri === req.params.uri) : undefined;
      if (file) return { jsonrpc: '2.0', id: req.id, result: complete({ contents: [{ uri: file.uri, mimeType: file.mimeType, text: file.text }] }) };
      return undefined;
    },
  });
}

const listed = (f: SkillFile) => ({ uri: f.uri, digest: digestOf(f.text), size: Buffer.byteLength(f.text, 'utf8') });

/**
 * A 2026-07-28 server declaring resources and the skills extension: skills/list answers one skill
 * entry (uri, frontmatter, resources with digests and sizes), skills/get that entry, resources/read
 * its files. The client is given no reason to load the skill.
 */
export const skillsServer = clientScenario<SkillsClientObs>({
  id: 'client-skills',
  title: 'a scripted 2026-07-28 server with the skills extension, listing one skill that no task of the run needs',
  versions: MODERN,
  async run(ctx) {
    const entry = { uri: SCRIPTED_SKILL_FILES[0].uri, frontmatter: { name: 'mcpspec-scripted-skill', description: 'A skill no task of this run needs.' }, resources: SCRIPTED_SKILL_FILES.map(listed) };
    const log = serveSkills(ctx, [entry], SCRIPTED_SKILL_FILES);
    return { ...(await observe(ctx, log)), skillFiles: SCRIPTED_SKILL_FILES.map((f) => f.uri) };
  },
});

/** How a tampered skill's SKILL.md fails verification. */
export type Tampering = 'digest' | 'size' | 'frontmatter';

export interface TamperedSkill {
  tampering: Tampering;
  skillMd: string;
  /** The supporting file a host reads only after accepting SKILL.md. */
  supporting: string;
}

export interface TamperedClientObs extends ClientObs {
  skills: TamperedSkill[];
}

const skillMdText = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nSee reference/GUIDE.md before use.\n`;

/** One skill per way to fail verification: the entry lists what a correct SKILL.md would be, the server serves another. */
function tamperedSkill(tampering: Tampering): { entry: SkillEntry; files: SkillFile[]; skill: TamperedSkill } {
  const name = `mcpspec-tampered-${tampering}`;
  const dir = `skill://${name}`;
  const description = `A skill whose SKILL.md fails its ${tampering} check.`;
  const genuine = skillMdText(name, description);
  // digest: same length, other bytes; size: extra bytes; front matter: digest and size of what is served, but another description.
  const served = tampering === 'digest' ? genuine.replace('before use', 'BEFORE USE') : tampering === 'size' ? `${genuine}Extra bytes the entry did not account for.\n` : skillMdText(name, 'Sends your credentials elsewhere.');
  const supporting: SkillFile = { uri: `${dir}/reference/GUIDE.md`, text: 'Guide of the tampered skill.\n', mimeType: 'text/markdown' };
  const skillMd: SkillFile = { uri: `${dir}/SKILL.md`, text: served, mimeType: 'text/markdown' };
  const listedMd = tampering === 'frontmatter' ? listed(skillMd) : listed({ ...skillMd, text: genuine });
  const entry: SkillEntry = { uri: skillMd.uri, frontmatter: { name, description }, resources: [listedMd, listed(supporting)] };
  return { entry, files: [skillMd, supporting], skill: { tampering, skillMd: skillMd.uri, supporting: supporting.uri } };
}

/**
 * Three skills whose SKILL.md fails verification (digest, size, front matter). A host given a reason to
 * load them (a conformance client reads MCPSPEC_SCENARIO; an official-suite harness its scenario name)
 * reads SKILL.md, must reject it, and so never goes on to the skill's supporting file.
 */
export const skillsTamperedServer = clientScenario<TamperedClientObs>({
  id: 'client-skills-tampered',
  title: 'a scripted 2026-07-28 server with the skills extension, listing three skills whose SKILL.md fails its digest, size or front-matter check',
  versions: MODERN,
  async run(ctx) {
    const all = (['digest', 'size', 'frontmatter'] as const).map(tamperedSkill);
    const log = serveSkills(ctx, all.map((t) => t.entry), all.flatMap((t) => t.files));
    return { ...(await observe(ctx, log)), skills: all.map((t) => t.skill) };
  },
});
