// The bare-Temporal baseline of `npm run bench`: the least a workflow needs to run a 3-step
// sequential approval with the service's message shape — a start Update (`sync`, sent with
// update-with-start), one validated `approve` Update per step, a Query for "my task". No
// activities, no search-attribute upserts, no read model. Bundled on its own by
// bench/baseline/worker.ts; nothing of the service's workflows/ is imported.
//
// With `recordEachState`, every Update answers only after one no-op activity has run for the
// state it produced: the least Temporal needs for a side effect that happens once per recorded
// state (the service's read-model projection), so its cost is Temporal's own.
//
// With `lookUpEachStep`, an approve that opens the next step first runs one no-op local activity
// (the service's next node looks its approvers up with one: workflows/engine/user-task.ts), so
// the cost of that mechanism is measured on its own.
//
// Phase 1f's parts (bench/baseline/api-server.ts) add what the service's workflow carries beyond
// that: with `upsertStatus` the status search attribute is upserted when it ends (the service's
// InstanceStatus, for the Web UI's filters); with `pad` each answer carries that many more bytes
// (the service's answers carry the state the caller writes).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import {
  allHandlersFinished,
  condition,
  defineQuery,
  defineUpdate,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';

/** The service's status search attribute (registered on the bench's namespace by the stack). */
export const InstanceStatus = defineSearchAttributeKey('InstanceStatus', SearchAttributeType.KEYWORD);

export interface BareState {
  step: number;
  taskId: string | null;
  assignee: string | null;
  status: 'active' | 'completed';
  pad?: string;
}
export interface BareApproveInput {
  taskId: string;
  userId: string;
  comment?: string;
}

export const sync = defineUpdate<BareState, []>('sync');
export const approve = defineUpdate<BareState, [BareApproveInput]>('approve');
export const current = defineQuery<BareState>('current');

export interface BareActivities {
  record(state: BareState): Promise<void>;
  lookUp(step: number): Promise<void>;
}
const { record } = proxyActivities<BareActivities>({ startToCloseTimeout: '30s' });
const { lookUp } = proxyLocalActivities<BareActivities>({ startToCloseTimeout: '30s' });

export async function bareApproval(input: {
  approvers: string[];
  recordEachState?: boolean;
  lookUpEachStep?: boolean;
  upsertStatus?: boolean;
  pad?: number;
  /** Carried in the start's input only, to give it the service's size. */
  padding?: string;
}): Promise<BareState> {
  let step = 0;
  const state = (): BareState => {
    const done = step >= input.approvers.length;
    return {
      step,
      taskId: done ? null : `t${step}`,
      assignee: done ? null : input.approvers[step],
      status: done ? 'completed' : 'active',
    };
  };
  const answer = async () => {
    const s = state();
    if (input.recordEachState) await record(s);
    if (input.upsertStatus && s.status === 'completed')
      upsertSearchAttributes([{ key: InstanceStatus, value: s.status }]);
    return input.pad ? { ...s, pad: 'x'.repeat(input.pad) } : s;
  };
  setHandler(sync, answer);
  setHandler(current, () => state());
  setHandler(
    approve,
    async () => {
      step++;
      if (input.lookUpEachStep && step < input.approvers.length) await lookUp(step);
      return answer();
    },
    {
      validator: (a) => {
        const s = state();
        if (s.status !== 'active') throw new Error('The instance has ended');
        if (a.taskId !== s.taskId) throw new Error(`No open task ${a.taskId}`);
        if (a.userId !== s.assignee) throw new Error('Only the assignee may act on this task');
      },
    },
  );
  await condition(() => step >= input.approvers.length && allHandlersFinished());
  return state();
}

/**
 * The chain phase's baseline (bench/chains.ts): the five steps of the bench's rule chain (filter,
 * transform, switch, an HTTP call to a local receiver, log), each one activity, as plain Temporal.
 */
export interface BareChainActivities {
  chainFilter(data: Record<string, unknown>): Promise<boolean>;
  chainTransform(data: Record<string, unknown>): Promise<Record<string, unknown>>;
  chainSwitch(data: Record<string, unknown>): Promise<string>;
  chainPost(url: string, data: Record<string, unknown>): Promise<Record<string, unknown>>;
  chainLog(data: Record<string, unknown>): Promise<string>;
}
const steps = proxyActivities<BareChainActivities>({ startToCloseTimeout: '30s' });

export async function bareChain(input: { url: string; data: Record<string, unknown> }) {
  if (!(await steps.chainFilter(input.data))) return { filtered: true };
  const transformed = await steps.chainTransform(input.data);
  const route = await steps.chainSwitch(transformed);
  const answer = await steps.chainPost(`${input.url}/${route}`, transformed);
  await steps.chainLog(answer);
  return answer;
}
