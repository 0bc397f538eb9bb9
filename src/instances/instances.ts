// Use cases of process instances: start (and drafts), reads, lists and variables.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import type { ProcessDocument } from '../../dsl/index.js';
import { checkVariables } from '../definitions/form-values.js';
import type { ProjectionSnapshot, StartInput } from '../../workflows/engine/types.js';
import { aheadKey, aheadOf, type AheadInput, type ApproversAhead } from '../../workflows/engine/approvers-ahead.js';
import { approversAheadFrom, type DirectoryRows } from '../directory/approvers-ahead.js';
import { Engine } from '../../workflows/engine/engine.js';
import { inputsAtStart } from '../../workflows/engine/user-task/assignment.js';
import { pgDirectory, resolveEach } from '../directory/approvers.js';
import { activeForStart } from '../definitions/definitions.js';
import {
  actorOf,
  startInstanceWorkflow,
  startPredictedWorkflow,
  startUpdateIdOf,
  workflowIdOf,
  type StateSeen,
} from '../temporal/engine-client.js';
import { RECORD_INTENT_SELECT } from '../read-model/projection-intents.js';
import { holds, Permissions } from '../permissions.js';
import {
  ALL_INSTANCES,
  ALL_TASKS,
  Where,
  definitionOf,
  findInstanceRow,
  instanceView,
  isParticipant,
  participantSql,
  paged,
  pagedBy,
  processFields,
  trailView,
} from '../read-model/read-model.js';
import type { PageOpts } from '../paging.js';
import type { ApplicationsQuery, Instance, InstanceQuery } from '../read-model/shapes.js';
import { predictUpcoming } from './upcoming.js';
import { predictFirstState } from './first-state.js';
import { ENGINE_VERSION } from '../../workflows/engine/features.js';
import { formFor, allowedActions } from './instance-detail.js';
import { attachFormFiles, detach, formFiles } from '../attachments/attachments.js';

/**
 * The new instance's row, answered as findInstanceRow reads it; with `intent`, the start Update's
 * write-ahead intent rides in the same statement (one round trip for both), and with `ahead` (the
 * first userTasks' look-ups) the directory rows they ask for, as a decision's task look-up reads
 * them (approver_directory, src/directory/approvers-ahead.ts): answered beside the row.
 */
async function insertInstanceRow(
  em: EntityManager,
  row: Record<string, unknown>,
  start?: { intent: string; ahead: AheadInput[] },
): Promise<{ inserted: any; directory: DirectoryRows | null }> {
  const intent = start?.intent;
  const ahead = start?.ahead.length ? start.ahead : null;
  try {
    const [inserted] = await em.execute(
      `with i as (insert into instances (id, tenant_id, workflow_id, definition_id, process_key, process_version, process_name, business_key, status, initiator_id, variables, start_time)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?) returning *)
       ${intent ? `, wi as (${RECORD_INTENT_SELECT} from (select tenant_id, id as instance_id from i) r on conflict (update_id) do nothing)` : ''}
       select *, false as archived${ahead ? ', approver_directory(tenant_id, ?::jsonb) as approvers_directory' : ''} from i`,
      [
        row.id,
        row.tenantId,
        row.workflowId,
        row.definitionId,
        row.processKey,
        row.processVersion,
        row.processName,
        row.businessKey,
        row.status,
        row.initiatorId,
        JSON.stringify(row.variables),
        row.startTime,
        ...(intent ? [intent] : []),
        ...(ahead ? [JSON.stringify(ahead)] : []),
      ],
    );
    const { approvers_directory: directory, ...instance } = inserted;
    return { inserted: instance, directory: (directory as DirectoryRows | undefined) ?? null };
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      throw new AppError(
        'BUSINESS_KEY_IN_USE',
        `Business key ${row.businessKey} is used by a running or suspended instance`,
      );
    }
    throw err;
  }
}

