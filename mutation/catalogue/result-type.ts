// Mutations of the result discriminator (requirements digest §5, RT-01..RT-07, server side, modern
// era only): resultType missing, outside the accepted set, of the wrong JSON type, "task" where the
// tasks extension was not declared or the method is not task-eligible, input_required where the
// method may not carry it, and the discriminator of the tasks extension's own results.

import { randomUUID } from 'node:crypto';
import { META_CLIENT_CAPABILITIES } from '../../protocol/meta.js';
import { isObj, onResult, drop } from '../edits.js';
import { mutation, SERVER_MODERN as modern, type Mutation, type SeenRequest } from '../mutation.js';
import { metaOfRequest } from './versioning.js';

type Obj = Record<string, unknown>;

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'];
/** The methods whose complete results a client tells apart from input_required and task results. */
const MRTR = ['tools/call', 'prompts/get', 'resources/read'];

function declaresTasks(req: SeenRequest | undefined): boolean {
  const caps = metaOfRequest(req)[META_CLIENT_CAPABILITIES];
  return isObj(caps) && isObj(caps.extensions) && TASKS_EXTENSION in caps.extensions;
}

/** The request carries the state or responses of an earlier round. */
function isRetry(req: SeenRequest | undefined): boolean {
  return !!req && ('requestState' in req.params || 'inputResponses' in req.params);
}

/** Replaces a complete result by a flat CreateTaskResult (tasks extension) in place, keeping its _meta. */
function becomeTask(r: Obj): void {
  const meta = r._meta;
  for (const k of Object.keys(r)) delete r[k];
  const now = new Date().toISOString();
  Object.assign(r, { resultType: 'task', taskId: randomUUID(), status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 1000 });
  if (meta !== undefined) r._meta = meta;
}

export const RESULT_TYPE_MUTATIONS: Mutation[] = [
  mutation({
    ...modern,
    id: 'result-type.missing',
    requirements: ['RT-01'],
    related: ['JR-05'],
    description: 'results (other than server/discover and the listen close) lack resultType',
    ...onResult('*', (r, ctx) => {
      if (ctx.request?.method === 'server/discover' || ctx.request?.method === 'subscriptions/listen' || !('resultType' in r)) return false;
      delete r.resultType;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'result-type.missing-on-discover',
    requirements: ['RT-01'],
    related: ['JR-05', 'VN-06'],
    description: 'the server/discover result lacks resultType',
    ...onResult(['server/discover'], (r) => drop(r, 'resultType')),
  }),
  mutation({
    ...modern,
    id: 'result-type.missing-on-listen-close',
    requirements: ['RT-01'],
    related: ['JR-05', 'SB-08'],
    description: 'the result that gracefully closes a subscriptions/listen stream lacks resultType',
    ...onResult(['subscriptions/listen'], (r) => drop(r, 'resultType')),
  }),
  mutation({
    ...modern,
    id: 'result-type.unknown-value',
    requirements: ['RT-03'],
    related: ['RT-04', 'RT-01'],
    description: 'complete results of tools/call, prompts/get and resources/read say resultType "completed" (no core value, no advertised extension\'s)',
    ...onResult(MRTR, (r) => {
      if (r.resultType !== 'complete') return false;
      r.resultType = 'completed';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'result-type.capitalised',
    requirements: ['RT-03'],
    related: ['RT-04', 'RT-01'],
    description: 'list results say resultType "Complete" (values are case-sensitive)',
    ...onResult(LISTS, (r) => {
      if (r.resultType !== 'complete') return false;
      r.resultType = 'Complete';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'result-type.not-a-string',
    requirements: ['RT-01'],
    related: ['JR-05', 'RT-04'],
    description: 'results (other than server/discover) carry resultType as the number 0 (an enum serialised by its index)',
    ...onResult('*', (r, ctx) => {
      if (ctx.request?.method === 'server/discover' || typeof r.resultType !== 'string') return false;
      r.resultType = 0;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'result-type.task-undeclared',
    requirements: ['RT-06'],
    related: ['TB-03', 'RT-03'],
    description: 'complete tools/call results to requests that did not declare the tasks extension are replaced by a CreateTaskResult (resultType "task")',
    ...onResult(['tools/call'], (r, ctx) => {
      if (r.resultType !== 'complete' || declaresTasks(ctx.request)) return false;
      becomeTask(r);
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'result-type.task-on-ineligible-method',
    requirements: ['RT-06'],
    related: ['TB-04', 'TB-05'],
    description: 'complete prompts/get and resources/read results are replaced by a CreateTaskResult (resultType "task"); only tools/call is task-eligible',
    ...onResult(['prompts/get', 'resources/read'], (r) => {
      if (r.resultType !== 'complete') return false;
      becomeTask(r);
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'result-type.input-required-on-ineligible-method',
    requirements: ['RT-06'],
    related: ['IR-01'],
    description: 'first-round answers to completion/complete and resources/templates/list are input_required results (requestState only); their retries are served normally',
    ...onResult(['completion/complete', 'resources/templates/list'], (r, ctx) => {
      if (r.resultType !== 'complete' || isRetry(ctx.request)) return false;
      const meta = r._meta;
      for (const k of Object.keys(r)) delete r[k];
      Object.assign(r, { resultType: 'input_required', requestState: 'round-1' });
      if (meta !== undefined) r._meta = meta;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'result-type.task-on-task-methods',
    requirements: ['RT-07'],
    related: ['TB-05', 'TB-08', 'TB-12', 'TB-13'],
    description: 'tasks/get, tasks/update and tasks/cancel results say resultType "task" instead of "complete"',
    ...onResult(['tasks/get', 'tasks/update', 'tasks/cancel'], (r) => {
      if (r.resultType !== 'complete') return false;
      r.resultType = 'task';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'result-type.create-task-says-complete',
    requirements: ['RT-07'],
    related: ['TB-05'],
    description: 'CreateTaskResults (tools/call answered with a task) say resultType "complete" instead of "task"',
    ...onResult(['tools/call'], (r) => {
      if (r.resultType !== 'task' || typeof r.taskId !== 'string') return false;
      r.resultType = 'complete';
      return true;
    }),
  }),
];
