// Migration of running instances to another deployed version of their process (docs/operations.md,
// "Migrating instances"; workflow:admin). A dry run plans from the workflow's state (a query:
// nothing is written) with the same pure planner the `migrate` Update applies.
import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError } from '@temporalio/client';
import { AppError, ErrorCodes } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import { planMigration, type MigrationPlan, type ProcessDocument } from '../../dsl/index.js';
import * as m from '../../workflows/messages.js';
import { actorOf, runUpdate, workflowIdOf } from '../temporal/engine-client.js';
import { definitionOf, findInstanceRow } from '../read-model/read-model.js';

export interface MigrateBody {
  targetDefinitionId: string;
  nodeMapping?: Record<string, string>;
  dryRun?: boolean;
}

export interface BatchMigrateBody extends MigrateBody {
  processKey: string;
  sourceVersion?: number;
  sourceDefinitionId?: string;
  limit?: number;
}

export interface MigrationAnswer {
  instanceId: string;
  dryRun: boolean;
  /** Whether the instance changes (false: it already runs the target). */
  changed: boolean;
  /** Whether nothing refuses the migration. */
  migratable: boolean;
  fromDefinitionId: string;
  fromVersion: number | null;
  toDefinitionId: string;
  toVersion: number;
  status: string;
  plan: MigrationPlan | null;
  /** The node-level difference of the two versions (GET …/compare), null when nothing changes. */
  compare: string | null;
}

const compareLink = (from: string, to: string) =>
  from === to
    ? null
    : `/api/v1/workflow/process-definitions/${encodeURIComponent(from)}/compare/${encodeURIComponent(to)}`;

interface Target {
  id: string;
  key: string;
  version: number;
  name: string;
  doc: ProcessDocument;
}

/** A deployed (active or retired) version of the tenant: 404 unknown, 422 a draft. */
async function loadTarget(em: EntityManager, tenantId: string, id: string): Promise<Target> {
  const rows = await em.execute<
    Array<{ id: string; key: string; version: number | null; name: string; status: string; dsl: any }>
  >(`select id, key, version, name, status, dsl from process_definitions where tenant_id = ? and id = ?`, [
    tenantId,
    id,
  ]);
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', `No process definition ${id}`);
  if (row.status === 'draft' || row.version === null)
    throw new AppError('MIGRATION_TARGET_INVALID', `Definition ${id} is a draft: deploy it before migrating to it`);
  return { id: row.id, key: row.key, version: Number(row.version), name: row.name, doc: row.dsl as ProcessDocument };
}

function requireRunning(row: { status: string; archived: boolean }) {
  if (row.status === 'draft') throw new AppError('INVALID_STATE', 'A draft is not running: submit it first');
  if (row.archived) throw new AppError('INVALID_STATE', `The instance has ended (${row.status})`);
  if (row.status === 'suspended') throw new AppError('INVALID_STATE', 'The instance is suspended: activate it first');
}

function requireSameKey(target: Target, processKey: string) {
  if (target.key !== processKey)
    throw new AppError(
      'MIGRATION_TARGET_INVALID',
      `Definition ${target.id} is a version of ${target.key}, not of ${processKey}`,
    );
}

/** What the migration would do, from the workflow's current state; changes nothing. */
async function dryRun(deps: AppDeps, em: EntityManager, row: any, target: Target, mapping: Record<string, string>) {
  let view: m.MigrationStateView;
  try {
    view = await deps.temporal.workflow.getHandle(workflowIdOf(row.tenant_id, row.id)).query(m.migrationState);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new AppError('INVALID_STATE', 'The instance is not running');
    throw err;
  }
  // The workflow's own status (the row may lag a moment): the Update would refuse these.
  if (['completed', 'rejected', 'terminated'].includes(view.status))
    throw new AppError('INVALID_STATE', `The instance has ended (${view.status})`);
  if (view.status === 'suspended') throw new AppError('INVALID_STATE', 'The instance is suspended: activate it first');
  const base = {
    instanceId: row.id as string,
    dryRun: true,
    fromDefinitionId: view.definitionId,
    fromVersion: view.processVersion,
    toDefinitionId: target.id,
    toVersion: target.version,
    status: view.status as string,
    compare: compareLink(view.definitionId, target.id),
  };
  if (view.definitionId === target.id) return { ...base, changed: false, migratable: true, plan: null };
  const source = await definitionOf(em, { definition_id: view.definitionId });
  if (!source) throw new AppError('NOT_FOUND', 'The definition this instance runs no longer exists');
  const plan = planMigration(view.state, source.dsl as ProcessDocument, target.doc, mapping);
  if (plan.mappingProblems.length)
    throw new AppError('MIGRATION_MAPPING_INVALID', plan.mappingProblems.join('; '), {
      problems: plan.mappingProblems,
    });
  return { ...base, changed: true, migratable: plan.ok, plan };
}

