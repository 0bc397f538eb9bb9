// Per test file: a client and ONE Worker (the shared bundle, the in-memory activity fakes, a task
// queue of its own) on the dev server the global setup started. Instances start the way the
// server starts them (Update-with-Start of `sync`) and actions go through the server's runUpdate.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, type Worker, type WorkerOptions } from '@temporalio/worker';
import { compileProcess, type FunctionBinding } from '../../../dsl/index.js';
import { AppError } from '../../../src/errors.js';
import type { Config } from '../../../src/config.js';
import {
  runUpdate,
  startInstanceWorkflow,
  startPredictedWorkflow,
  workflowIdOf,
  type EngineAccess,
} from '../../../src/temporal/engine-client.js';
import { serviceFunctionNames } from '../../../src/definitions/builtin-functions.js';
import type { Actor } from '../../../workflows/messages.js';
import * as m from '../../../workflows/messages.js';
import type { ActionResult, StartInput } from '../../../workflows/engine/types.js';
import { createFakeActivities, type Directory, type Fakes } from './fakes.js';
import { predictFirstState, type FirstState } from '../../../src/instances/first-state.js';
import { Engine } from '../../../workflows/engine/engine.js';
import { inputsAtStart } from '../../../workflows/engine/user-task/assignment.js';
import { aheadOf } from '../../../workflows/engine/approvers-ahead.js';
import { ENGINE_VERSION } from '../../../workflows/engine/features.js';
import { createWorkflowWorker, type WorkflowWorkerSettings } from '../../../src/main/workflow-worker.js';

export const TENANT = 'tenant-wf';

let runtimeInstalled = false;

export interface Refusal {
  type: string;
  message: string;
  data: unknown;
}

export interface Harness {
  env: TestWorkflowEnvironment;
  /** The service's Worker running this file's workflows. */
  worker: Worker;
  fakes: Fakes;
  projection: Fakes['projection'];
  taskQueue: string;
  actor(userId: string, extra?: Partial<Actor>): Actor;
  start(
    dsl: unknown,
    opts?: {
      initiator?: string;
      variables?: Record<string, unknown>;
      historyLimit?: number;
      businessKey?: string;
      /** Catalogue functions, pinned into the document as deploy pins them (docs/service-functions.md). */
      functions?: Record<string, FunctionBinding>;
      /** An older engine version (workflows/engine/features.ts) than the one new runs take. */
      engineVersion?: number;
      /**
       * Start as the server does when it predicts the first state (src/instances/first-state.ts):
       * the first approvers looked up here, the prediction written, no wait for the worker.
       * `tamper` changes the prediction before it is written and sent (a correction follows).
       */
      predicted?: boolean | { tamper: (first: FirstState) => void };
    },
  ): Promise<{ instanceId: string; answer: ActionResult; first?: FirstState | null }>;
  act<A>(
    instanceId: string,
    def: UpdateDefinition<ActionResult, [A]>,
    arg: A,
    idempotencyKey?: string,
  ): Promise<ActionResult>;
  refused<A>(instanceId: string, def: UpdateDefinition<ActionResult, [A]>, arg: A): Promise<Refusal>;
  /** `userId` approves (or rejects) their one active task on the instance. */
  decide(
    instanceId: string,
    userId: string,
    decision?: 'approve' | 'reject',
    activityId?: string,
  ): Promise<ActionResult>;
  handle(instanceId: string): ReturnType<TestWorkflowEnvironment['client']['workflow']['getHandle']>;
  stop(): Promise<void>;
}

/** The error code an action was refused with, as the HTTP layer maps it (src/http/errors.ts). */
export function refusalOf(err: unknown): Refusal {
  if (err instanceof AppError) return { type: err.type, message: err.message, data: err.data };
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    return { type: err.cause.type ?? 'UNKNOWN', message: err.cause.message, data: err.cause.details?.[0] ?? null };
  }
  throw err;
}

/**
 * What a file may set on its Worker besides the shared ones (a traced worker: its bundle,
 * interceptors, sinks; debug mode), and the service's settings of its workflow threads
 * (src/main/workflow-worker.ts): `vmTimeoutMs` as WORKFLOW_VM_TIMEOUT_MS, `stackTraces` as
 * WORKFLOW_STACK_TRACES.
 */
export type HarnessWorkerOptions = Pick<WorkerOptions, 'workflowBundle' | 'interceptors' | 'sinks' | 'debugMode'> &
  WorkflowWorkerSettings;

