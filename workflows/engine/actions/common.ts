// What several task actions write: a task action's trail entry (trailOf) and whom news of a task goes to (handlersOf).
import type * as m from '../../messages.js';
import type { TaskState } from '../types.js';

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

/** Whom news of a task goes to: its assignee or, for a pool, its named candidates. */
export const handlersOf = (task: TaskState) => (task.assignee ? [task.assignee] : task.candidates.userIds);
