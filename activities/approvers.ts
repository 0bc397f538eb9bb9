// Approver resolution against the tenant's directory in PostgreSQL; the rules themselves are
// pure (workflows/engine/approver-rules.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  resolveApprovers,
  type ApproverInput,
  type DirectoryLookups,
  type DirectoryUser,
} from '../workflows/engine/approver-rules.js';
import type { ResolvedApprovers } from '../workflows/engine/types.js';
import type { ActivityDeps } from './index.js';

export { resolveApprovers, type ApproverInput, type DirectoryLookups, type DirectoryUser };

const ids = (list: string[]) => JSON.stringify(list);

/** The tenant's directory in PostgreSQL. */
export function pgDirectory(em: EntityManager, tenantId: string): DirectoryLookups {
  const users = async (list: string[]) => {
    if (!list.length) return new Map<string, DirectoryUser>();
    const rows = await em.execute<DirectoryUser[]>(
      `select id, manager_id, dept_id, active from users where tenant_id = ? and id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
      [tenantId, ids(list)],
    );
    return new Map(rows.map((r) => [r.id, r]));
  };
  return {
    users,
    user: async (id) => (await users([id])).get(id) ?? null,
    async poolMembers(pool) {
      const rows = await em.execute<{ id: string }[]>(
        `select id from users where tenant_id = ? and active and (
           jsonb_exists_any(roles, array(select jsonb_array_elements_text(?::jsonb))) or dept_id = any(array(select jsonb_array_elements_text(?::jsonb))) or id = any(array(select jsonb_array_elements_text(?::jsonb)))) order by id`,
        [tenantId, ids(pool.roleIds), ids(pool.deptIds), ids(pool.userIds)],
      );
      return rows.map((r) => r.id);
    },
    async tenantAdmins() {
      const rows = await em.execute<{ id: string }[]>(
        `select distinct u.id from users u
           join roles r on r.tenant_id = u.tenant_id and jsonb_exists(u.roles, r.code)
         where u.tenant_id = ? and u.active and (jsonb_exists(r.permissions, '*') or jsonb_exists(r.permissions, 'workflow:admin'))
         order by u.id`,
        [tenantId],
      );
      return rows.map((r) => r.id);
    },
    async deptLeader(deptId) {
      if (!deptId) return null;
      const rows = await em.execute<{ leader_id: string | null }[]>(
        `select leader_id from departments where tenant_id = ? and id = ?`,
        [tenantId, deptId],
      );
      return rows[0]?.leader_id ?? null;
    },
  };
}

export function createApproverActivities(deps: ActivityDeps) {
  return {
    resolveApprovers: (input: ApproverInput) =>
      resolveApprovers(pgDirectory(deps.orm.em.fork(), input.tenantId), input),
  };
}

/** Look-ups ahead of need (workflows/engine/approvers-ahead.ts): one that fails answers null, and the node looks its approvers up itself when it starts. */
export function resolveEach(dir: DirectoryLookups, inputs: ApproverInput[]): Promise<Array<ResolvedApprovers | null>> {
  return Promise.all(inputs.map((input) => resolveApprovers(dir, input).catch(() => null)));
}