/**
 * Starts (or, being idempotent, attaches to) the workflow of an instance row and waits until
 * its first state is in the read model.
 */
export async function launch(
  deps: AppDeps,
  row: any,
  doc: ProcessDocument,
  opts: { intentRecorded?: boolean; seen?: StateSeen; lookedUp?: LookedUp } = {},
) {
  const input: StartInput = {
    instance: {
      id: row.id,
      tenantId: row.tenant_id,
      definitionId: row.definition_id,
      processKey: row.process_key,
      processVersion: row.process_version,
      processName: row.process_name,
      businessKey: row.business_key,
      initiatorId: row.initiator_id,
      startTime: new Date(row.start_time).toISOString(),
    },
    doc,
    variables: row.variables ?? {},
    historyLimit: deps.config.WORKFLOW_HISTORY_LIMIT,
  };
  input.approversAhead = opts.lookedUp
    ? await approversAheadFrom(opts.lookedUp.ahead, opts.lookedUp.directory)
    : await approversAtStart(deps, input);
  input.engineVersion ??= ENGINE_VERSION;
  // The first state predicted here is written without waiting for a worker (docs/engine.md "A start
  // that does not wait"); otherwise, or when the workflow was there already, the workflow's answer.
  const first = deps.config.START_PREDICTED ? await predictFirstState(input) : null;
  if (first) await startPredictedWorkflow(deps, deps.config, first, opts);
  else await startInstanceWorkflow(deps, deps.config, input, opts);
}

/** The first userTasks' look-ups (`[{key, input}]`, as an instance row keeps its look-ups ahead). */
function aheadAtStart(instance: StartInput['instance'], doc: ProcessDocument, variables: Record<string, unknown>) {
  return inputsAtStart(new Engine(instance, doc, variables)).map((input) => ({ key: aheadKey(input), input }));
}

/**
 * The first userTasks' look-ups a start made with its insert, and the directory rows the insert
 * read for them: resolved with the rules of a decision's look-ahead (a look-up the rows do not
 * answer is left to its node).
 */
interface LookedUp {
  ahead: AheadInput[];
  directory: DirectoryRows | null;
}

/**
 * The first userTasks' approvers, looked up here so the workflow's first task needs no local
 * activity for them (workflows/engine/approvers-ahead.ts: same input, fresh, or the node looks
 * them up itself). A start has them from its insert (LookedUp); a draft's submission and a
 * re-drive read them here.
 */
async function approversAtStart(deps: AppDeps, input: StartInput): Promise<ApproversAhead | undefined> {
  const inputs = inputsAtStart(new Engine(input.instance, input.doc, input.variables));
  if (!inputs.length) return undefined;
  const at = Date.now();
  return aheadOf(at, inputs, await resolveEach(pgDirectory(deps.orm.em.fork(), input.instance.tenantId), inputs));
}

