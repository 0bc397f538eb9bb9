import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { api } from './api.js';

export const examplesDir = path.resolve(import.meta.dirname, '../..', 'examples');
export const example = (name: string) => JSON.parse(readFileSync(path.join(examplesDir, name), 'utf8'));

export async function deploy(token: string, dsl: unknown) {
  const res = await api('/api/v1/workflow/process-definitions/deploy', { token, body: { dsl } });
  if (res.status !== 201) throw new Error(`deploy failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function start(
  token: string,
  processKey: string,
  variables: Record<string, unknown> = {},
  businessKey?: string,
) {
  const res = await api('/api/v1/workflow/process-instances/start', {
    token,
    body: { processKey, variables, ...(businessKey ? { businessKey } : {}) },
  });
  if (res.status !== 201) throw new Error(`start failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.instanceId as string;
}

export async function todo(token: string) {
  const res = await api('/api/v1/workflow/process-instances/todo?pageSize=200', { token });
  expect(res.status).toBe(200);
  return res.body.data.items as any[];
}

/** The caller's open task on an instance (exactly one expected). */
export async function myTask(token: string, instanceId: string, activityId?: string) {
  const mine = (await todo(token)).filter(
    (t) => t.instanceId === instanceId && (!activityId || t.activityId === activityId),
  );
  expect(mine, `open tasks of ${instanceId}`).toHaveLength(1);
  return mine[0];
}

export async function act(
  token: string,
  taskId: string,
  action: string,
  body?: unknown,
  headers?: Record<string, string>,
) {
  return api(`/api/v1/workflow/tasks/${taskId}/${action}`, { token, body: body ?? {}, headers });
}

export async function actOk(token: string, taskId: string, action: string, body?: unknown) {
  const res = await act(token, taskId, action, body);
  if (res.status !== 200) throw new Error(`${action} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function instance(token: string, id: string) {
  const res = await api(`/api/v1/workflow/process-instances/${id}`, { token });
  if (res.status !== 200) throw new Error(`instance ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** For waits on timers and http calls, which may finish after an action's 200. */
export async function eventually<T>(fn: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (check(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A minimal linear process around one userTask configuration. */
export function oneStep(
  key: string,
  configuration: Record<string, unknown>,
  extra: { nodeInfo?: Record<string, unknown>; processInfo?: Record<string, unknown> } = {},
) {
  return {
    ruleChain: {
      id: key,
      name: `Process ${key}`,
      root: true,
      additionalInfo: { category: 'Test', ...extra.processInfo },
    },
    metadata: {
      firstNodeIndex: 0,
      nodes: [
        { id: 'start', type: 'startTask', name: 'Start' },
        {
          id: 'approve',
          type: 'userTask',
          name: 'Approve',
          configuration,
          ...(extra.nodeInfo ? { additionalInfo: extra.nodeInfo } : {}),
        },
        { id: 'end', type: 'end', name: 'End' },
      ],
      connections: [
        { fromId: 'start', toId: 'approve', type: 'Success' },
        { fromId: 'approve', toId: 'end', type: 'Success' },
      ],
    },
  };
}
