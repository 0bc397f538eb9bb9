// Service functions and sub-process start-up for the workflow.
import { ApplicationFailure } from '@temporalio/common';
import type { ProcessDocument } from '../dsl/index.js';
import type { StartInput } from '../workflows/engine/types.js';
import { ENGINE_VERSION } from '../workflows/engine/features.js';
import * as sa from '../workflows/search-attributes.js';
import { serviceFunctions } from '../src/definitions/builtin-functions.js';
import type { ActivityDeps } from './deps.js';

export interface SubProcessInput {
  tenantId: string;
  processKey: string;
  childInstanceId: string;
  initiatorId: string;
  parentInstanceId: string;
  parentBusinessKey: string | null;
  nodeId: string;
  variables: Record<string, unknown>;
}

export interface ServiceFunctionInput {
  name: string;
  param: unknown;
  variables: Record<string, unknown>;
  instanceId: string;
  tenantId: string;
}

/** Runs a registered service function; any failure is final (SERVICE_FUNCTION). Pure: the workflow tests' fakes run it too. */
export async function runServiceFunction(input: ServiceFunctionInput) {
  const fn = serviceFunctions[input.name];
  if (!fn) throw ApplicationFailure.nonRetryable(`no service function ${input.name} is registered`, 'SERVICE_FUNCTION');
  try {
    return await fn(input.param, {
      variables: input.variables,
      instanceId: input.instanceId,
      tenantId: input.tenantId,
    });
  } catch (err) {
    throw ApplicationFailure.nonRetryable(err instanceof Error ? err.message : String(err), 'SERVICE_FUNCTION');
  }
}

export function createEngineSupportActivities(deps: ActivityDeps) {
  return {
    runServiceFunction,

    /** Registers the child instance in the read model and answers how to start its workflow. */
    async prepareSubProcess(input: SubProcessInput) {
      const em = deps.orm.em.fork();
      const rows = await em.execute<
        Array<{ id: string; key: string; name: string; version: number; dsl: ProcessDocument }>
      >(
        `select id, key, name, version, dsl from process_definitions where tenant_id = ? and key = ? and status = 'active'`,
        [input.tenantId, input.processKey],
      );
      const def = rows[0];
      if (!def) throw ApplicationFailure.nonRetryable(`no active version of process ${input.processKey}`, 'NOT_FOUND');
      const businessKey = `${input.parentBusinessKey ?? input.parentInstanceId}/${input.nodeId}`;
      const startTime = new Date().toISOString();
      const workflowId = sa.workflowIdOf(input.tenantId, input.childInstanceId);
      await em.execute(
        `insert into instances (id, tenant_id, workflow_id, definition_id, process_key, process_version, process_name, business_key, status, initiator_id, variables, start_time)
         values (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?::jsonb, ?) on conflict (id) do nothing`,
        [
          input.childInstanceId,
          input.tenantId,
          workflowId,
          def.id,
          def.key,
          def.version,
          def.name,
          businessKey,
          input.initiatorId,
          JSON.stringify(input.variables),
          startTime,
        ],
      );
      const start: StartInput = {
        engineVersion: ENGINE_VERSION,
        instance: {
          id: input.childInstanceId,
          tenantId: input.tenantId,
          definitionId: def.id,
          processKey: def.key,
          processVersion: def.version,
          processName: def.name,
          businessKey,
          initiatorId: input.initiatorId,
          startTime,
        },
        doc: def.dsl,
        variables: input.variables,
        historyLimit: deps.config.WORKFLOW_HISTORY_LIMIT,
      };
      return {
        workflowId,
        input: start,
      };
    },
  };
}