export async function startInstance(
  deps: AppDeps,
  principal: Principal,
  input: {
    processKey: string;
    businessKey?: string | null;
    variables?: Record<string, unknown>;
    draft?: boolean;
    /** A caller that must start once per its own call id names the instance (src/rule-chains/start-process.ts). */
    instanceId?: string;
  },
) {
  const em = deps.orm.em.fork();
  const def = await activeForStart(em, principal.tenantId, input.processKey);
  const variables = input.variables ?? {};
  checkVariables(def.form, variables, { requireAll: !input.draft });
  const files = await formFiles(em, deps.config, principal, def.form, variables);
  const id = input.instanceId ?? randomUUID();
  const row = {
    id,
    tenantId: principal.tenantId,
    workflowId: workflowIdOf(principal.tenantId, id),
    definitionId: def.id,
    processKey: def.key,
    processVersion: def.version,
    processName: def.name,
    businessKey: input.businessKey ?? null,
    status: input.draft ? 'draft' : 'active',
    initiatorId: principal.userId,
    variables,
    startTime: new Date().toISOString(),
  };
  const doc = def.dsl as unknown as ProcessDocument;
  const { workflowId: _w, status: _s, variables: _v, ...instance } = row;
  const ahead = input.draft ? [] : aheadAtStart(instance, doc, variables);
  const start = input.draft ? undefined : { intent: startUpdateIdOf(id), ahead };
  // Files named by the form are attached in the insert's transaction: both or neither.
  const { inserted, directory } = files.byField.size
    ? await em.transactional(async (tx) => {
        const written = await insertInstanceRow(tx, row, start);
        await attachFormFiles(tx, principal.tenantId, id, files);
        return written;
      })
    : await insertInstanceRow(em, row, start);
  let first: ProjectionSnapshot | null = null;
  if (!input.draft) {
    try {
      await launch(deps, inserted, doc, {
        intentRecorded: true,
        lookedUp: { ahead, directory },
        seen: (state) => (first = state),
      });
    } catch (err) {
      // Nothing was started: leave no row behind, and the files are the uploader's again.
      await em.execute(`delete from instances where id = ? and seq = 0`, [id]);
      await detach(
        em,
        principal.tenantId,
        [...files.byField.values()].flat().map((f) => f.id),
      );
      throw err;
    }
  }
  // The row as the first state left it, as the approve's answer does (no read after the write);
  // read when there was no state (a draft, or a start that attached to a running workflow).
  const after = input.draft
    ? inserted
    : first
      ? rowAfter(inserted, first)
      : await findInstanceRow(em, principal.tenantId, id);
  return { instanceId: id, instance: instanceView(after) };
}

/** An instance row (as insertInstanceRow answers it) with the fields a written state sets. */
function rowAfter(row: any, state: ProjectionSnapshot) {
  const i = state.instance;
  return {
    ...row,
    status: i.status,
    variables: i.variables,
    current_nodes: i.currentNodes,
    end_time: i.endTime,
    end_reason: i.endReason,
    end_code: i.endCode ?? null,
    end_params: i.endParams ?? null,
    detail: i.detail,
  };
}

export async function submitDraft(deps: AppDeps, principal: Principal, id: string) {
  const em = deps.orm.em.fork();
  const row = await readableInstance(em, principal, id);
  if (row.initiator_id !== principal.userId)
    throw new AppError('NOT_INITIATOR', 'Only the initiator may submit a draft');
  if (row.status !== 'draft')
    throw new AppError('INVALID_STATE', `Only a draft can be submitted; this instance is ${row.status}`);
  const def = await definitionOf(em, row);
  if (!def) throw new AppError('NOT_FOUND', 'The definition of this draft no longer exists');
  checkVariables(def.form, row.variables ?? {}, { requireAll: true });
  const updated = await em
    .execute(
      `update instances set status = 'active', start_time = now(), updated_at = now() where id = ? and status = 'draft' returning *`,
      [id],
    )
    .catch((err) => {
      if (err instanceof UniqueConstraintViolationException)
        throw new AppError(
          'BUSINESS_KEY_IN_USE',
          `Business key ${row.business_key} is used by a running or suspended instance`,
        );
      throw err;
    });
  if (!updated[0]) throw new AppError('INVALID_STATE', 'The draft was submitted already');
  try {
    await launch(deps, updated[0], def.dsl);
  } catch (err) {
    await em.execute(`update instances set status = 'draft' where id = ? and seq = 0`, [id]);
    throw err;
  }
  return instanceView(await findInstanceRow(em, principal.tenantId, id));
}

/** 404 unless the caller may read the instance (docs/contract.md#authentication-tenants-and-permissions). */
export async function readableInstance(em: EntityManager, principal: Principal, id: string) {
  const row = await findInstanceRow(em, principal.tenantId, id);
  if (holds(principal.permissions, Permissions.INSTANCE_MANAGE, Permissions.MONITOR)) return row;
  const actor = actorOf(principal);
  if (await isParticipant(em, principal.tenantId, id, actor)) return row;
  throw new AppError('NOT_FOUND', `No instance ${id}`);
}