async function migrateRow(
  deps: AppDeps,
  principal: Principal,
  em: EntityManager,
  row: any,
  target: Target,
  body: MigrateBody,
  idempotencyKey?: string,
): Promise<MigrationAnswer> {
  requireRunning(row);
  requireSameKey(target, row.process_key);
  const mapping = body.nodeMapping ?? {};
  if (body.dryRun) return dryRun(deps, em, row, target, mapping);
  const result = await runUpdate(
    deps,
    principal.tenantId,
    row.id,
    m.migrate,
    {
      actor: actorOf(principal),
      target: {
        definitionId: target.id,
        processKey: target.key,
        version: target.version,
        name: target.name,
        doc: target.doc,
      },
      nodeMapping: mapping,
    },
    idempotencyKey,
  );
  const done = result.migration!;
  return {
    instanceId: row.id,
    dryRun: false,
    changed: done.changed,
    migratable: true,
    fromDefinitionId: done.fromDefinitionId,
    fromVersion: done.fromVersion,
    toDefinitionId: done.toDefinitionId,
    toVersion: target.version,
    status: result.instanceStatus,
    plan: done.plan,
    compare: compareLink(done.fromDefinitionId, done.toDefinitionId),
  };
}

/** POST /process-instances/{id}/migrate */
export async function migrateInstance(
  deps: AppDeps,
  principal: Principal,
  id: string,
  body: MigrateBody,
  idempotencyKey?: string,
): Promise<MigrationAnswer> {
  const em = deps.orm.em.fork();
  const row = await findInstanceRow(em, principal.tenantId, id);
  const target = await loadTarget(em, principal.tenantId, body.targetDefinitionId);
  return migrateRow(deps, principal, em, row, target, body, idempotencyKey);
}

export interface BatchItem {
  instanceId: string;
  ok: boolean;
  code: number;
  message: string;
  result: MigrationAnswer | null;
  /** A refusal's data: the plan (40920) or the mapping problems (42221). */
  data: unknown;
}

export const BATCH_DEFAULT_LIMIT = 100;

/** POST /process-instances/migrate: every running instance of a key (and version), each on its own. */
export async function migrateInstances(deps: AppDeps, principal: Principal, body: BatchMigrateBody) {
  const em = deps.orm.em.fork();
  const target = await loadTarget(em, principal.tenantId, body.targetDefinitionId);
  requireSameKey(target, body.processKey);
  const sourceId: string | null = body.sourceDefinitionId ?? null;
  if (sourceId) {
    const source = await loadTarget(em, principal.tenantId, sourceId);
    requireSameKey(source, body.processKey);
  }
  // Running instances not yet on the target (drafts and ended instances are not running).
  const where = [
    `tenant_id = ?`,
    `process_key = ?`,
    `status in ('active', 'failed', 'suspended')`,
    `definition_id <> ?`,
  ];
  const params: unknown[] = [principal.tenantId, body.processKey, target.id];
  if (sourceId) {
    where.push(`definition_id = ?`);
    params.push(sourceId);
  } else if (body.sourceVersion !== undefined) {
    where.push(`process_version = ?`);
    params.push(body.sourceVersion);
  }
  const limit = body.limit ?? BATCH_DEFAULT_LIMIT;
  const [{ total }] = await em.execute<Array<{ total: string }>>(
    `select count(*) as total from instances where ${where.join(' and ')}`,
    params,
  );
  const rows = await em.execute(
    `select *, false as archived from instances where ${where.join(' and ')} order by start_time, id limit ?`,
    [...params, limit],
  );
  const items: BatchItem[] = [];
  for (const row of rows) {
    try {
      const result = await migrateRow(deps, principal, em, row, target, body);
      const refused = result.dryRun && !result.migratable;
      items.push({
        instanceId: row.id,
        ok: !refused,
        code: refused ? ErrorCodes.MIGRATION_REFUSED.code : 0,
        message: refused
          ? `Cannot migrate: ${result.plan!.refusals.map((r) => r.reason).join('; ')}`
          : result.changed
            ? result.dryRun
              ? 'would migrate'
              : 'migrated'
            : 'already on the target',
        result,
        data: null,
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      items.push({ instanceId: row.id, ok: false, code: err.code, message: err.message, result: null, data: err.data });
    }
  }
  return {
    dryRun: !!body.dryRun,
    toDefinitionId: target.id,
    toVersion: target.version,
    total: Number(total),
    items,
    remaining: Math.max(0, Number(total) - rows.length),
  };
}
