import { Migration } from '@mikro-orm/migrations';

/**
 * Approvers looked up by the server with a task action (docs/engine.md "Approvers ahead of a decision").
 *
 * `approvers_ahead`: the look-up inputs of the userTasks that may start after the instance's open
 * nodes, as the workflow last answered or projected them: `[{key, input}]`, the key as the
 * workflow matches it (kept as written: jsonb does not keep an object's key order). The server reads them with the task
 * look-up before a decision, resolves them, and sends them with the Update, so the step the
 * decision opens needs no local activity.
 *
 * `approver_directory(tenant, inputs)`: the directory rows those inputs ask for, in the look-up's
 * own round trip — the initiators and listed users, the initiators' manager chains (50 levels, as
 * resolveApprovers walks them), the active members of the role and department pools, the
 * leaders of the initiators' departments, and the tenant's administrators when an initiatorSelf
 * rule (which always asks for them) is among the inputs. `asked` names every user id a look-up may ask for by id
 * (a missing row there is a user that does not exist); src/directory/approvers-ahead.ts answers
 * the rules from it and leaves to the workflow's own look-up anything it does not hold.
 */
export class Migration20261126000300ApproversAhead extends Migration {
  override up(): void {
    for (const t of ['instances', 'instances_archive'])
      this.addSql(`alter table ${t} add column approvers_ahead jsonb`);
    this.addSql(`create or replace function approver_directory(p_tenant text, p_inputs jsonb) returns jsonb
      language plpgsql stable as $$
      begin
        if jsonb_typeof(p_inputs) is distinct from 'array' or jsonb_array_length(p_inputs) = 0 then
          return null;
        end if;
        return (
          with recursive inp as (select a->'input' as e from jsonb_array_elements(p_inputs) a),
          initiators as (select distinct e->>'initiatorId' as id from inp),
          chain as (
            select u.id, u.manager_id, 0 as depth from users u
            where u.tenant_id = p_tenant
              and u.id in (select e->>'initiatorId' from inp where e->'approver'->>'type' in ('manager', 'multiLevelManager'))
            union all
            select m.id, m.manager_id, c.depth + 1 from chain c
            join users m on m.tenant_id = p_tenant and m.id = c.manager_id
            where c.depth < 50
          ),
          asked as (
            select id from initiators
            union select jsonb_array_elements_text(coalesce(e->'approver'->'userIds', '[]')) from inp
              where e->'approver'->>'type' in ('user', 'initiatorSelect')
            union select manager_id from chain where manager_id is not null
          ),
          pool_roles as (select distinct jsonb_array_elements_text(coalesce(e->'approver'->'roleIds', '[]')) as code from inp
                    where e->'approver'->>'type' = 'role'),
          pool_depts as (select distinct jsonb_array_elements_text(coalesce(e->'approver'->'deptIds', '[]')) as id from inp
                    where e->'approver'->>'type' = 'dept'),
          -- By id through the key; the pools' members only when there are pools (a role's are found
          -- by scanning the tenant's users, as the workflow's own look-up does).
          picked as (
            select u.id, u.manager_id, u.dept_id, u.active, u.roles from users u
            where u.tenant_id = p_tenant and u.id in (select id from asked)
            union
            select u.id, u.manager_id, u.dept_id, u.active, u.roles from users u
            where exists (select 1 from pool_roles) and u.tenant_id = p_tenant and u.active
              and jsonb_exists_any(u.roles, array(select code from pool_roles))
            union
            select u.id, u.manager_id, u.dept_id, u.active, u.roles from users u
            where exists (select 1 from pool_depts) and u.tenant_id = p_tenant and u.active
              and u.dept_id in (select id from pool_depts)
          ),
          initiator_depts as (
            select distinct u.dept_id from users u
            where u.tenant_id = p_tenant and u.id in (select id from initiators) and u.dept_id is not null
          )
          select jsonb_build_object(
            'asked', (select coalesce(jsonb_agg(id), '[]') from asked where id is not null),
            'roles', (select coalesce(jsonb_agg(code), '[]') from pool_roles),
            'depts', (select coalesce(jsonb_agg(id), '[]') from pool_depts),
            'users', (select coalesce(jsonb_agg(jsonb_build_object('id', id, 'manager_id', manager_id, 'dept_id', dept_id,
                        'active', active, 'roles', roles) order by id), '[]') from picked),
            'leaders', (select coalesce(jsonb_object_agg(x.dept_id, d.leader_id), '{}') from initiator_depts x
                        left join departments d on d.tenant_id = p_tenant and d.id = x.dept_id),
            -- The empty-approver policy's administrators: always asked for by initiatorSelf.
            'admins', case when exists (select 1 from inp where e->'approver'->>'type' = 'initiatorSelf') then
                        (select coalesce(jsonb_agg(a.id order by a.id), '[]') from (
                           select distinct u.id from users u
                           join roles r on r.tenant_id = u.tenant_id and jsonb_exists(u.roles, r.code)
                           where u.tenant_id = p_tenant and u.active
                             and (jsonb_exists(r.permissions, '*') or jsonb_exists(r.permissions, 'workflow:admin'))) a)
                      end)
        );
      end $$`);
  }

  override down(): void {
    this.addSql(`drop function if exists approver_directory(text, jsonb)`);
    for (const t of ['instances', 'instances_archive']) this.addSql(`alter table ${t} drop column approvers_ahead`);
  }
}
