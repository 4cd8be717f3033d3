// The order a server campaign shrinks its findings in: one bug often breaks a rule on many methods,
// so each broken rule has its shortest finding shrunk before any rule has a second one shrunk.
import { describe, expect, it } from 'vitest';
import { shrinkOrder } from '../../fuzz/server-campaign.js';

const f = (check: string, method: string, steps: number) => ({ check, key: `${check}|${method}`, steps: Array.from({ length: steps }) });

describe('shrinkOrder', () => {
  it('puts each rule first with its shortest finding, rules in the order first found, then the rest', () => {
    const found = [
      f('jsonrpc.answers-requests', 'tools/list', 1),
      f('jsonrpc.id-echo', 'resources/templates/list', 2),
      f('jsonrpc.answers-requests', 'resources/templates/list', 2),
      f('jsonrpc.id-echo', 'ping', 4),
      f('jsonrpc.id-echo', 'joined write', 1),
      f('wire.schema', 'resources/read', 3),
      f('jsonrpc.id-echo', 'tools/list', 1),
    ];
    expect(shrinkOrder(found).map((x) => `${x.key} ${x.steps.length}`)).toEqual([
      'jsonrpc.answers-requests|tools/list 1',
      'jsonrpc.id-echo|joined write 1',
      'wire.schema|resources/read 3',
      'jsonrpc.answers-requests|resources/templates/list 2',
      'jsonrpc.id-echo|tools/list 1',
      'jsonrpc.id-echo|resources/templates/list 2',
      'jsonrpc.id-echo|ping 4',
    ]);
  });

  it('keeps every finding exactly once', () => {
    const found = [f('a', 'x', 3), f('b', 'x', 1), f('a', 'y', 3), f('a', 'z', 2)];
    const order = shrinkOrder(found);
    expect(order).toHaveLength(found.length);
    expect(new Set(order)).toEqual(new Set(found));
    expect(shrinkOrder([])).toEqual([]);
  });
});
