import { ALL_VERSIONS } from '../../protocol/versions.js';
import { listAll, resultOf } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';
import { expandTemplate, templateVariables } from './uri-template.js';

export interface Read {
  uri: string;
  exchange: Exchange;
}

export interface ResourcesObs {
  reads: Read[];
  unknown: Exchange;
}

export const UNKNOWN_URI = 'mcpspec-test://no-such-resource/8f3c';

export const resourcesScenario = scenario<ResourcesObs>({
  id: 'resources',
  title: 'resources/list, reading listed resources, an unknown uri',
  versions: ALL_VERSIONS,
  sharesSession: true,
  async run({ session }) {
    const listed = await listAll((cursor) => session.request('resources/list', cursor === undefined ? {} : { cursor }), 'resources');
    const uris = listed.items.slice(0, 5).map((r) => r.uri).filter((u): u is string => typeof u === 'string');
    const [reads, unknown] = await Promise.all([
      Promise.all(uris.map(async (uri) => ({ uri, exchange: await session.request('resources/read', { uri }) }))),
      session.request('resources/read', { uri: UNKNOWN_URI }),
    ]);
    return { reads, unknown };
  },
});

/** The value a template variable gets when the server suggests none (completion/complete). */
export const TEMPLATE_FALLBACK_VALUE = '1';

/** How many listed templates are expanded and read. */
const TEMPLATES_READ = 3;

export interface TemplateRead {
  uriTemplate: string;
  /** The template expanded with `values`. */
  uri: string;
  values: Record<string, string>;
  /** The variables whose value the server's own completion/complete suggested (the others got the fallback). */
  suggested: string[];
  /** The completion/complete asked for each variable (when the server declares completions). */
  completions: Exchange[];
  exchange: Exchange;
}

export interface TemplatesObs {
  /** resources/templates/list when it got no result (the server lists no templates that way). */
  listingFailed?: Exchange;
  /** Listed templates that are no RFC 6570 template mcpspec can expand. */
  unusable: string[];
  reads: TemplateRead[];
}

/**
 * resources/templates/list, then up to three templates expanded (RFC 6570) and read. A variable gets
 * the first value the server's completion/complete suggests for it (when it declares completions),
 * else a plain fallback value: the server may not have that resource, and may say so.
 */
export const resourceTemplatesScenario = scenario<TemplatesObs>({
  id: 'resources.templates',
  title: 'resources/templates/list, and reading a few templates expanded with a value the server suggests (or a plain one)',
  versions: ALL_VERSIONS,
  sharesSession: true,
  async run({ session }) {
    const listed = await listAll((cursor) => session.request('resources/templates/list', cursor === undefined ? {} : { cursor }), 'resourceTemplates');
    const templates = listed.items.map((t) => t.uriTemplate).filter((u): u is string => typeof u === 'string');
    const usable = templates.filter((t) => templateVariables(t) !== undefined);
    const completes = 'completions' in session.capabilities;
    const reads = await Promise.all(
      usable.slice(0, TEMPLATES_READ).map(async (uriTemplate): Promise<TemplateRead> => {
        const values: Record<string, string> = {};
        const suggested: string[] = [];
        const completions: Exchange[] = [];
        for (const name of templateVariables(uriTemplate)!) {
          let value: string | undefined;
          if (completes) {
            const context = Object.keys(values).length ? { context: { arguments: { ...values } } } : {};
            const ex = await session.request('completion/complete', { ref: { type: 'ref/resource', uri: uriTemplate }, argument: { name, value: '' }, ...context });
            completions.push(ex);
            const offered = (resultOf(ex)?.completion as { values?: unknown } | undefined)?.values;
            value = Array.isArray(offered) ? offered.find((v): v is string => typeof v === 'string' && v !== '') : undefined;
          }
          if (value !== undefined) suggested.push(name);
          values[name] = value ?? TEMPLATE_FALLBACK_VALUE;
        }
        const uri = expandTemplate(uriTemplate, values)!;
        return { uriTemplate, uri, values, suggested, completions, exchange: await session.request('resources/read', { uri }) };
      }),
    );
    return { ...(listed.failed ? { listingFailed: listed.failed } : {}), unusable: templates.filter((t) => !usable.includes(t)), reads };
  },
});
