// Every mutation, by area: one file per spec area under mutation/catalogue/ (client-role.ts holds the
// mutations of what a client sends, whatever their area).

import { JSONRPC_MUTATIONS } from './catalogue/jsonrpc.js';
import { LIFECYCLE_MUTATIONS } from './catalogue/lifecycle.js';
import { VERSIONING_MUTATIONS } from './catalogue/versioning.js';
import { META_MUTATIONS } from './catalogue/meta.js';
import { RESULT_TYPE_MUTATIONS } from './catalogue/result-type.js';
import { CACHING_MUTATIONS } from './catalogue/caching.js';
import { PAGINATION_MUTATIONS } from './catalogue/pagination.js';
import { TOOLS_MUTATIONS } from './catalogue/tools.js';
import { RESOURCES_MUTATIONS } from './catalogue/resources.js';
import { PROMPTS_MUTATIONS } from './catalogue/prompts.js';
import { COMPLETION_MUTATIONS } from './catalogue/completion.js';
import { LOGGING_MUTATIONS } from './catalogue/logging.js';
import { PROGRESS_MUTATIONS } from './catalogue/progress.js';
import { CANCELLATION_MUTATIONS } from './catalogue/cancellation.js';
import { INPUT_REQUIRED_MUTATIONS } from './catalogue/input-required.js';
import { TASKS_MUTATIONS } from './catalogue/tasks.js';
import { SUBSCRIPTIONS_MUTATIONS } from './catalogue/subscriptions.js';
import { HTTP_MUTATIONS } from './catalogue/http.js';
import { STDIO_MUTATIONS } from './catalogue/stdio.js';
import { CLIENT_ROLE_MUTATIONS } from './catalogue/client-role.js';
import type { Mutation } from './mutation.js';

export const MUTATIONS: Mutation[] = [...JSONRPC_MUTATIONS, ...LIFECYCLE_MUTATIONS, ...VERSIONING_MUTATIONS, ...META_MUTATIONS, ...RESULT_TYPE_MUTATIONS, ...CACHING_MUTATIONS, ...PAGINATION_MUTATIONS, ...TOOLS_MUTATIONS, ...RESOURCES_MUTATIONS, ...PROMPTS_MUTATIONS, ...COMPLETION_MUTATIONS, ...LOGGING_MUTATIONS, ...PROGRESS_MUTATIONS, ...CANCELLATION_MUTATIONS, ...INPUT_REQUIRED_MUTATIONS, ...TASKS_MUTATIONS, ...SUBSCRIPTIONS_MUTATIONS, ...HTTP_MUTATIONS, ...STDIO_MUTATIONS, ...CLIENT_ROLE_MUTATIONS];

/** The mutation that changes nothing: the proxy alone, to show it is transparent (not in the score). */
export const IDENTITY: Mutation = {
  id: 'identity',
  requirements: [],
  role: 'server',
  eras: ['legacy', 'modern'],
  transports: ['stdio', 'http'],
  description: 'changes nothing: the proxy alone (a run through it must get the same verdicts as without it)',
};

const BY_ID = new Map([...MUTATIONS, IDENTITY].map((m) => [m.id, m]));

export function mutationById(id: string): Mutation | undefined {
  return BY_ID.get(id);
}

/** The area of a mutation: the part of its id before the first dot. */
export function mutationArea(id: string): string {
  return id.split('.')[0];
}