export async function trailOf(em: EntityManager, instanceId: string) {
  const rows = await em.execute(`select * from trail where instance_id = ? order by seq`, [instanceId]);
  return rows.map(trailView);
}

export async function getInstance(deps: AppDeps, principal: Principal, id: string) {
  const em = deps.orm.em.fork();
  const row = await readableInstance(em, principal, id);
  const instance = instanceView(row);
  const [trail, def] = await Promise.all([trailOf(em, id), definitionOf(em, row)]);
  return { ...instance, trail, upcoming: await predictUpcoming(em, principal.tenantId, row, def) };
}

/**
 * The detail view's rows in one statement: the instance (runtime or archive), whether the caller
 * may read it (skipped for monitors and managers), its open tasks (the columns the form and the
 * permissions need) and its trail, instead of four round trips.
 */
async function detailRows(em: EntityManager, principal: Principal, id: string) {
  const { tenantId } = principal;
  const everyone = holds(principal.permissions, Permissions.INSTANCE_MANAGE, Permissions.MONITOR);
  const participant = everyone
    ? { sql: 'true', params: [] }
    : (({ sql, params }) => ({ sql: `exists (${sql})`, params }))(
        participantSql(tenantId, { column: 'x.id' }, actorOf(principal)),
      );
  const rows = await em.execute(
    `select x.*, ${participant.sql} as readable,
       (select coalesce(jsonb_agg(jsonb_build_object('assignee', t.assignee, 'status', t.status, 'kind', t.kind,
           'owner', t.owner, 'candidates', t.candidates, 'form_permissions', t.form_permissions,
           'action_permissions', t.action_permissions)), '[]')
         from tasks t where t.instance_id = x.id and not t.deleted) as open_tasks,
       (select coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'type', e.type, 'activity_id', e.activity_id,
           'task_id', e.task_id, 'user_id', e.user_id, 'comment', e.comment, 'time', e.time, 'detail', e.detail,
           'code', e.code, 'params', e.params) order by e.seq), '[]')
         from trail e where e.instance_id = x.id) as trail_rows
     from (select *, false as archived from instances where tenant_id = ? and id = ?
       union all select *, true from instances_archive where tenant_id = ? and id = ?) x`,
    [...participant.params, tenantId, id, tenantId, id],
  );
  const row: any = rows[0];
  if (!row?.readable) throw new AppError('NOT_FOUND', `No instance ${id}`);
  const { open_tasks: openTasks, trail_rows: trail } = row;
  delete row.readable;
  delete row.open_tasks;
  delete row.trail_rows;
  return { row, openTasks: openTasks as any[], trail: (trail as any[]).map(trailView) };
}

export async function getDetail(deps: AppDeps, principal: Principal, id: string) {
  const em = deps.orm.em.fork();
  const actor = actorOf(principal);
  const { row, openTasks, trail } = await detailRows(em, principal, id);
  const def = await definitionOf(em, row); // usually from the process's cache
  const form = formFor(def, row, actor.userId, openTasks);
  const instance: Instance = instanceView(row);
  if (form?.hidden.length) for (const name of form.hidden) delete instance.variables[name];
  return {
    instance,
    trail,
    form: form?.form ?? null,
    permissions: allowedActions(def, row, actor, principal, openTasks),
    upcoming: await predictUpcoming(em, principal.tenantId, row, def),
  };
}