export async function startHarness(
  name: string,
  directory?: Directory,
  workerOptions: HarnessWorkerOptions = {},
): Promise<Harness> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    runtimeInstalled = true;
  }
  const env = await TestWorkflowEnvironment.createFromExistingServer({ address: inject('temporalAddress') });
  const fakes = createFakeActivities(directory);
  const taskQueue = `workflow-test-${name}-${randomUUID()}`;
  // The Worker the service runs (src/main/worker.ts).
  const { vmTimeoutMs, stackTraces, threads, ...options } = workerOptions;
  const worker = await createWorkflowWorker(
    {
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: inject('workflowBundlePath') },
      activities: fakes.activities,
      ...options,
    },
    { vmTimeoutMs, stackTraces, threads },
  );
  const running = worker.run();
  const config = { TEMPORAL_TASK_QUEUE: taskQueue } as Config;
  const client = env.client;
  // Answered state goes to the fake read model, as the server writes it to PostgreSQL.
  // No intents here: these tests keep the server alive, so nothing is left to sweep (the sweeper has
  // its own tests against PostgreSQL and a killed server).
  const engine: EngineAccess = {
    temporal: client,
    writeState: async (state) => fakes.projection.apply(state),
    intents: { record: async () => {}, drop: async () => {} },
  };
  const users = new Map(fakes.directory.users.map((u) => [u.id, u]));

  const actor = (userId: string, extra: Partial<Actor> = {}): Actor => ({
    userId,
    admin: false,
    manage: false,
    monitor: false,
    roles: users.get(userId)?.roles ?? [],
    deptId: users.get(userId)?.deptId ?? null,
    ...extra,
  });

  return {
    env,
    worker,
    fakes,
    projection: fakes.projection,
    taskQueue,
    actor,
    async start(dsl, opts = {}) {
      const catalogue = opts.functions ?? {};
      const compiled = compileProcess(dsl, { functions: [...serviceFunctionNames, ...Object.keys(catalogue)] });
      if (!compiled.ok) throw new Error(`DSL does not compile: ${JSON.stringify(compiled.problems)}`);
      const doc = opts.functions ? { ...compiled.doc, functions: catalogue } : compiled.doc;
      const instanceId = randomUUID();
      const input: StartInput = {
        instance: {
          id: instanceId,
          tenantId: TENANT,
          definitionId: `def-${doc.ruleChain.id}`,
          processKey: doc.ruleChain.id,
          processVersion: 1,
          processName: doc.ruleChain.name ?? doc.ruleChain.id,
          businessKey: opts.businessKey ?? null,
          initiatorId: opts.initiator ?? 'alice',
          startTime: new Date().toISOString(),
        },
        doc,
        variables: opts.variables ?? {},
        ...(opts.historyLimit ? { historyLimit: opts.historyLimit } : {}),
        ...(opts.engineVersion !== undefined ? { engineVersion: opts.engineVersion } : {}),
      };
      if (opts.predicted) {
        const inputs = inputsAtStart(new Engine(input.instance, input.doc, input.variables));
        const resolved = await Promise.all(inputs.map((i) => fakes.activities.resolveApprovers(i)));
        input.approversAhead = aheadOf(Date.now(), inputs, resolved);
        input.engineVersion ??= ENGINE_VERSION;
        const first = await predictFirstState(input);
        if (!first) return { instanceId, answer: await startInstanceWorkflow(engine, config, input), first };
        if (typeof opts.predicted === 'object') opts.predicted.tamper(first);
        await startPredictedWorkflow(engine, config, first);
        return { instanceId, answer: { taskId: null, instanceStatus: first.snapshot.instance.status }, first };
      }
      const answer = await startInstanceWorkflow(engine, config, input);
      return { instanceId, answer };
    },
    act: (instanceId, def, arg, idempotencyKey) => runUpdate(engine, TENANT, instanceId, def, arg, idempotencyKey),
    async refused(instanceId, def, arg) {
      try {
        const answer = await runUpdate(engine, TENANT, instanceId, def, arg);
        throw new Error(`${def.name} was accepted: ${JSON.stringify(answer)}`);
      } catch (err) {
        return refusalOf(err);
      }
    },
    decide(instanceId, userId, decision = 'approve', activityId) {
      const task = fakes.projection.taskOf(instanceId, userId, activityId);
      return runUpdate(engine, TENANT, instanceId, decision === 'approve' ? m.approve : m.reject, {
        actor: actor(userId),
        taskId: task.id,
      });
    },
    handle: (instanceId) => client.workflow.getHandle(workflowIdOf(TENANT, instanceId)),
    async stop() {
      worker.shutdown();
      await running;
      await env.teardown();
    },
  };
}

/**
 * The test file's harness: started before its tests, stopped after them. Usable as soon as the
 * file's beforeAll has run (it reads through to the started harness).
 */
export function useHarness(
  name: string,
  directory?: Directory,
  workerOptions?: () => Promise<HarnessWorkerOptions>,
): Harness {
  let started: Harness | undefined;
  beforeAll(async () => {
    started = await startHarness(name, directory, await workerOptions?.());
  });
  afterAll(async () => started?.stop());
  return new Proxy({} as Harness, {
    get(_, prop) {
      if (!started) throw new Error(`the ${name} harness is used before its beforeAll ran`);
      return Reflect.get(started, prop);
    },
  });
}

export { m };

/** The error an approve of a task the instance does not have fails with: thrown in workflow code. */
export const workflowError = (h: Harness, instanceId: string) =>
  h
    .handle(instanceId)
    .executeUpdate(m.approve, { args: [{ actor: h.actor('bob'), taskId: 'no-such-task' }] })
    .catch((err: unknown) => err);

/** The refusal type when `userId` runs `def` on the task `taskId` (with `extra` in the argument). */
export const refusalType = async (
  h: Harness,
  instanceId: string,
  def: UpdateDefinition<ActionResult, [any]>,
  userId: string,
  taskId: string,
  extra: Record<string, unknown> = {},
) => (await h.refused(instanceId, def, { actor: h.actor(userId), taskId, ...extra })).type;

/** `by` adds `assigneeUserIds` to their task `taskId` at `position`. */
export const addSign = (
  h: Harness,
  instanceId: string,
  by: string,
  taskId: string,
  assigneeUserIds: string[],
  position: NonNullable<m.AddSignInput['position']>,
) => h.act(instanceId, m.addSign, { actor: h.actor(by), taskId, assigneeUserIds, position });
