// The directory facts a task action sends with its Update (workflows/engine/directory-snapshot.ts),
// read in the same statement as the task: SQL parts for a `with recursive` whose CTE `t` is the
// task row (tenant_id, instance_id, initiator_id). The initiator and their manager chain (as far
// as a manager rule may climb), the initiator's department leader, and the users the instance's
// definition names by id (process_definitions.directory_user_ids).

/** As far up the chain as workflows/engine/approver-rules.ts climbs (multiLevelManager: all). */
const CHAIN_LEVELS = 50;

export const DIRECTORY_SNAPSHOT_CTES = `
  ds_listed as (
    select distinct jsonb_array_elements_text(d.directory_user_ids) as id
      from t join instances i on i.id = t.instance_id join process_definitions d on d.id = i.definition_id),
  ds_chain as (
    select u.id, u.manager_id, u.dept_id, u.active, 0 as depth
      from t join users u on u.tenant_id = t.tenant_id and u.id = t.initiator_id
    union all
    select u.id, u.manager_id, u.dept_id, u.active, c.depth + 1
      from ds_chain c join t on true join users u on u.tenant_id = t.tenant_id and u.id = c.manager_id
     where c.depth < ${CHAIN_LEVELS}),
  ds_users as (
    select id, manager_id, dept_id, active from ds_chain
    union
    select u.id, u.manager_id, u.dept_id, u.active from t join users u on u.tenant_id = t.tenant_id
     where u.id in (select id from ds_listed)),
  ds_asked as (
    select id from ds_listed
    union select initiator_id from t
    union select manager_id from ds_chain where depth < ${CHAIN_LEVELS} and manager_id is not null)`;

export const DIRECTORY_SNAPSHOT_SELECT = `jsonb_build_object(
    'asked', (select coalesce(jsonb_agg(id order by id), '[]') from ds_asked),
    'users', (select coalesce(jsonb_agg(jsonb_build_object('id', id, 'manager_id', manager_id, 'dept_id', dept_id, 'active', active) order by id), '[]') from ds_users),
    'deptLeaders', (select coalesce(jsonb_object_agg(c.dept_id, dp.leader_id), '{}')
       from ds_chain c join t on true left join departments dp on dp.tenant_id = t.tenant_id and dp.id = c.dept_id
      where c.depth = 0 and c.dept_id is not null))`;
