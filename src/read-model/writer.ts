// Mirrors a workflow's state into the read model: idempotent, ordered by sequence numbers,
// one transaction per write; an ended instance moves to the archive tables in the same one.
import { OPEN_TASK_STATUSES, type ProjectionSnapshot } from '../../workflows/engine/types.js';
import type { Orm } from '../db/orm.js';
import { bound, type Db } from '../db/bound.js';
import { lockedWrite, type Statement } from '../db/locked-transaction.js';
import { reasonsOf } from './assignment-reason.js';
import { FIRST_STATE_WRITTEN, replacePredicted, unwritten } from './first-state-writes.js';
import { notifyClaimed } from './claim-notices.js';
import { LIVE, j, rows } from './sql-values.js';
import { recordInstanceTransition, recordProjectionWrite } from '../observability/metrics.js';
import { inSpan } from '../observability/tracing.js';

/** The write's statements: values bound, plans kept per connection (src/db/prepared.ts); every one has a fixed result shape. */
const prepared = <T = Record<string, unknown>>(db: Db, sql: string, params: unknown[]) =>
  bound<T>(db, sql, params, { prepare: true });

/** One `name as (statement)` of the projection's write, with its parameters in order. */
interface Part {
  name: string;
  sql: string;
  params: unknown[];
}

function instancePart(s: ProjectionSnapshot): Part {
  const i = s.instance;
  return {
    name: 'i',
    sql: `insert into instances (id, tenant_id, workflow_id, definition_id, process_key, process_version, process_name, business_key,
       status, initiator_id, variables, current_nodes, start_time, end_time, end_reason, end_code, end_params, detail, approvers_ahead,
       seq, updated_at)
     select ?, ?, ?, ?, ?, ?::int, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::timestamptz, ?::timestamptz, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb,
       ?::bigint, now()
     where ${LIVE}
     on conflict (id) do update set
       workflow_id = excluded.workflow_id, definition_id = excluded.definition_id,
       process_version = excluded.process_version, process_name = excluded.process_name,
       status = excluded.status, initiator_id = excluded.initiator_id, variables = excluded.variables,
       current_nodes = excluded.current_nodes, end_time = excluded.end_time, end_reason = excluded.end_reason,
       end_code = excluded.end_code, end_params = excluded.end_params,
       detail = excluded.detail, approvers_ahead = coalesce(excluded.approvers_ahead, instances.approvers_ahead),
       seq = excluded.seq, updated_at = now()
     where instances.seq < excluded.seq
     returning id`,
    params: [
      i.id,
      i.tenantId,
      i.workflowId,
      i.definitionId,
      i.processKey,
      i.processVersion,
      i.processName,
      i.businessKey,
      i.status,
      i.initiatorId,
      j(i.variables),
      j(i.currentNodes),
      i.startTime,
      i.endTime,
      i.endReason,
      // Absent in snapshots made before ending codes (an activity retried from an older history).
      i.endCode ?? null,
      i.endParams ? JSON.stringify(i.endParams) : null,
      j(i.detail),
      // A state that does not say (an older run's) keeps what the row has.
      s.ahead ? JSON.stringify(s.ahead) : null,
      s.seq,
      i.id,
    ],
  };
}

/** A handover can change the initiator (docs/task-actions.md): the task rows carry it for the list filters. */
const followInitiator = (instanceId: string): Statement => ({
  sql: `update tasks t set initiator_id = i.initiator_id from instances i
     where i.id = ? and t.instance_id = i.id and t.initiator_id <> i.initiator_id`,
  params: [instanceId],
});

