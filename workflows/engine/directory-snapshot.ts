// Directory facts a server sends with an action (src/services/tasks.ts reads them in the same
// statement as the task): the initiator with their manager chain and department leader, and the
// users the definition lists by id. A node that starts in the workflow task of that action, or
// within APPROVERS_AHEAD_TTL_MS of workflow time after it, applies its approver rule to them
// instead of a resolveApprovers local activity — one activation, one marker and one directory
// round trip less per decision (docs/performance.md, engine version 4). A rule that needs
// anything else (a pool, the tenant's admins) misses and the node looks its approvers up itself.
// Deterministic: the facts are the Update's recorded argument, their age is workflow time.
import { resolveApprovers, type ApproverInput, type DirectoryLookups, type DirectoryUser } from './approver-rules.js';
import { APPROVERS_AHEAD_TTL_MS } from './approvers-ahead.js';
import type { Engine } from './engine.js';
import type { ResolvedApprovers } from './types.js';

export interface DirectorySnapshot {
  /** Every user id the server asked for: one of them not among `users` is not in the directory. */
  asked: string[];
  users: DirectoryUser[];
  /** Leader (or null) of each department asked for, by department id. */
  deptLeaders: Record<string, string | null>;
}

/** Not in the snapshot: the node looks its approvers up itself. */
class Miss extends Error {}

function snapshotLookups(snapshot: DirectorySnapshot): DirectoryLookups {
  const asked = new Set(snapshot.asked);
  const byId = new Map(snapshot.users.map((u) => [u.id, u]));
  const users = async (ids: string[]) => {
    const out = new Map<string, DirectoryUser>();
    for (const id of ids) {
      if (!asked.has(id)) throw new Miss(id);
      const u = byId.get(id);
      if (u) out.set(id, u);
    }
    return out;
  };
  return {
    users,
    user: async (id) => (await users([id])).get(id) ?? null,
    poolMembers: async () => {
      throw new Miss('pool');
    },
    tenantAdmins: async () => {
      throw new Miss('admins');
    },
    deptLeader: async (deptId) => {
      if (!deptId) return null;
      if (!(deptId in snapshot.deptLeaders)) throw new Miss(deptId);
      return snapshot.deptLeaders[deptId] ?? null;
    },
  };
}

/** Keeps the facts an Update brought (replacing older ones). */
export function keepDirectory(engine: Engine, snapshot: DirectorySnapshot) {
  engine.directory = { at: Date.now(), snapshot };
}

/** The rule applied to facts at most APPROVERS_AHEAD_TTL_MS old, or null when there are none or they miss. */
export async function approversFromSnapshot(engine: Engine, input: ApproverInput): Promise<ResolvedApprovers | null> {
  const kept = engine.directory;
  if (!kept || Date.now() - kept.at > APPROVERS_AHEAD_TTL_MS) return null;
  try {
    return await resolveApprovers(snapshotLookups(kept.snapshot), input);
  } catch {
    // A miss, or a rule the activity reports itself (unknown type): the node looks it up as before.
    return null;
  }
}

/** The snapshot of an Update's argument, when a server sent one. */
export function snapshotOf(input: unknown): DirectorySnapshot | null {
  const d = (input as { directory?: unknown } | null)?.directory as DirectorySnapshot | undefined;
  return d && Array.isArray(d.asked) && Array.isArray(d.users) && typeof d.deptLeaders === 'object' ? d : null;
}
