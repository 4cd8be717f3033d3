// Client-role skills scenario: mcpspec's scripted server (suites/client/scripted-server.ts) declares
// the skills extension (io.modelcontextprotocol/skills, SEP-2640) and lists one skill; nothing in the
// run asks the client to use it. Judged by client-checks.ts beside it.

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
    const resources = SCRIPTED_SKILL_FILES.map((f) => ({ uri: f.uri, digest: digestOf(f.text), size: Buffer.byteLength(f.text, 'utf8') }));
    const entry = { uri: SCRIPTED_SKILL_FILES[0].uri, frontmatter: { name: 'mcpspec-scripted-skill', description: 'A skill no task of this run needs.' }, resources };
    const complete = (r: Record<string, unknown>) => ({ resultType: 'complete', ttlMs: 0, cacheScope: 'public', ...r, _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } });
    const log = runScript(ctx.server, {
      modern: true,
      legacy: false,
      timeoutMs: ctx.options.timeoutMs,
      override(req) {
        if (req.method === 'server/discover') {
          return { jsonrpc: '2.0', id: req.id, result: discoverResult([MODERN_VERSION], { tools: {}, prompts: {}, resources: {}, extensions: { [SKILLS_EXTENSION]: {} } }) };
        }
        if (req.method === 'skills/list') return { jsonrpc: '2.0', id: req.id, result: complete({ skills: [entry] }) };
        if (req.method === 'skills/get') {
          if (req.params.uri === entry.uri) return { jsonrpc: '2.0', id: req.id, result: complete({ skill: entry }) };
          return { jsonrpc: '2.0', id: req.id, error: { code: -32602, message: 'Unknown skill', data: { uri: req.params.uri } } };
        }
        const file = req.method === 'resources/read' ? SCRIPTED_SKILL_FILES.find((f) => f.uri === req.params.uri) : undefined;
        if (file) return { jsonrpc: '2.0', id: req.id, result: complete({ contents: [{ uri: file.uri, mimeType: file.mimeType, text: file.text }] }) };
        return undefined;
      },
    });
    return { ...(await observe(ctx, log)), skillFiles: SCRIPTED_SKILL_FILES.map((f) => f.uri) };
  },
});