/** A closed task's approval links die with it (docs/task-actions.md#one-time-approval-links); not once archived. */
function closeLinksParts(s: ProjectionSnapshot): Part[] {
  const closed = s.tasks.filter((t) => !OPEN_TASK_STATUSES.includes(t.status)).map((t) => t.id);
  if (!closed.length) return [];
  return [
    {
      name: 'cl',
      // A link being used holds its row until its decision is projected: skipped here, it is marked used.
      sql: `update approval_links set closed_at = now() where ${LIVE} and id in (
         select id from approval_links where task_id = any(array(select jsonb_array_elements_text(?::jsonb))) and closed_at is null
         for update skip locked)`,
      params: [s.instance.id, JSON.stringify(closed)],
    },
  ];
}

/**
 * Every task of the snapshot in one upsert; each row still only moves forward (seq). Written to
 * `tasks_archive` instead when the instance is archived already: a state written after the final
 * one (engine version 4 lets two callers write in either order) still lands. The tasks'
 * assignment reasons from this snapshot's trail ride along (a newer reason wins); the `t` part
 * returns the ids of the rows it wrote, so the `ur` part (reasonsPart) leaves those rows alone.
 * The rows travel once (`tk`), read by both upserts.
 */
function taskParts(s: ProjectionSnapshot, reasons: Map<string, { reason: string }>): Part[] {
  if (!s.tasks.length) return [];
  const i = s.instance;
  // One row per id (the highest seq): an upsert may not touch a row twice in one statement.
  const byId = new Map<string, (typeof s.tasks)[number]>();
  for (const t of s.tasks) {
    const seen = byId.get(t.id);
    if (!seen || Number(seen.seq) < Number(t.seq)) byId.set(t.id, t);
  }
  const list = [...byId.values()].map((t) => ({
    id: t.id,
    activity_id: t.activityId,
    name: t.name,
    kind: t.kind,
    assignee: t.assignee,
    candidates: j(t.candidates),
    status: t.status,
    result: t.result,
    parent_task_id: t.parentTaskId,
    owner: t.owner,
    added_by: t.addedBy,
    due_date: t.dueDate,
    create_time: t.createTime,
    end_time: t.endTime,
    comment: t.comment,
    variables: j(t.variables),
    form_permissions: j(s.formPermissions[t.id]),
    action_permissions: j(s.actionPermissions[t.id]),
    assignment_reason: reasons.get(t.id)?.reason ?? null,
    seq: t.seq,
  }));
  const upsert = (name: string, table: 'tasks' | 'tasks_archive'): Part => ({
    name,
    sql: `insert into ${table} (id, tenant_id, instance_id, process_key, process_name, business_key, initiator_id, activity_id, name, kind,
       assignee, candidates, status, result, parent_task_id, owner, added_by, due_date, create_time, end_time, comment, variables,
       form_permissions, action_permissions, assignment_reason, seq)
     select r.id, ?, ?, ?, ?, ?, ?, r.activity_id, r.name, r.kind, r.assignee, r.candidates::jsonb, r.status, r.result, r.parent_task_id,
       r.owner, r.added_by, r.due_date::timestamptz, r.create_time::timestamptz, r.end_time::timestamptz, r.comment, r.variables::jsonb,
       r.form_permissions::jsonb, r.action_permissions::jsonb, r.assignment_reason::jsonb, r.seq::bigint
     from tk r
     where ${table === 'tasks' ? LIVE : `not ${LIVE}`}
     on conflict (id) do update set
       process_name = excluded.process_name, activity_id = excluded.activity_id, name = excluded.name,
       form_permissions = excluded.form_permissions, action_permissions = excluded.action_permissions,
       assignee = excluded.assignee, candidates = excluded.candidates, status = excluded.status, result = excluded.result,
       owner = excluded.owner, due_date = excluded.due_date, end_time = excluded.end_time, comment = excluded.comment,
       variables = excluded.variables, seq = excluded.seq,
       assignment_reason = case when coalesce((excluded.assignment_reason->>'seq')::bigint, -1) > coalesce((${table}.assignment_reason->>'seq')::bigint, -1)
         then excluded.assignment_reason else ${table}.assignment_reason end
     where ${table}.seq < excluded.seq
     returning id`,
    params: [i.tenantId, i.id, i.processKey, i.processName, i.businessKey, i.initiatorId, i.id],
  });
  return [
    {
      name: 'tk',
      sql: `select * from jsonb_to_recordset(?::jsonb) as r(id text, activity_id text, name text, kind text, assignee text,
         candidates text, status text, result text, parent_task_id text, owner text, added_by text, due_date text, create_time text,
         end_time text, comment text, variables text, form_permissions text, action_permissions text, assignment_reason text, seq text)`,
      params: [rows(list)],
    },
    upsert('t', 'tasks'),
    upsert('ta', 'tasks_archive'),
  ];
}

