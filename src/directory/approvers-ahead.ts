// Approvers ahead of a decision (docs/engine.md "Approvers ahead of a decision"): the server resolves the
// approvers of the userTasks that may start next from directory rows read in the task look-up's
// own round trip (approver_directory, migration 20261126000300), and sends them with the Update,
// so the step the decision opens needs no local activity in the workflow. The rules are the
// workflow's own (resolveApprovers); a look-up they make that the rows do not answer fails, and
// that node looks its approvers up itself as before.
import { resolveEach, type DirectoryLookups, type DirectoryUser } from './approvers.js';
import type { AheadInput, ApproversAhead } from '../../workflows/engine/approvers-ahead.js';

/** What approver_directory answers. */
export interface DirectoryRows {
  /** Every user id a rule may ask for by id; a missing row among them is a user that does not exist. */
  asked: string[];
  /** The role codes and department ids whose pools the rows hold complete. */
  roles: string[];
  depts: string[];
  /** Ordered by id, as the pool look-up orders its members. */
  users: Array<DirectoryUser & { roles: unknown }>;
  /** The leaders of the initiators' departments (null: no leader, or no such department). */
  leaders: Record<string, string | null>;
  /** The tenant's administrators, when read (null: not read). */
  admins: string[] | null;
}

class NotRead extends Error {}

/** The directory as far as `rows` hold it; any other look-up throws (resolveEach answers null for it). */
export function directoryOf(rows: DirectoryRows): DirectoryLookups {
  const byId = new Map(rows.users.map((u) => [u.id, u]));
  const asked = new Set(rows.asked);
  const roles = new Set(rows.roles);
  const depts = new Set(rows.depts);
  const row = (id: string): DirectoryUser | null => {
    if (!asked.has(id)) throw new NotRead(`user ${id} was not read`);
    const u = byId.get(id);
    return u ? { id: u.id, manager_id: u.manager_id, dept_id: u.dept_id, active: u.active } : null;
  };
  return {
    user: async (id) => row(id),
    async users(ids) {
      const found = new Map<string, DirectoryUser>();
      for (const id of ids) {
        const u = row(id);
        if (u) found.set(id, u);
      }
      return found;
    },
    async poolMembers(pool) {
      if (pool.userIds.length || !pool.roleIds.every((r) => roles.has(r)) || !pool.deptIds.every((d) => depts.has(d)))
        throw new NotRead('pool was not read');
      return rows.users
        .filter(
          (u) =>
            u.active &&
            ((Array.isArray(u.roles) && u.roles.some((r) => pool.roleIds.includes(String(r)))) ||
              (u.dept_id !== null && pool.deptIds.includes(u.dept_id))),
        )
        .map((u) => u.id);
    },
    async tenantAdmins() {
      if (!rows.admins) throw new NotRead('tenant administrators were not read');
      return rows.admins;
    },
    async deptLeader(deptId) {
      if (!deptId) return null;
      if (!(deptId in rows.leaders)) throw new NotRead(`department ${deptId} was not read`);
      return rows.leaders[deptId] ?? null;
    },
  };
}

/**
 * The look-ups of `ahead` (the instance row's `[{key, input}]`) from `rows`, as the Update carries
 * them; undefined when there is nothing to send. Entries the rows cannot answer are left out:
 * their nodes look up themselves.
 */
export async function approversAheadFrom(
  ahead: unknown,
  rows: DirectoryRows | null,
  at = Date.now(),
): Promise<ApproversAhead | undefined> {
  if (!rows || !Array.isArray(ahead)) return undefined;
  const list = (ahead as Array<Partial<AheadInput> | null>).filter(
    (a): a is AheadInput => typeof a?.key === 'string' && typeof a.input === 'object' && a.input !== null,
  );
  const resolved = await resolveEach(
    directoryOf(rows),
    list.map((a) => a.input),
  );
  const entries = list.flatMap((a, i) => (resolved[i] ? [{ key: a.key, resolved: resolved[i] }] : []));
  return entries.length ? { at, entries } : undefined;
}
