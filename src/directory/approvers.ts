// Approver resolution against the directory. Every user comes with the rule that chose them.
import { ApplicationFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApproverInput, Candidates, ResolvedApprovers } from '../../workflows/engine/types.js';
import { bound } from '../db/bound.js';

export type { ApproverInput };

export interface DirectoryUser {
  id: string;
  manager_id: string | null;
  dept_id: string | null;
  active: boolean;
}

/** What approver rules ask of a tenant's directory: PostgreSQL here, an in-memory copy in the workflow tests. */
export interface DirectoryLookups {
  user(id: string): Promise<DirectoryUser | null>;
  users(ids: string[]): Promise<Map<string, DirectoryUser>>;
  /** Active members of a pool's roles, departments and users, by id. */
  poolMembers(pool: Candidates): Promise<string[]>;
  /** Active users holding `*` or `workflow:admin` through a role, by id. */
  tenantAdmins(): Promise<string[]>;
  deptLeader(deptId: string | null): Promise<string | null>;
}

const ids = (list: string[]) => JSON.stringify(list);

/** The tenant's directory in PostgreSQL: prepared statements (src/db/prepared.ts), one per node that looks its approvers up. */
export function pgDirectory(em: EntityManager, tenantId: string): DirectoryLookups {
  const users = async (list: string[]) => {
    if (!list.length) return new Map<string, DirectoryUser>();
    const rows = await bound<DirectoryUser>(
      em,
      `select id, manager_id, dept_id, active from users where tenant_id = ? and id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
      [tenantId, ids(list)],
      { prepare: true },
    );
    return new Map(rows.map((r) => [r.id, r]));
  };
  return {
    users,
    user: async (id) => (await users([id])).get(id) ?? null,
    async poolMembers(pool) {
      const rows = await bound<{ id: string }>(
        em,
        `select id from users where tenant_id = ? and active and (
           jsonb_exists_any(roles, array(select jsonb_array_elements_text(?::jsonb))) or dept_id = any(array(select jsonb_array_elements_text(?::jsonb))) or id = any(array(select jsonb_array_elements_text(?::jsonb)))) order by id`,
        [tenantId, ids(pool.roleIds), ids(pool.deptIds), ids(pool.userIds)],
        { prepare: true },
      );
      return rows.map((r) => r.id);
    },
    async tenantAdmins() {
      const rows = await bound<{ id: string }>(
        em,
        `select distinct u.id from users u
           join roles r on r.tenant_id = u.tenant_id and jsonb_exists(u.roles, r.code)
         where u.tenant_id = ? and u.active and (jsonb_exists(r.permissions, '*') or jsonb_exists(r.permissions, 'workflow:admin'))
         order by u.id`,
        [tenantId],
        { prepare: true },
      );
      return rows.map((r) => r.id);
    },
    async deptLeader(deptId) {
      if (!deptId) return null;
      const rows = await bound<{ leader_id: string | null }>(
        em,
        `select leader_id from departments where tenant_id = ? and id = ?`,
        [tenantId, deptId],
        { prepare: true },
      );
      return rows[0]?.leader_id ?? null;
    },
  };
}

/**
 * Also used by the server for the path ahead (src/definitions/prediction.ts: upcoming steps and
 * simulation), which applies the workflow's own rules to it, fallbacks included.
 *
 * The fallbacks are looked up only when the workflow can use them: `admins` (the empty-approver
 * policy) when no pool member or no approver other than the initiator was found, the
 * department leader (selfApproval delegateToDeptManager) when the initiator is among the
 * approvers. Otherwise they answer empty, which the workflow never reads.
 */
export async function resolveApprovers(dir: DirectoryLookups, input: ApproverInput): Promise<ResolvedApprovers> {
  const { initiatorId, approver } = input;
  // The initiator and any listed users in one look-up.
  const listed = approver.type === 'user' || approver.type === 'initiatorSelect' ? (approver.userIds ?? []) : [];
  const known = await dir.users([initiatorId, ...listed]);
  const initiator = known.get(initiatorId) ?? null;
  const out: ResolvedApprovers = {
    users: [],
    pool: null,
    poolSize: 0,
    poolMembers: [],
    poolReason: null,
    admins: [],
    managers: { [initiatorId]: initiator?.manager_id ?? null },
    deptLeaders: { [initiatorId]: null },
    problem: null,
  };

  switch (approver.type) {
    case 'user':
    case 'initiatorSelect': {
      const rule = approver.type === 'user' ? 'user: listed in userIds' : 'initiatorSelect: chosen by the initiator';
      const missing: string[] = [];
      for (const id of listed) {
        if (known.get(id)?.active) out.users.push({ userId: id, reason: rule });
        else missing.push(id);
      }
      if (missing.length) out.problem = `not active users: ${missing.join(', ')}`;
      break;
    }
    case 'role':
    case 'dept': {
      const pool: Candidates = {
        userIds: [],
        roleIds: approver.type === 'role' ? (approver.roleIds ?? []) : [],
        deptIds: approver.type === 'dept' ? (approver.deptIds ?? []) : [],
      };
      out.pool = pool;
      out.poolMembers = await dir.poolMembers(pool);
      out.poolSize = out.poolMembers.length;
      out.poolReason =
        approver.type === 'role'
          ? `role pool: members of ${pool.roleIds.join(', ')}`
          : `department pool: members of ${pool.deptIds.join(', ')}`;
      break;
    }
    case 'manager':
    case 'multiLevelManager': {
      const levels = approver.levels ?? 1;
      const all = approver.type === 'multiLevelManager';
      const max = all && levels < 0 ? 50 : Math.max(1, levels);
      let current = initiator;
      for (let level = 1; level <= max && current?.manager_id; level++) {
        const manager = await dir.user(current.manager_id);
        if (!manager) break;
        if ((all || level === max) && manager.active)
          out.users.push({
            userId: manager.id,
            reason: `${approver.type}: level ${level} manager of ${initiatorId}`,
            level,
          });
        current = manager;
      }
      if (!out.users.length) out.problem = `${initiatorId} has no ${all ? 'managers' : `manager at level ${max}`}`;
      break;
    }
    case 'initiatorSelf':
      if (initiator?.active) out.users.push({ userId: initiatorId, reason: 'initiatorSelf: the initiator' });
      break;
    default:
      throw ApplicationFailure.nonRetryable(`unknown approver type ${approver.type}`, 'VALIDATION_FAILED');
  }
  const initiatorListed = out.users.some((u) => u.userId === initiatorId);
  const mayBeEmpty = out.pool ? out.poolSize === 0 : out.users.every((u) => u.userId === initiatorId);
  const [admins, leader] = await Promise.all([
    mayBeEmpty ? dir.tenantAdmins() : [],
    initiatorListed ? dir.deptLeader(initiator?.dept_id ?? null) : null,
  ]);
  out.admins = admins;
  out.deptLeaders = { [initiatorId]: leader };
  return out;
}

/** Look-ups ahead of need (workflows/engine/approvers-ahead.ts): one that fails answers null, and the node looks its approvers up itself when it starts. */
export function resolveEach(dir: DirectoryLookups, inputs: ApproverInput[]): Promise<Array<ResolvedApprovers | null>> {
  return Promise.all(inputs.map((input) => resolveApprovers(dir, input).catch(() => null)));
}
