// Mirrors a workflow's state into the read model: idempotent, ordered by sequence numbers,
// one transaction per write; an ended instance moves to the archive tables in the same one.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProjectionSnapshot } from '../workflows/engine/types.js';
import type { ActivityDeps } from './index.js';

const j = (v: unknown) => JSON.stringify(v ?? null);

async function upsertInstance(em: EntityManager, s: ProjectionSnapshot) {
  const i = s.instance;
  await em.execute(
    `insert into instances (id, tenant_id, workflow_id, definition_id, process_key, process_version, process_name, business_key,
       status, initiator_id, variables, current_nodes, start_time, end_time, end_reason, detail, seq, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?::jsonb, ?, now())
     on conflict (id) do update set
       workflow_id = excluded.workflow_id, status = excluded.status, variables = excluded.variables,
       current_nodes = excluded.current_nodes, end_time = excluded.end_time, end_reason = excluded.end_reason,
       detail = excluded.detail, seq = excluded.seq, updated_at = now()
     where instances.seq < excluded.seq`,
    [
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
      j(i.detail),
      s.seq,
    ],
  );
}

async function upsertTasks(em: EntityManager, s: ProjectionSnapshot) {
  const i = s.instance;
  for (const t of s.tasks) {
    await em.execute(
      `insert into tasks (id, tenant_id, instance_id, process_key, process_name, business_key, initiator_id, activity_id, name, kind,
         assignee, candidates, status, result, parent_task_id, owner, added_by, due_date, create_time, end_time, comment, variables,
         form_permissions, action_permissions, seq)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?)
       on conflict (id) do update set
         assignee = excluded.assignee, candidates = excluded.candidates, status = excluded.status, result = excluded.result,
         owner = excluded.owner, due_date = excluded.due_date, end_time = excluded.end_time, comment = excluded.comment,
         variables = excluded.variables, seq = excluded.seq
       where tasks.seq < excluded.seq`,
      [
        t.id,
        i.tenantId,
        i.id,
        i.processKey,
        i.processName,
        i.businessKey,
        i.initiatorId,
        t.activityId,
        t.name,
        t.kind,
        t.assignee,
        j(t.candidates),
        t.status,
        t.result,
        t.parentTaskId,
        t.owner,
        t.addedBy,
        t.dueDate,
        t.createTime,
        t.endTime,
        t.comment,
        j(t.variables),
        j(s.formPermissions[t.id]),
        j(s.actionPermissions[t.id]),
        t.seq,
      ],
    );
  }
}

async function appendEvents(em: EntityManager, s: ProjectionSnapshot) {
  const i = s.instance;
  for (const e of s.trail) {
    await em.execute(
      `insert into trail (id, tenant_id, instance_id, type, activity_id, task_id, user_id, comment, time, detail, seq)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?) on conflict (id) do nothing`,
      [e.id, i.tenantId, i.id, e.type, e.activityId, e.taskId, e.userId, e.comment, e.time, j(e.detail), e.seq],
    );
  }
  for (const c of s.cc) {
    await em.execute(
      `insert into cc_records (tenant_id, instance_id, activity_id, user_id, cc_time) values (?, ?, ?, ?, ?) on conflict do nothing`,
      [i.tenantId, i.id, c.activityId, c.userId, c.ccTime],
    );
  }
  for (const n of s.notifications) {
    const rows = await em.execute<{ id: string }[]>(
      `insert into notifications (dedupe_key, tenant_id, user_id, kind, instance_id, task_id, payload)
       values (?, ?, ?, ?, ?, ?, ?::jsonb) on conflict (dedupe_key) do nothing returning id`,
      [
        n.key,
        i.tenantId,
        n.userId,
        n.kind,
        i.id,
        n.taskId,
        j({ ...n.payload, processKey: i.processKey, processName: i.processName, businessKey: i.businessKey }),
      ],
    );
    // Every server replica LISTENs and pushes to its WebSocket clients.
    if (rows.length)
      await em.execute(`select pg_notify('notifications', ?)`, [
        JSON.stringify({ id: rows[0].id, tenantId: i.tenantId, userId: n.userId }),
      ]);
  }
}

async function archive(em: EntityManager, instanceId: string) {
  await em.execute(`insert into instances_archive select * from instances where id = ? on conflict (id) do nothing`, [
    instanceId,
  ]);
  await em.execute(`insert into tasks_archive select * from tasks where instance_id = ? on conflict (id) do nothing`, [
    instanceId,
  ]);
  await em.execute(`delete from tasks where instance_id = ?`, [instanceId]);
  await em.execute(`delete from instances where id = ?`, [instanceId]);
}

export function createProjectionActivities(deps: ActivityDeps) {
  return {
    async project({ snapshot }: { tenantId: string; snapshot: ProjectionSnapshot }): Promise<void> {
      await deps.orm.em.fork().transactional(async (em) => {
        const id = snapshot.instance.id;
        // Serialise writes of one instance; an archived instance takes no more writes.
        await em.execute(`select pg_advisory_xact_lock(hashtext(?))`, [id]);
        const archived = await em.execute(`select 1 from instances_archive where id = ?`, [id]);
        if (archived.length) return;
        await upsertInstance(em, snapshot);
        await upsertTasks(em, snapshot);
        await appendEvents(em, snapshot);
        if (snapshot.ended) await archive(em, id);
      });
    },
  };
}
