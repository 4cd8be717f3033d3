// JSON-RPC base rules (requirements digest §1): the envelope of every answer a server sends.

import { isObj } from '../../protocol/jsonrpc.js';
import { drop, onAnswer, onError, onResult, put } from '../edits.js';
import { mutation, SERVER_ANY as server, type Mutation } from '../mutation.js';

/** Answers to requests other than the handshake: breaking those would stop the run before anything else. */
const NOT_HANDSHAKE = ['tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'prompts/list', 'prompts/get', 'completion/complete', 'ping', 'logging/setLevel'];

export const JSONRPC_MUTATIONS: Mutation[] = [
  mutation({
    ...server,
    id: 'jsonrpc.answer-wrong-id',
    requirements: ['JR-04'],
    description: 'every answer to tools/list carries an id no request used (the original id plus 7919, or suffixed)',
    ...onAnswer(['tools/list'], (m) => {
      m.id = typeof m.id === 'number' ? m.id + 7919 : `${String(m.id)}-x`;
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.answer-id-type',
    requirements: ['JR-04'],
    related: ['JR-02'],
    description: 'answers echo a numeric request id as a string (and a string id that looks like a number as a number)',
    ...onAnswer('*', (m) => {
      if (typeof m.id === 'number') m.id = String(m.id);
      else if (typeof m.id === 'string' && /^\d+$/.test(m.id)) m.id = Number(m.id);
      else return undefined;
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.no-version-member',
    requirements: ['JR-01'],
    // Without "jsonrpc" the line is no JSON-RPC message at all: on stdio that is stdout noise (IO-02).
    related: ['IO-02'],
    description: 'answers to tools/list and prompts/list lack the "jsonrpc" member',
    ...onAnswer(['tools/list', 'prompts/list', 'resources/list'], (m) => (drop(m, 'jsonrpc') ? [m] : undefined)),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.version-1',
    requirements: ['JR-01'],
    description: 'every answer says "jsonrpc": "1.0"',
    ...onAnswer('*', (m) => (put(m, 'jsonrpc', '1.0') ? [m] : undefined)),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.result-and-error',
    requirements: ['JR-04', 'JR-06'],
    description: 'successful answers to list requests also carry an error member',
    ...onResult(['tools/list', 'prompts/list', 'resources/list'], (_r, _c, m) => put(m, 'error', { code: -32603, message: 'also an error' }, true)),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.result-not-object',
    requirements: ['JR-04'],
    description: 'the result of ping and of resources/templates/list is an array instead of an object',
    ...onResult(['ping', 'resources/templates/list', 'completion/complete'], (_r, _c, m) => put(m, 'result', [])),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.error-code-string',
    requirements: ['JR-06'],
    description: 'error answers carry their code as a string ("-32602")',
    ...onError(NOT_HANDSHAKE, (e) => (typeof e.code === 'number' ? put(e, 'code', String(e.code)) : false)),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.error-code-fraction',
    requirements: ['JR-06'],
    description: 'error answers carry a non-integer code (code + 0.5)',
    ...onError('*', (e) => (typeof e.code === 'number' ? put(e, 'code', e.code + 0.5) : false)),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.error-no-message',
    requirements: ['JR-06'],
    description: 'error answers lack error.message',
    ...onError('*', (e) => drop(e, 'message')),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.error-without-id',
    requirements: ['JR-06'],
    description: 'error answers to requests whose id was readable omit the id',
    ...onError('*', (_e, _c, m) => drop(m, 'id')),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.error-null-id',
    requirements: ['JR-06', 'JR-02'],
    description: 'error answers to requests whose id was readable carry "id": null',
    ...onError('*', (_e, ctx, m) => (ctx.request ? put(m, 'id', null) : false)),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.duplicate-answer',
    requirements: ['JR-04'],
    related: ['JR-03', 'JR-07'],
    description: 'every answer to tools/list is sent twice',
    ...onAnswer(['tools/list'], (m) => [m, structuredClone(m)]),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.silent-tools-list',
    requirements: ['JR-04'],
    description: 'tools/list is never answered',
    ...onAnswer(['tools/list'], () => []),
  }),
  mutation({
    ...server,
    id: 'jsonrpc.silent-errors',
    requirements: ['JR-06', 'JR-04'],
    description: 'no error answer is ever sent (every request refused is met with silence)',
    toClient(m, ctx) {
      if (!isObj(m.error) || !('id' in m) || 'method' in m) return undefined;
      if (ctx.request && !NOT_HANDSHAKE.includes(ctx.request.method) && ctx.request.method !== 'tools/call') return undefined;
      return [];
    },
  }),
  mutation({
    ...server,
    id: 'jsonrpc.error-as-result',
    requirements: ['JR-06'],
    related: ['TE-01', 'VN-07', 'CAP-01', 'RS-01', 'PM-01'],
    description: 'error answers are turned into empty successful results',
    toClient(m, ctx) {
      if (!isObj(m.error) || !ctx.request) return undefined;
      delete m.error;
      m.result = ctx.era === 'modern' ? { resultType: 'complete' } : {};
      return [m];
    },
  }),
  mutation({
    ...server,
    id: 'jsonrpc.parse-error-code',
    requirements: ['JR-06'],
    description: 'the answer to unparseable input says -32600 instead of -32700',
    toClient(m) {
      if (!isObj(m.error) || m.error.code !== -32700) return undefined;
      m.error.code = -32600;
      return [m];
    },
  }),
  mutation({
    ...server,
    id: 'jsonrpc.invalid-request-code',
    requirements: ['JR-06'],
    related: ['JR-02', 'JR-08'],
    description: 'answers that say -32600 (invalid request) say -32603 (internal error) instead',
    toClient(m) {
      if (!isObj(m.error) || m.error.code !== -32600) return undefined;
      m.error.code = -32603;
      return [m];
    },
  }),
  mutation({
    ...server,
    id: 'jsonrpc.method-not-found-code',
    requirements: ['VN-07', 'CAP-01'],
    description: 'answers that say -32601 (method not found) say -32602 instead',
    toClient(m) {
      if (!isObj(m.error) || m.error.code !== -32601) return undefined;
      m.error.code = -32602;
      return [m];
    },
  }),
  mutation({
    ...server,
    id: 'jsonrpc.invalid-params-code',
    requirements: ['TE-01', 'PM-01', 'RS-01'],
    related: ['MT-02', 'JR-06'],
    description: 'answers that say -32602 (invalid params) say -32603 (internal error) instead',
    toClient(m) {
      if (!isObj(m.error) || m.error.code !== -32602) return undefined;
      m.error.code = -32603;
      return [m];
    },
  }),
  mutation({
    ...server,
    id: 'jsonrpc.answers-notification',
    requirements: ['JR-07'],
    // To the client the answer is a response to no request it sent.
    related: ['JR-04'],
    description: 'the server answers client notifications (initialized, cancelled, ...) with a result',
    toServer(m, ctx) {
      if (typeof m.method !== 'string' || 'id' in m || !m.method.startsWith('notifications/')) return undefined;
      ctx.reply({ jsonrpc: '2.0', id: 0, result: {} });
      return [m];
    },
  }),
];