/** Trail entries and copies: insert-if-absent parts (also after the archive: they are events, written whenever they arrive). */
function eventParts(s: ProjectionSnapshot): Part[] {
  const i = s.instance;
  const parts: Part[] = [];
  if (s.trail.length) {
    const list = s.trail.map((e) => ({
      id: e.id,
      type: e.type,
      activity_id: e.activityId,
      task_id: e.taskId,
      user_id: e.userId,
      comment: e.comment,
      time: e.time,
      detail: j(e.detail),
      code: e.code ?? null,
      params: j(e.params ?? null),
      seq: e.seq,
    }));
    parts.push({
      name: 'tr',
      sql: `insert into trail (id, tenant_id, instance_id, type, activity_id, task_id, user_id, comment, time, detail, code, params, seq)
       select r.id, ?, ?, r.type, r.activity_id, r.task_id, r.user_id, r.comment, r.time::timestamptz, r.detail::jsonb, r.code, r.params::jsonb, r.seq::bigint
       from jsonb_to_recordset(?::jsonb) as r(id text, type text, activity_id text, task_id text, user_id text, comment text, time text, detail text, code text, params text, seq text)
       on conflict (id) do nothing`,
      params: [i.tenantId, i.id, rows(list)],
    });
  }
  if (s.cc.length) {
    parts.push({
      name: 'cc',
      sql: `insert into cc_records (tenant_id, instance_id, activity_id, user_id, cc_time)
       select ?, ?, r.activity_id, r.user_id, r.cc_time::timestamptz from jsonb_to_recordset(?::jsonb) as r(activity_id text, user_id text, cc_time text)
       on conflict do nothing`,
      params: [
        i.tenantId,
        i.id,
        rows(s.cc.map((c) => ({ activity_id: c.activityId, user_id: c.userId, cc_time: c.ccTime }))),
      ],
    });
  }
  return parts;
}

/**
 * The instance, its tasks, trail entries, copies, notifications and closed links in one statement
 * (data-modifying CTEs: one statement instead of six), and the write-ahead intent it settles
 * deleted. Its row says whether the instance is archived (then only events, notifications and
 * archived tasks were written), whether the instance row moved, and the status it had before.
 */
function stateStatement(
  s: ProjectionSnapshot,
  reasons: Map<string, { id: string; reason: string; seq: number }>,
  intent: string | undefined,
) {
  const tasks = taskParts(s, reasons);
  const parts = [
    // Every part reads the rows as they were before the statement: `old` is the row before this write.
    { name: 'old', sql: `select status, seq from instances where id = ?`, params: [s.instance.id] },
    instancePart(s),
    ...tasks,
    ...reasonsPart(s.instance.id, reasons, tasks.length > 0),
    ...eventParts(s),
    ...closeLinksParts(s),
    ...notificationParts(s),
    ...(intent ? [{ name: 'wi', sql: `delete from projection_intents where update_id = ?`, params: [intent] }] : []),
  ];
  // `nt` selects (pg_notify) rather than modifies: it runs only when the statement reads it.
  const notified = parts.some((p) => p.name === 'nt');
  return {
    sql: `with ${parts.map((p) => `${p.name} as (${p.sql})`).join(',\n')}
     select exists (select 1 from instances_archive where id = ?) as archived,
       exists (select 1 from i) as moved, (select status from old) as before_status, (select seq from old) as before_seq
       ${notified ? `, (select count(*) from nt) as notified` : ''}`,
    params: [...parts.flatMap((p) => p.params), s.instance.id],
  };
}

