// Part 2 of `npm run bench`: the read model at scale. Seeds, with SQL straight into the read-model
// tables (not through the API), archived and runtime tasks over many users, then times the list
// endpoints for a typical user and for a monitor.
import type { Orm } from '../src/db/orm.js';

export interface ScaleSize {
  archivedTasks: number;
  runtimeTasks: number;
  users: number;
}

const uid = (expr: string, users: number) => `'u' || lpad(((${expr}) % ${users})::text, 5, '0')`;

/**
 * Archived: instances of 3 completed approval tasks each. Runtime: instances with one completed
 * step and one open task (90% assigned, 10% a two-user pool), due 30 days after creation, so the
 * oldest are overdue. Copies: one per archived instance for a tenth of them. One runtime instance
 * of the typical user (`run-<typical>`) gets 50 trail entries for the detail view.
 * Answers the typical user's id and the id of that instance.
 */
export async function seedScale(
  orm: Orm,
  size: ScaleSize,
  definitionId: string,
): Promise<{ typicalUser: string; detailInstance: string; seconds: number }> {
  const t0 = performance.now();
  const em = orm.em.fork();
  const U = size.users;
  const archivedInstances = Math.ceil(size.archivedTasks / 3);
  const runtimeInstances = Math.ceil(size.runtimeTasks / 2);
  const typical = 42 % U;
  const typicalUser = `u${String(typical).padStart(5, '0')}`;
  const def = definitionId.replace(/'/g, '');
  const sql = [
    `insert into users (tenant_id, id, username, display_name, password_hash, dept_id, manager_id, roles, active)
     select 'demo', ${uid('g', U)}, ${uid('g', U)}, 'Scale user ' || g,
       (select password_hash from users where tenant_id = 'demo' and id = 'alice'),
       (array['eng', 'exec', 'hr', 'finance'])[1 + g % 4], null, '["employee"]'::jsonb, true
     from generate_series(0::bigint, ${U - 1}) g`,
    `insert into instances_archive (id, tenant_id, workflow_id, definition_id, process_key, process_version, process_name, business_key,
       status, initiator_id, variables, current_nodes, start_time, end_time, end_reason, seq, updated_at)
     select 'arch-' || g, 'demo', 'approval-demo-arch-' || g, '${def}', 'scale_p' || (g % 5), 1, 'Scale process ' || (g % 5), 'arch-bk-' || g,
       case when g % 10 = 0 then 'rejected' else 'completed' end, ${uid('g', U)}, '{"days": 3}'::jsonb, '[]'::jsonb,
       now() - interval '400 days' + g * (interval '385 days' / ${archivedInstances}),
       now() - interval '399 days' + g * (interval '385 days' / ${archivedInstances}), null, 10, now()
     from generate_series(0::bigint, ${archivedInstances - 1}) g`,
    `insert into tasks_archive (id, tenant_id, instance_id, process_key, process_name, business_key, initiator_id, activity_id, name, kind,
       assignee, status, result, create_time, end_time, seq)
     select 'arch-task-' || g, 'demo', 'arch-' || (g / 3), 'scale_p' || ((g / 3) % 5), 'Scale process ' || ((g / 3) % 5), 'arch-bk-' || (g / 3),
       ${uid('g / 3', U)}, 't' || (g % 3 + 1), 'Step ' || (g % 3 + 1), 'approval', ${uid('g * 7919 + 1', U)}, 'completed', 'approved',
       now() - interval '400 days' + (g / 3) * (interval '385 days' / ${archivedInstances}) + (g % 3) * interval '1 hour',
       now() - interval '400 days' + (g / 3) * (interval '385 days' / ${archivedInstances}) + (g % 3 + 1) * interval '1 hour', g % 3 + 1
     from generate_series(0::bigint, ${size.archivedTasks - 1}) g`,
    `insert into instances (id, tenant_id, workflow_id, definition_id, process_key, process_version, process_name, business_key,
       status, initiator_id, variables, current_nodes, start_time, seq, updated_at)
     select 'run-' || g, 'demo', 'approval-demo-run-' || g, '${def}', 'scale_p' || (g % 5), 1, 'Scale process ' || (g % 5), 'run-bk-' || g,
       'active', ${uid('g', U)}, '{"days": 3}'::jsonb, '["t2"]'::jsonb, now() - g * (interval '60 days' / ${runtimeInstances}), 5, now()
     from generate_series(0::bigint, ${runtimeInstances - 1}) g`,
    `insert into tasks (id, tenant_id, instance_id, process_key, process_name, business_key, initiator_id, activity_id, name, kind,
       assignee, candidates, status, result, due_date, create_time, end_time, seq)
     select 'run-task-' || g, 'demo', 'run-' || (g / 2), 'scale_p' || ((g / 2) % 5), 'Scale process ' || ((g / 2) % 5), 'run-bk-' || (g / 2),
       ${uid('g / 2', U)}, 't' || (g % 2 + 1), 'Step ' || (g % 2 + 1), 'approval',
       case when g % 2 = 1 and (g / 2) % 10 = 0 then null else ${uid('g * 7919 + 1', U)} end,
       case when g % 2 = 1 and (g / 2) % 10 = 0
         then jsonb_build_object('userIds', jsonb_build_array(${uid('g * 7919 + 1', U)}, ${uid('g * 7919 + 2', U)}), 'roleIds', '[]'::jsonb, 'deptIds', '[]'::jsonb)
         else '{"userIds":[],"roleIds":[],"deptIds":[]}'::jsonb end,
       case when g % 2 = 0 then 'completed' when (g / 2) % 10 = 0 then 'pending' else 'active' end,
       case when g % 2 = 0 then 'approved' end,
       case when g % 2 = 1 then now() - (g / 2) * (interval '60 days' / ${runtimeInstances}) + interval '30 days' end,
       now() - (g / 2) * (interval '60 days' / ${runtimeInstances}) + (g % 2) * interval '1 hour',
       case when g % 2 = 0 then now() - (g / 2) * (interval '60 days' / ${runtimeInstances}) + interval '1 hour' end, g % 2 + 1
     from generate_series(0::bigint, ${size.runtimeTasks - 1}) g`,
    `insert into cc_records (tenant_id, instance_id, activity_id, user_id, cc_time, read)
     select 'demo', 'arch-' || (g * 10), 'cc', ${uid('g * 31', U)}, now() - interval '390 days' + g * (interval '385 days' / ${Math.ceil(archivedInstances / 10)}), g % 3 = 0
     from generate_series(0::bigint, ${Math.ceil(archivedInstances / 10) - 1}) g`,
    // The detail view's instance: the typical user's runtime instance with 50 trail entries.
    `insert into trail (id, tenant_id, instance_id, type, activity_id, task_id, user_id, comment, time, detail, seq)
     select 'scale-trail-' || k, 'demo', 'run-${typical}', case when k = 0 then 'start' when k % 2 = 1 then 'assign' else 'comment' end,
       't1', 'run-task-${typical * 2}', '${typicalUser}', 'entry ' || k, now() - interval '1 day' + k * interval '1 minute', '{}'::jsonb, k + 1
     from generate_series(0::bigint, 49) k`,
  ];
  // Bulk load: drop the plain indexes of the seeded tables, insert, then build them again with
  // the same definitions (primary keys and unique constraints stay) — minutes faster than
  // maintaining them row by row; the schema ends as the migrations left it.
  await em.transactional(async (tx) => {
    const indexes = await tx.execute<Array<{ indexname: string; indexdef: string }>>(
      `select indexname, indexdef from pg_indexes where schemaname = current_schema()
         and tablename in ('instances', 'instances_archive', 'tasks', 'tasks_archive', 'cc_records', 'trail')
         and indexname not in (select conname from pg_constraint)`,
    );
    await tx.execute(`set local maintenance_work_mem = '256MB'`);
    for (const i of indexes) await tx.execute(`drop index "${i.indexname}"`);
    for (const s of sql) await tx.execute(s);
    for (const i of indexes) await tx.execute(i.indexdef);
  });
  // Vacuum as well as analyze (the whole database, as `analyze` alone did before), so that the
  // lists are timed on the state of an archive that grew over months (visibility map set, hint
  // bits written: index-only scans without heap fetches), and so that autovacuum, which 1.4 M
  // fresh rows call for within its next naptime (60 s), does not vacuum them on the same CPUs
  // while the lists are being timed.
  await em.execute(`vacuum (analyze)`);
  return { typicalUser, detailInstance: `run-${typical}`, seconds: (performance.now() - t0) / 1000 };
}

/** Calls `fn` until `maxCalls` or the time budget is spent (at least `minCalls`); answers each call's ms. */
export async function sample(
  fn: () => Promise<unknown>,
  opts: { maxCalls: number; minCalls: number; budgetMs: number },
): Promise<number[]> {
  const out: number[] = [];
  const t0 = performance.now();
  await fn(); // warm: first call plans the statement
  while (out.length < opts.maxCalls && (out.length < opts.minCalls || performance.now() - t0 < opts.budgetMs)) {
    const s = performance.now();
    await fn();
    out.push(performance.now() - s);
  }
  return out;
}
