// Batch decisions (docs/task-actions.md, "Batch decisions"). Mounted at /api/v1/workflow/tasks
// before the task routers, so /batch/approve is not read as /{id}/approve with the id "batch".
import type { AppDeps } from '../context.js';
import { decideTasks, type Decision } from './task-batch.js';
import { Permissions } from '../permissions.js';
import { toAppError } from '../http/errors.js';
import { createRouter, endpoint } from '../http/router.js';
import * as s from './task-batch.schemas.js';

const tags = ['tasks'];

export function taskBatchRoutes(deps: AppDeps) {
  const r = createRouter();
  for (const [decision, summary] of [
    ['approve', 'Approve several tasks (1–100): each is its own approve with its own rules; answers per task'],
    ['reject', 'Reject several tasks (1–100): each is its own reject with its own rules; answers per task'],
  ] as Array<[Decision, string]>) {
    endpoint(
      r,
      {
        method: 'post',
        path: `/batch/${decision}`,
        tags,
        summary,
        permissions: [Permissions.OPERATE],
        body: s.BatchDecisionBody,
        idempotent: true,
        response: s.BatchDecisionResult,
      },
      ({ principal, body, key }) => decideTasks(deps, principal, decision, body.taskIds, body.comment, key, toAppError),
    );
  }
  return r;
}
