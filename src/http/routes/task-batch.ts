// Batch decisions (docs/task-actions.md, "Batch decisions"). Mounted at /api/v1/workflow/tasks
// before the task routers, so /batch/approve is not read as /{id}/approve with the id "batch".
import type { AppDeps } from '../../context.js';
import { decideTasks, type Decision } from '../../services/task-batch.js';
import { Permissions } from '../../services/permissions.js';
import { json, jsonBody, ok } from '../envelope.js';
import { toAppError } from '../errors.js';
import { IdempotencyHeaders, idempotency } from '../idempotency.js';
import { requirePermission } from '../middleware/auth.js';
import { createRouter, defineRoute } from '../router.js';
import * as s from './task-batch.schemas.js';

const tags = ['tasks'];

export function taskBatchRoutes(deps: AppDeps) {
  const r = createRouter();
  for (const [decision, summary] of [
    ['approve', 'Approve several tasks (1–100): each is its own approve with its own rules; answers per task'],
    ['reject', 'Reject several tasks (1–100): each is its own reject with its own rules; answers per task'],
  ] as Array<[Decision, string]>) {
    r.openapi(
      defineRoute({
        method: 'post',
        path: `/batch/${decision}`,
        tags,
        summary,
        middleware: [requirePermission(Permissions.OPERATE)],
        request: { headers: IdempotencyHeaders, body: jsonBody(s.BatchDecisionBody) },
        responses: { 200: json(s.BatchDecisionResult) },
      }),
      async (c) => {
        const body = c.req.valid('json');
        const key = await idempotency(c, body);
        const result = await decideTasks(
          deps,
          c.get('principal'),
          decision,
          body.taskIds,
          body.comment,
          key,
          toAppError,
        );
        return c.json(ok(result), 200);
      },
    );
  }
  return r;
}
