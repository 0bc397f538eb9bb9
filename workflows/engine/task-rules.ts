// Shared rules of the task actions: who may act, on what, and the Update factory.
import { ApplicationFailure } from '@temporalio/workflow';
import type { UpdateDefinition } from '@temporalio/common';
import type { ErrorCode } from '../../src/errors.js';
import type * as m from '../messages.js';
import { type Engine, type NodeRun } from './engine.js';
import { onUpdate } from './handlers.js';
import { fault, requireActionable, settle } from './actions.js';
import type { ActionResult, Candidates, TaskState } from './types.js';

export const URGE_INTERVAL_MS = 10 * 60_000;

/** A refusal that carries data for the client (the envelope's `data`). */
export function refuse(type: ErrorCode, message: string, data: Record<string, unknown>): never {
  throw ApplicationFailure.create({ type, message, details: [data], nonRetryable: true });
}

export const trailOf = (
  task: TaskState,
  actor: m.Actor,
  comment?: string | null,
  detail?: Record<string, unknown>,
) => ({
  activityId: task.activityId,
  taskId: task.id,
  userId: actor.userId,
  comment: comment ?? null,
  detail: detail ?? null,
});

/** The assignee's own task: actionable, and not handed to a delegatee. */
export function requireOwnTask(engine: Engine, input: m.TaskRef): TaskState {
  const task = requireActionable(engine, input);
  if (task.owner)
    fault('INVALID_STATE', `The task is delegated by ${task.owner}: the delegatee approves, rejects or resolves it`);
  return task;
}

export const isCandidate = (c: Candidates, actor: m.Actor) =>
  c.userIds.includes(actor.userId) ||
  c.roleIds.some((r) => actor.roles.includes(r)) ||
  (actor.deptId !== null && c.deptIds.includes(actor.deptId));

export const runOf = (engine: Engine, task: TaskState): NodeRun | undefined => engine.runs[task.runId];

/** Tasks of a node activation (ballots and add-sign sub-tasks), without the multi-approver parent. */
export const tasksOfActivation = (engine: Engine, run: NodeRun) =>
  Object.values(engine.tasks).filter((t) => t.runId === run.id && t.id !== run.parentTaskId);

/** People who already hold an open task of the activation: they cannot be given another one. */
export function requireNewToNode(engine: Engine, task: TaskState, userIds: string[]) {
  const run = runOf(engine, task);
  const busy = run
    ? tasksOfActivation(engine, run)
        .filter((t) => engine.isOpen(t) && t.assignee && userIds.includes(t.assignee))
        .map((t) => t.assignee!)
    : [];
  if (busy.length)
    refuse('INVALID_TARGET', `Already an approver of this node: ${[...new Set(busy)].join(', ')}`, {
      userIds: [...new Set(busy)],
    });
}

export function requireTarget(input: m.HandoverInput, self: string): string {
  const to = input.assigneeUserId;
  // The type says required; a hand-made payload may still lack it.
  if (!to) fault('VALIDATION_FAILED', 'assigneeUserId is required');
  if (to === self) fault('INVALID_TARGET', 'The task is already with this user');
  return to;
}

/** An Update on one task: validate, apply, then answer once the instance is settled. */
export const defineTaskAction =
  (engine: Engine) =>
  <A extends m.TaskRef>(
    def: UpdateDefinition<ActionResult, [A]>,
    validate: (input: A) => void,
    apply: (input: A) => Partial<ActionResult> | void,
  ) =>
    onUpdate<UpdateDefinition<ActionResult, [A]>>(
      engine,
      def,
      (input) => {
        const extra = apply(input);
        return settle(engine, input.taskId, extra ?? {});
      },
      { validator: validate },
    );
