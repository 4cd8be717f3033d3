// The skills extension (io.modelcontextprotocol/skills, SEP-2640): a server that declares it lists
// its skills (skills/list), returns one by URI (skills/get), serves each skill's files as resources
// (resources/read), and, when it declares directoryRead, lists a skill's directory
// (resources/directory/read). The scenario walks that surface once and records every answer; the
// checks (checks.ts) judge it. Nothing here knows the target: skills are found by listing them.

import { MODERN } from '../../protocol/versions.js';
import { isObj, listAll, resultOf } from '../kit/exchange.js';
import type { Exchange, Session } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const SKILL_MD = 'SKILL.md';
export const DIRECTORY_MIME = 'inode/directory';
/** A skill URI no server serves (skills/get must refuse it with -32602). */
export const UNKNOWN_SKILL_URI = 'skill://mcpspec-no-such-skill-4d7a1e/SKILL.md';

/** How many skills' SKILL.md files, and how many other listed files, are read back. */
const MAX_SKILLS_READ = 5;
const MAX_FILES_READ = 10;

type Obj = Record<string, unknown>;

/** A listed skill file read back: the entry that lists it and the resources/read answer. */
export interface FileRead {
  /** The listed skill's uri (its SKILL.md). */
  skill: string;
  uri: string;
  /** The {uri, digest, size} entry of the skill's resources that names this file, if any. */
  listed?: Obj;
  read: Exchange;
}

export interface DirectoryRead {
  uri: string;
  pages: Exchange[];
  children: Obj[];
  /** nextCursor repeated, or the page bound reached. */
  endless: boolean;
  failed?: Exchange;
}

export interface SkillsObs {
  /** capabilities.extensions[io.modelcontextprotocol/skills] as declared (undefined: not declared). */
  settings: unknown;
  /** Whether the server declares the resources capability (the skill files are resources). */
  resourcesDeclared: boolean;
  list: { pages: Exchange[]; entries: Obj[]; endless: boolean; failed?: Exchange };
  /** skills/get of the first listed skill. */
  get?: { uri: string; ex: Exchange };
  /** skills/get of a uri no server serves. */
  unknownGet?: Exchange;
  /** resources/read of each listed skill's uri (its SKILL.md). */
  manifests: FileRead[];
  /** resources/read of the other files the entries list. */
  files: FileRead[];
  /** resources/directory/read of the first skill's directory (only when directoryRead is declared). */
  directory?: DirectoryRead;
  /** resources/directory/read of a subdirectory the first listing named. */
  subdirectory?: DirectoryRead;
  /** resources/directory/read of a file (the first skill's SKILL.md): must be -32602. */
  notADirectory?: { uri: string; ex: Exchange };
}

export function skillsSettings(capabilities: Record<string, unknown>): unknown {
  const ext = capabilities.extensions;
  return isObj(ext) ? ext[SKILLS_EXTENSION] : undefined;
}

/** The directory of a skill whose uri ends in /SKILL.md, or undefined. */
export function skillDirectory(uri: string): string | undefined {
  return uri.endsWith(`/${SKILL_MD}`) ? uri.slice(0, -(SKILL_MD.length + 1)) : undefined;
}

/** An entry's resources when they are the {uri, digest, size} list (not "dynamic"). */
export function listedFiles(entry: Obj): Obj[] | undefined {
  return Array.isArray(entry.resources) ? entry.resources.filter(isObj) : undefined;
}

async function readDirectory(session: Session, uri: string): Promise<DirectoryRead> {
  const listed = await listAll((cursor) => session.request('resources/directory/read', cursor === undefined ? { uri } : { uri, cursor }), 'resources', 20);
  return { uri, pages: listed.pages, children: listed.items, endless: !!listed.loop || listed.truncated, ...(listed.failed ? { failed: listed.failed } : {}) };
}

export const skillsScenario = scenario<SkillsObs>({
  id: 'skills',
  title: 'skills/list, skills/get, reading each skill\'s files, resources/directory/read (skills extension, SEP-2640)',
  versions: MODERN,
  async run({ session }) {
    const settings = skillsSettings(session.capabilities);
    const obs: SkillsObs = { settings, resourcesDeclared: 'resources' in session.capabilities, list: { pages: [], entries: [], endless: false }, manifests: [], files: [] };
    if (settings === undefined) return obs;
    const listed = await listAll((cursor) => session.request('skills/list', cursor === undefined ? {} : { cursor }), 'skills');
    obs.list = { pages: listed.pages, entries: listed.items, endless: !!listed.loop || listed.truncated, ...(listed.failed ? { failed: listed.failed } : {}) };
    const skills = listed.items.filter((e) => typeof e.uri === 'string').slice(0, MAX_SKILLS_READ);
    const files: { skill: string; uri: string; listed: Obj }[] = [];
    for (const e of skills) {
      for (const f of listedFiles(e) ?? []) if (typeof f.uri === 'string' && f.uri !== e.uri) files.push({ skill: e.uri as string, uri: f.uri, listed: f });
    }
    const first = skills[0]?.uri as string | undefined;
    const dirUri = first === undefined ? undefined : skillDirectory(first);
    const directoryRead = isObj(settings) && settings.directoryRead === true;
    await Promise.all([
      first === undefined ? undefined : session.request('skills/get', { uri: first }).then((ex) => void (obs.get = { uri: first, ex })),
      session.request('skills/get', { uri: UNKNOWN_SKILL_URI }).then((ex) => void (obs.unknownGet = ex)),
      Promise.all(skills.map(async (e) => {
        const uri = e.uri as string;
        const own = listedFiles(e)?.find((f) => f.uri === uri);
        return { skill: uri, uri, ...(own ? { listed: own } : {}), read: await session.request('resources/read', { uri }) };
      })).then((reads) => void (obs.manifests = reads)),
      Promise.all(files.slice(0, MAX_FILES_READ).map(async (f) => ({ ...f, read: await session.request('resources/read', { uri: f.uri }) }))).then((reads) => void (obs.files = reads)),
      directoryRead && dirUri !== undefined && first !== undefined
        ? (async () => {
            const [dir, file] = await Promise.all([readDirectory(session, dirUri), session.request('resources/directory/read', { uri: first })]);
            obs.directory = dir;
            obs.notADirectory = { uri: first, ex: file };
            const sub = dir.children.find((c) => c.mimeType === DIRECTORY_MIME && typeof c.uri === 'string');
            if (sub) obs.subdirectory = await readDirectory(session, sub.uri as string);
          })()
        : undefined,
    ]);
    return obs;
  },
});

/** The skills/list pages' results (answered pages only). */
export function listResults(obs: SkillsObs): Obj[] {
  return obs.list.pages.map(resultOf).filter((r): r is Obj => r !== undefined);
}