/** `%…%` for a case-insensitive part of a text (`\` escapes, PostgreSQL's default for like). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

export async function listInstances(deps: AppDeps, principal: Principal, q: InstanceQuery & { q?: string }) {
  const em = deps.orm.em.fork();
  const where = new Where().add('x.tenant_id = ?', principal.tenantId);
  if (!holds(principal.permissions, Permissions.INSTANCE_MANAGE, Permissions.MONITOR)) {
    const actor = actorOf(principal);
    where.add(
      `(x.initiator_id = ? or exists (select 1 from ${ALL_TASKS} t where t.instance_id = x.id and (t.assignee = ? or t.owner = ? or jsonb_exists(t.candidates->'userIds', ?)))
        or exists (select 1 from cc_records c where c.instance_id = x.id and c.user_id = ?))`,
      actor.userId,
      actor.userId,
      actor.userId,
      actor.userId,
      actor.userId,
    );
  }
  if (q.processKey) where.add('x.process_key = ?', q.processKey);
  if (q.businessKey) where.add('x.business_key = ?', q.businessKey);
  if (q.q?.trim()) where.add('x.business_key ilike ?', containing(q.q.trim()));
  if (q.status)
    where.add(
      'x.status = any(array(select jsonb_array_elements_text(?::jsonb)))',
      JSON.stringify(q.status.split(',').map((s) => s.trim())),
    );
  if (q.initiator) where.add('x.initiator_id = ?', q.initiator);
  if (q.startedAfter) where.add('x.start_time >= ?', q.startedAfter);
  if (q.startedBefore) where.add('x.start_time <= ?', q.startedBefore);
  return paged(em, ALL_INSTANCES, where, 'x.start_time desc, x.id', q, instanceView);
}

export async function applications(deps: AppDeps, principal: Principal, q: ApplicationsQuery) {
  const em = deps.orm.em.fork();
  const where = new Where().add('x.tenant_id = ?', principal.tenantId).add('x.initiator_id = ?', principal.userId);
  if (q.status)
    where.add('x.status = any(array(select jsonb_array_elements_text(?::jsonb)))', JSON.stringify(q.status.split(',')));
  return paged(em, ALL_INSTANCES, where, 'x.start_time desc, x.id', q, instanceView);
}

/**
 * Copies to the caller, newest first. The page is cut from cc_records alone (index cc_user) and
 * only its rows are joined to their instance; a copy whose instance is gone is left out, as the
 * join did before.
 */
export async function ccList(
  deps: AppDeps,
  principal: Principal,
  q: PageOpts & { read?: boolean; processKey?: string; q?: string },
) {
  const em = deps.orm.em.fork();
  const where = new Where().add('x.tenant_id = ?', principal.tenantId).add('x.user_id = ?', principal.userId);
  if (q.read !== undefined) where.add('x.read = ?', q.read);
  // The process and business-key filters are the instance's: checked in the same lookup of it.
  const of = new Where();
  if (q.processKey) of.add('i.process_key = ?', q.processKey);
  if (q.q?.trim()) of.add('i.business_key ilike ?', containing(q.q.trim()));
  const also = of.parts.map((p) => ` and ${p}`).join('');
  where.add(
    `(exists (select 1 from instances i where i.id = x.instance_id${also}) or exists (select 1 from instances_archive i where i.id = x.instance_id${also}))`,
    ...of.params,
    ...of.params,
  );
  return pagedBy(
    em,
    { sql: `select count(*) from cc_records x ${where}`, params: where.params },
    {
      sql: `select x.*, i.process_key, i.process_name, i.business_key, i.initiator_id, i.status
        from (select * from cc_records x ${where} order by x.cc_time desc, x.instance_id limit ? offset ?) x
        cross join lateral (select process_key, process_name, business_key, initiator_id, status from instances where id = x.instance_id
          union all select process_key, process_name, business_key, initiator_id, status from instances_archive where id = x.instance_id limit 1) i
        order by x.cc_time desc, x.instance_id`,
      params: [...where.params, q.pageSize, (q.page - 1) * q.pageSize],
    },
    q,
    (r) => ({
      instanceId: r.instance_id as string,
      ...processFields(r),
      activityId: r.activity_id as string,
      status: r.status as string,
      ccTime: new Date(r.cc_time).toISOString(),
      read: r.read as boolean,
    }),
  );
}
