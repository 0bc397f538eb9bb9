// The `task_unavailable` notices of a claim, a statement of the read model's write (writer.ts).
import type { ProjectionSnapshot } from '../../workflows/engine/types.js';
import type { Statement } from '../db/locked-transaction.js';
import { LIVE, j, rows } from './sql-values.js';

/**
 * A claim takes the task from every other member of its pool: each gets `task_unavailable`
 * (docs/notifications.md), so their to-do lists drop the row at once. Derived here from the
 * `claim` trail entry rather than in the workflow, because only the directory knows who the
 * members of a role or department pool are; the entry's id keys the rows, so a repeated
 * projection adds nothing.
 */
export function notifyClaimed(s: ProjectionSnapshot): Statement | null {
  const i = s.instance;
  const claims = s.trail
    .filter((e) => e.type === 'claim' && e.taskId && e.userId)
    .map((e) => {
      const task = s.tasks.find((t) => t.id === e.taskId);
      return task
        ? {
            trail_id: e.id,
            task_id: task.id,
            claimer: e.userId,
            activity_id: task.activityId,
            name: task.name,
            candidates: j(task.candidates),
          }
        : null;
    })
    .filter((c) => c !== null);
  if (!claims.length) return null;
  const ids = (field: string) => `array(select jsonb_array_elements_text(coalesce(c.candidates->'${field}', '[]')))`;
  return {
    // Not for a state that arrives after the final one (the instance archived).
    sql: `with c as (
       select r.trail_id, r.task_id, r.claimer, r.activity_id, r.name, r.candidates::jsonb as candidates
       from jsonb_to_recordset(?::jsonb) as r(trail_id text, task_id text, claimer text, activity_id text, name text, candidates text)
     ), ins as (
       insert into notifications (dedupe_key, tenant_id, user_id, kind, instance_id, task_id, payload)
       select c.trail_id || ':task_unavailable:' || u.id, u.tenant_id, u.id, 'task_unavailable', ?, c.task_id,
         jsonb_build_object('activityId', c.activity_id, 'name', c.name, 'claimedBy', c.claimer,
           'processKey', ?::text, 'processName', ?::text, 'businessKey', ?::text)
       from c join users u on u.tenant_id = ? and u.active and u.id <> c.claimer and (
         jsonb_exists_any(u.roles, ${ids('roleIds')}) or u.dept_id = any(${ids('deptIds')}) or u.id = any(${ids('userIds')}))
       where ${LIVE}
       order by c.trail_id, u.id
       on conflict (dedupe_key) do nothing returning id, tenant_id, user_id)
     select pg_notify('notifications', json_build_object('id', id::text, 'tenantId', tenant_id, 'userId', user_id)::text) from ins order by id`,
    params: [rows(claims), i.id, i.processKey, i.processName, i.businessKey, i.tenantId, i.id],
  };
}