/** The instance's transition, from the state statement's row: null when its row did not move (or it is archived). */
function transitionOf(row: {
  archived: boolean;
  moved: boolean;
  before_status: string | null;
  before_seq: string | null;
}): { before: string | null } | null {
  if (row.archived || !row.moved) return null;
  // The server inserts the row at start with seq 0: the first projected state starts the instance.
  return { before: row.before_seq !== null && Number(row.before_seq) > 0 ? row.before_status : null };
}

/** Notifications: inserted, and NOTIFYed at commit (also after the archive: messages still go out). */
function notificationParts(s: ProjectionSnapshot): Part[] {
  const i = s.instance;
  if (!s.notifications.length) return [];
  const list = s.notifications.map((n) => ({
    key: n.key,
    user_id: n.userId,
    kind: n.kind,
    task_id: n.taskId,
    payload: j({ ...n.payload, processKey: i.processKey, processName: i.processName, businessKey: i.businessKey }),
  }));
  return [
    {
      name: 'ins',
      sql: `insert into notifications (dedupe_key, tenant_id, user_id, kind, instance_id, task_id, payload)
         select r.key, ?, r.user_id, r.kind, ?, r.task_id, r.payload::jsonb
         from rows from (jsonb_to_recordset(?::jsonb) as (key text, user_id text, kind text, task_id text, payload text)) with ordinality as r(key, user_id, kind, task_id, payload, n)
         order by r.n
         on conflict (dedupe_key) do nothing returning id, tenant_id, user_id`,
      params: [i.tenantId, i.id, rows(list)],
    },
    // Every server replica LISTENs and pushes to its WebSocket clients: one NOTIFY per new row, in insertion order.
    {
      name: 'nt',
      sql: `select pg_notify('notifications', json_build_object('id', id::text, 'tenantId', tenant_id, 'userId', user_id)::text) from ins order by id`,
      params: [],
    },
  ];
}

/**
 * Assignment reasons for task rows the state statement's upsert does not write (not in this
 * snapshot, or a newer row kept): a part of that statement, so it leaves out the rows `t` wrote
 * (one statement may not change a row twice). An older reason never overwrites a newer one.
 */
function reasonsPart(
  instanceId: string,
  reasons: Map<string, { id: string; reason: string; seq: number }>,
  afterTasks: boolean,
): Part[] {
  const update = updateReasons(instanceId, reasons);
  if (!update) return [];
  return [
    {
      name: 'ur',
      sql: `${update.sql}${afterTasks ? ' and x.id not in (select id from t)' : ''}`,
      params: update.params,
    },
  ];
}

/** Stores reasons on existing task rows; an older reason never overwrites a newer one. */
function updateReasons(
  instanceId: string,
  reasons: Map<string, { id: string; reason: string; seq: number }>,
): Statement | null {
  if (!reasons.size) return null;
  return {
    sql: `update tasks x set assignment_reason = r.reason::jsonb
     from jsonb_to_recordset(?::jsonb) as r(id text, reason text, seq bigint)
     where x.id = r.id and x.instance_id = ? and coalesce((x.assignment_reason->>'seq')::bigint, -1) < r.seq`,
    params: [rows([...reasons.values()]), instanceId],
  };
}

/**
 * The assignment reasons of an instance's open tasks again, from its stored trail: for
 * `npm run rebuild-read-model`, whose snapshots carry no trail (the trail table is kept).
 */
export async function restoreAssignmentReasons(db: Db, instanceId: string) {
  const trail = await prepared(
    db,
    `select id, type, task_id as "taskId", user_id as "userId", detail, seq from trail where instance_id = ? order by seq`,
    [instanceId],
  );
  const restore = updateReasons(instanceId, reasonsOf({ trail } as unknown as ProjectionSnapshot));
  if (restore) await prepared(db, restore.sql, restore.params);
}

