// The component catalogue behind GET /components: one JSON Schema per node type.
import { z } from 'zod';
import { nodeConfigSchemas } from './schemas.js';
import { nodeTypes, ruleChainNodeTypes, type NodeType } from './types.js';

export interface ComponentDescriptor {
  type: NodeType;
  name: string;
  description: string;
  configSchema: Record<string, unknown>;
}

const describe: Record<NodeType, [name: string, description: string]> = {
  startTask: ['Start', 'Start marker; the initiator submits here.'],
  userTask: ['Approval', 'Human approval or work item, resolved to approvers by a rule.'],
  ccTask: ['Copy', 'Copies the instance to users; never blocks.'],
  switch: ['Exclusive gateway', 'First case whose condition is true wins; none → Default.'],
  inclusive: ['Inclusive gateway', 'Every true case runs its branch in parallel; none → Default.'],
  fork: ['Parallel split', 'Runs every outgoing branch in parallel.'],
  join: ['Join', 'Waits for every branch of the matching fork/inclusive.'],
  delay: ['Delay', 'Waits delayMs milliseconds (number or template).'],
  serviceTask: [
    'Service call',
    'Calls a built-in or a catalogue service function (activity or webhook); its result merges into variables.',
  ],
  httpCall: ['HTTP call', 'HTTP request; status ≥ 400 takes Failure.'],
  subProcess: ['Sub-process', 'Starts the active version of another process and waits for it.'],
  aiAgent: [
    'AI pre-review',
    'Sends the application to a catalogue AI agent and routes on its AI_DECISION verdict; a person decides when it is unclear.',
  ],
  automation: [
    'Automation',
    'Runs a rule chain with the variables as its message; waiting, its output merges into the variables. A failed or stopped chain takes Failure.',
  ],
  end: ['End', 'The instance completes.'],
};

/**
 * `bpm`: every node a process may hold (GFlow's process palette: approval and system nodes, with
 * `automation`); `rulechain`: the system nodes alone, as listed before chains had their own
 * catalogue (chains/, served for `scope=rulechain`).
 */
export function componentCatalogue(scope: 'bpm' | 'rulechain'): ComponentDescriptor[] {
  const types: readonly NodeType[] = scope === 'bpm' ? nodeTypes : ruleChainNodeTypes;
  return types.map((type) => ({
    type,
    name: describe[type][0],
    description: describe[type][1],
    // io 'input': fields with defaults are optional for the designer.
    configSchema: z.toJSONSchema(nodeConfigSchemas[type], { io: 'input' }) as Record<string, unknown>,
  }));
}
