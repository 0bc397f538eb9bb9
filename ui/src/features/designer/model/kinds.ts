// What the "+" menu adds: each kind is one or more DSL nodes with their inner connections.
// New nodes start valid where a default exists (an approver is the initiator's manager) and
// empty where only the author can say (a condition, a function name), so a problem shows.
import type { Conn, Doc, Node } from './doc.js';
import { freshId } from './doc.js';

export const addKinds = [
  'approver',
  'cc',
  'condition',
  'inclusive',
  'parallel',
  'service',
  'http',
  'ai',
  'delay',
  'subProcess',
  'automation',
  'end',
] as const;
export type AddKind = (typeof addKinds)[number];

/** Names new nodes get, in the reader's language (the model stays free of words). */
export type KindNames = Record<AddKind | 'join' | 'branch', string>;

export interface Fragment {
  nodes: Node[];
  /** Connections inside the fragment. */
  conns: Conn[];
  /** The node the slot's connections now lead to. */
  entry: string;
  /** Where the fragment continues to the old target: its node and the relations it leaves by (none for an end). */
  exits: Array<{ from: string; type: string }>;
}

export const newApprover = (id: string, name: string): Node => ({
  id,
  type: 'userTask',
  name,
  configuration: { approver: { type: 'manager', levels: 1 }, approveMode: 'single', reject: { strategy: 'terminate' } },
});

/** The nodes and connections of a new `kind`, with ids unused in `doc`. */
export function fragmentOf(doc: Doc, kind: AddKind, names: KindNames): Fragment {
  const taken = new Set<string>();
  const id = (prefix: string) => {
    const fresh = freshId(doc, prefix, taken);
    taken.add(fresh);
    return fresh;
  };
  const single = (node: Node): Fragment => ({
    nodes: [node],
    conns: [],
    entry: node.id,
    exits: node.type === 'end' ? [] : [{ from: node.id, type: 'Success' }],
  });
  switch (kind) {
    case 'approver':
      return single(newApprover(id('approver'), names.approver));
    case 'cc':
      return single({ id: id('cc'), type: 'ccTask', name: names.cc, configuration: { ccUserIds: [] } });
    case 'service':
      return single({
        id: id('service'),
        type: 'serviceTask',
        name: names.service,
        configuration: { functionName: '' },
      });
    case 'http':
      return single({ id: id('http'), type: 'httpCall', name: names.http, configuration: { url: '', method: 'GET' } });
    case 'ai':
      // GFlow's aiAgent with its defaults; the agent is the author's pick from the catalogue.
      return single({ id: id('ai'), type: 'aiAgent', name: names.ai, configuration: { agentId: '' } });
    case 'delay':
      return single({ id: id('delay'), type: 'delay', name: names.delay, configuration: { delayMs: 60_000 } });
    case 'subProcess':
      return single({ id: id('sub'), type: 'subProcess', name: names.subProcess, configuration: { targetId: '' } });
    case 'automation':
      // GFlow's automation: runs a rule chain; waits for its output unless told otherwise.
      return single({
        id: id('automation'),
        type: 'automation',
        name: names.automation,
        configuration: { targetId: '' },
      });
    case 'end':
      return single({ id: id('end'), type: 'end', name: names.end });
    case 'condition': {
      const s = id('condition');
      return {
        nodes: [
          { id: s, type: 'switch', name: names.condition, configuration: { cases: [{ case: '', then: 'case1' }] } },
        ],
        conns: [],
        entry: s,
        exits: [
          { from: s, type: 'case1' },
          { from: s, type: 'Default' },
        ],
      };
    }
    case 'inclusive': {
      const s = id('inclusive');
      const j = id('join');
      return {
        nodes: [
          { id: s, type: 'inclusive', name: names.inclusive, configuration: { cases: [{ case: '', then: 'case1' }] } },
          { id: j, type: 'join', name: names.join },
        ],
        conns: [
          { fromId: s, toId: j, type: 'case1' },
          { fromId: s, toId: j, type: 'Default' },
        ],
        entry: s,
        exits: [{ from: j, type: 'Success' }],
      };
    }
    case 'parallel': {
      const f = id('fork');
      const j = id('join');
      const a = newApprover(id('approver'), names.approver);
      const b = newApprover(id('approver'), names.approver);
      return {
        nodes: [{ id: f, type: 'fork', name: names.parallel }, a, b, { id: j, type: 'join', name: names.join }],
        conns: [
          { fromId: f, toId: a.id, type: 'Success' },
          { fromId: f, toId: b.id, type: 'Success' },
          { fromId: a.id, toId: j, type: 'Success' },
          { fromId: b.id, toId: j, type: 'Success' },
        ],
        entry: f,
        exits: [{ from: j, type: 'Success' }],
      };
    }
  }
}