/** The move to the archive in one statement (every part reads the same snapshot: the copies see the rows the deletes remove). */
const archive = (instanceId: string): Statement => ({
  sql: `with ia as (insert into instances_archive select * from instances where id = ? on conflict (id) do nothing),
       ta as (insert into tasks_archive select * from tasks where instance_id = ? on conflict (id) do nothing),
       dt as (delete from tasks where instance_id = ?)
     delete from instances where id = ?`,
  params: [instanceId, instanceId, instanceId, instanceId],
});

/**
 * One snapshot into the read model, in one transaction under the instance's lock. Written by the
 * workflow's projection activity, by the caller that got an Update's answer
 * (src/temporal/engine-client.ts), by the sweeper and by a rebuild. Every part is idempotent and
 * only moves forward (newer-seq upserts, insert-if-absent events), so writes of one instance may
 * come twice and in any order: engine version 2 has two writers of each answered state, version 4
 * one writer per state but callers that finish in any order. `intent`: the write-ahead intent
 * (projection_intents) this write settles, deleted in the same statement. `predicted`: the
 * server's prediction of a first state, refused (false) once the workflow wrote its own.
 */
export async function writeProjection(
  orm: Orm,
  snapshot: ProjectionSnapshot,
  opts: { writer?: 'worker' | 'server' | 'sweeper'; intent?: string; predicted?: boolean } = {},
) {
  // Serialise writes of one instance, in one round trip; an archived instance takes no more row
  // writes. Generic plans: the write's few statement shapes bind their data as JSON, so a plan does
  // not depend on the values, and PostgreSQL's own choice planned some shapes on every call.
  const write = () =>
    lockedWrite(
      orm,
      snapshot.instance.id,
      [...(opts.predicted ? [unwritten(snapshot.instance.id)] : []), ...snapshotStatements(snapshot, opts.intent)],
      { genericPlans: true },
    );
  const results = await inSpan('projection.write', { 'approval.writer': opts.writer ?? 'rebuild' }, write).catch(
    (err: unknown) => {
      // A prediction the workflow's own state came before: nothing written, nothing wrong.
      if (opts.predicted && (err as { code?: unknown }).code === FIRST_STATE_WRITTEN) return null;
      if (opts.writer) recordProjectionWrite(opts.writer, 'error');
      throw err;
    },
  );
  if (!results) return false;
  // The state statement's row: after the prediction's guard and a correction's replace, when there.
  const [row] = results[(opts.predicted ? 1 : 0) + (snapshot.replaces ? 1 : 0)];
  if (opts.writer) recordProjectionWrite(opts.writer, 'ok');
  // After the commit: a rolled-back write counts nothing.
  const moved = transitionOf(row as Parameters<typeof transitionOf>[0]);
  if (moved && opts.writer)
    recordInstanceTransition(snapshot.instance.processKey, moved.before, snapshot.instance.status);
  return true;
}

/**
 * The statements that write one snapshot, the state statement first (after a correction's
 * replace, when the snapshot is one). Each follow-up does nothing
 * for a state that arrives after the final one (the instance archived): its tasks and instance row
 * are gone from the runtime tables, and the claim notices look for the archive themselves.
 */
function snapshotStatements(snapshot: ProjectionSnapshot, intent?: string): Statement[] {
  const id = snapshot.instance.id;
  const reasons = reasonsOf(snapshot);
  return [
    snapshot.replaces ? replacePredicted(id, snapshot.replaces) : null,
    stateStatement(snapshot, reasons, intent),
    ...(snapshot.trail.some((e) => e.type === 'transfer' && e.detail?.kind === 'initiator')
      ? [followInitiator(id)]
      : []),
    notifyClaimed(snapshot),
    snapshot.ended ? archive(id) : null,
  ].filter((st): st is Statement => st !== null);
}
