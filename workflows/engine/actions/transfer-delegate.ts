// Transfer and delegate (twins, one factory): the assignee hands its own task to someone new to the node.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { requireNewToNode, requireOwnTask, requireSwitch, requireTarget } from '../guards.js';
import type { TaskState } from '../types.js';
import { defineTaskAction } from './settle.js';
import { trailOf } from './common.js';

export function registerTransferAndDelegate(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  // transfer / delegate: the assignee hands its own task to someone new to the node, who may act at once;
  // `pass` moves the task and gives the trail's detail.
  const handOver = (
    def: typeof m.transfer,
    action: 'transfer' | 'delegate',
    pass: (task: TaskState, to: string) => Record<string, unknown>,
  ) =>
    taskAction(
      def,
      (input) => {
        const task = requireOwnTask(engine, input);
        requireSwitch(engine, task, action);
        requireNewToNode(engine, task, [requireTarget(input, input.actor.userId)]);
      },
      (input) => {
        const task = engine.tasks[input.taskId];
        const detail = pass(task, input.assigneeUserId);
        engine.setStatus(task, 'active');
        engine.trail(action, trailOf(task, input.actor, input.reason, { ...detail, reason: input.reason ?? null }));
      },
    );

  handOver(m.transfer, 'transfer', (task, to) => {
    const from = task.assignee;
    task.assignee = to;
    task.claimedBy = null;
    return { from, to };
  });

  // The delegator stays the owner: the task comes back to them once resolved.
  handOver(m.delegate, 'delegate', (task, to) => {
    const from = task.assignee!;
    task.owner = from;
    task.assignee = to;
    return { owner: from, to };
  });
}
