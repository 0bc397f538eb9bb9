// Instance suspend / activate (docs/contract.md#action-rules): the initiator (process switch `suspend`) or
// workflow:instance:manage. Mounted at /api/v1/workflow/process-instances beside the instance router.
import * as toolbox from '../../services/task-toolbox.js';
import { json, ok } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { ActionBody, IdParam, InstanceStatus } from './instances.schemas.js';
import type { AppDeps } from '../context.js';
import { idempotency, IdempotencyHeaders } from '../idempotency.js';

const tags = ['process-instances'];

export function instanceLifecycleRoutes(deps: AppDeps) {
  const r = createRouter();
  for (const [action, summary] of [
    ['suspend', 'Suspend: open tasks become suspended and every task action is refused until activation; a draft is 409'],
    ['activate', 'Activate a suspended instance: its tasks get back the status they had'],
  ] as const) {
    r.openapi(
      defineRoute({ method: 'post', path: `/{id}/${action}`, tags, summary, request: { params: IdParam, headers: IdempotencyHeaders, body: { required: false, content: { 'application/json': { schema: ActionBody } } } }, responses: { 200: json(InstanceStatus) } }),
      async (c) => {
        const body = ((c.req as any).valid('json') ?? {}) as { reason?: string; comment?: string };
        return c.json(ok(await toolbox.suspendOrActivateInstance(deps, c.get('principal'), c.req.valid('param').id, action, body, await idempotency(c, body))), 200);
      },
    );
  }
  return r;
}
