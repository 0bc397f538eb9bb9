// In-memory stand-ins for the activity set of activities/index.ts: same names and signatures,
// a small directory instead of PostgreSQL, and a projection that keeps what it was sent.
import type { AgentCallInput } from '../../../activities/ai-agent.js';
import { ApplicationFailure } from '@temporalio/common';
import type { Activities } from '../../../activities/index.js';
import { resolveApprovers, type ApproverInput, type DirectoryLookups } from '../../../src/directory/approvers.js';
import {
  runServiceFunction,
  type ServiceFunctionInput,
  type SubProcessInput,
} from '../../../activities/engine-support.js';
import type { HttpRequest } from '../../../src/infra/outbound/guard.js';
import type { WebhookCallInput } from '../../../activities/service-function-calls.js';
import type {
  InstanceRow,
  ProjectionSnapshot,
  ResolvedApprovers,
  TaskState,
  TrailEntry,
} from '../../../workflows/engine/types.js';

export interface DirectoryUser {
  id: string;
  managerId?: string | null;
  deptId?: string | null;
  roles?: string[];
  active?: boolean;
}

export interface Directory {
  users: DirectoryUser[];
  /** department id → leader */
  departments: Record<string, string | null>;
  /** role code → permissions */
  roles: Record<string, string[]>;
}

/**
 * The default directory: the demo tenant of src/directory/seed.ts (alice → bob → carol → dave,
 * erin in HR, frank and grace in finance, admin with `*`), plus u1…u6 for multi-approver nodes
 * and an inactive user.
 */
export function defaultDirectory(): Directory {
  return {
    users: [
      { id: 'admin', roles: ['admin'] },
      { id: 'alice', deptId: 'eng', managerId: 'bob', roles: ['employee'] },
      { id: 'bob', deptId: 'eng', managerId: 'carol', roles: ['employee'] },
      { id: 'carol', deptId: 'exec', managerId: 'dave', roles: ['employee'] },
      { id: 'dave', deptId: 'exec', managerId: null, roles: ['employee'] },
      { id: 'erin', deptId: 'hr', managerId: 'carol', roles: ['employee'] },
      { id: 'frank', deptId: 'finance', managerId: 'dave', roles: ['employee', 'finance'] },
      { id: 'grace', deptId: 'finance', managerId: 'frank', roles: ['employee', 'finance'] },
      ...['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].map((id) => ({
        id,
        deptId: 'ops',
        managerId: 'carol',
        roles: ['employee'],
      })),
      { id: 'retired', deptId: 'eng', active: false, roles: ['employee'] },
    ],
    departments: { eng: 'bob', exec: 'dave', hr: 'erin', finance: 'frank', ops: 'u1' },
    roles: { admin: ['*'], employee: ['workflow:instance:start'], finance: ['workflow:instance:start'] },
  };
}

/** What the read model would hold for one instance, rebuilt from the snapshots it was sent. */
export interface ProjectedInstance {
  instance: InstanceRow;
  /** seq of the snapshot `instance` came from */
  instanceSeq: number;
  tasks: Map<string, TaskState>;
  trail: TrailEntry[];
  notifications: ProjectionSnapshot['notifications'];
  cc: ProjectionSnapshot['cc'];
  snapshots: ProjectionSnapshot[];
  archived: boolean;
}

export class FakeProjection {
  readonly instances = new Map<string, ProjectedInstance>();

  /**
   * Same rules as src/read-model/writer.ts: rows only move forward by seq, events once by id, in
   * any order; after the archive the instance row is final, tasks and events still land.
   */
  apply(snapshot: ProjectionSnapshot) {
    const id = snapshot.instance.id;
    let p = this.instances.get(id);
    if (!p) {
      p = {
        instance: snapshot.instance,
        instanceSeq: 0,
        tasks: new Map(),
        trail: [],
        notifications: [],
        cc: [],
        snapshots: [],
        archived: false,
      };
      this.instances.set(id, p);
    }
    p.snapshots.push(structuredClone(snapshot));
    // A correction of the server's prediction (writer.ts replacePredicted).
    if (snapshot.replaces) {
      for (const id of snapshot.replaces.dropTasks) p.tasks.delete(id);
      if (p.instanceSeq < snapshot.replaces.belowSeq) {
        p.tasks.clear();
        p.trail = [];
        p.cc = [];
        p.instanceSeq = 0;
      }
    }
    if (snapshot.seq > p.instanceSeq && !p.archived) {
      p.instance = structuredClone(snapshot.instance);
      p.instanceSeq = snapshot.seq;
    }
    for (const t of snapshot.tasks) {
      const prior = p.tasks.get(t.id);
      if (!prior || prior.seq < t.seq) p.tasks.set(t.id, structuredClone(t));
    }
    for (const e of snapshot.trail) if (!p.trail.some((x) => x.id === e.id)) p.trail.push(structuredClone(e));
    for (const n of snapshot.notifications)
      if (!p.notifications.some((x) => x.key === n.key)) p.notifications.push(structuredClone(n));
    for (const c of snapshot.cc)
      if (!p.cc.some((x) => x.activityId === c.activityId && x.userId === c.userId)) p.cc.push(structuredClone(c));
    if (snapshot.ended) p.archived = true;
  }

  of(instanceId: string): ProjectedInstance {
    const p = this.instances.get(instanceId);
    if (!p) throw new Error(`nothing projected for ${instanceId}`);
    return p;
  }

  tasks(instanceId: string): TaskState[] {
    // In creation order: snapshots list tasks in the order the engine created them.
    return [...this.of(instanceId).tasks.values()];
  }

  openTasks(instanceId: string, activityId?: string): TaskState[] {
    return this.tasks(instanceId).filter(
      (t) =>
        ['pending', 'active', 'waiting', 'suspended'].includes(t.status) &&
        (!activityId || t.activityId === activityId),
    );
  }

  /** The open, active task of `userId` (exactly one expected). */
  taskOf(instanceId: string, userId: string, activityId?: string): TaskState {
    const mine = this.openTasks(instanceId, activityId).filter((t) => t.assignee === userId && t.status === 'active');
    if (mine.length !== 1)
      throw new Error(
        `${userId} has ${mine.length} active tasks on ${instanceId}: ${JSON.stringify(this.openTasks(instanceId).map((t) => [t.activityId, t.assignee, t.status]))}`,
      );
    return mine[0];
  }

  trailTypes(instanceId: string): string[] {
    return [...this.of(instanceId).trail].sort((a, b) => a.seq - b.seq).map((e) => e.type);
  }

  /** Who holds an active task on the instance. */
  activeAssignees(instanceId: string): Array<string | null> {
    return this.openTasks(instanceId)
      .filter((t) => t.status === 'active')
      .map((t) => t.assignee);
  }

  /** The trail types without the `assign` entries. */
  actionTypes(instanceId: string): string[] {
    return this.trailTypes(instanceId).filter((t) => t !== 'assign');
  }

  /** Who was notified of `kind` about the instance, in order. */
  notified(instanceId: string, kind: string): string[] {
    return this.of(instanceId)
      .notifications.filter((n) => n.kind === kind)
      .map((n) => n.userId);
  }
}

export interface Fakes {
  activities: Activities;
  projection: FakeProjection;
  directory: Directory;
  /** Calls per activity name, for assertions on what the workflow asked for. */
  calls: Array<{ name: string; input: unknown }>;
}

function memoryDirectory(directory: Directory): DirectoryLookups {
  const row = (u: DirectoryUser) => ({
    id: u.id,
    manager_id: u.managerId ?? null,
    dept_id: u.deptId ?? null,
    active: u.active !== false,
  });
  const user = (id: string) => directory.users.find((u) => u.id === id);
  const members = (keep: (u: DirectoryUser) => boolean) =>
    directory.users
      .filter((u) => u.active !== false && keep(u))
      .map((u) => u.id)
      .sort();
  return {
    user: async (id) => {
      const u = user(id);
      return u ? row(u) : null;
    },
    users: async (ids) => new Map(ids.flatMap((id) => (user(id) ? [[id, row(user(id)!)] as const] : []))),
    poolMembers: async (pool) =>
      members(
        (u) =>
          (u.roles ?? []).some((r) => pool.roleIds.includes(r)) ||
          (u.deptId != null && pool.deptIds.includes(u.deptId)) ||
          pool.userIds.includes(u.id),
      ),
    tenantAdmins: async () =>
      members((u) =>
        (u.roles ?? []).some((r) => (directory.roles[r] ?? []).some((p) => p === '*' || p === 'workflow:admin')),
      ),
    deptLeader: async (deptId) => (deptId ? (directory.departments[deptId] ?? null) : null),
  };
}

export function createFakeActivities(directory: Directory = defaultDirectory()): Fakes {
  const projection = new FakeProjection();
  const calls: Fakes['calls'] = [];
  // The service's own approver rules over an in-memory copy of the directory.
  const lookups = memoryDirectory(directory);
  const resolve = (input: ApproverInput) => resolveApprovers(lookups, input);

  const activities: Activities = {
    async project({ snapshot, approversAhead }) {
      calls.push({ name: 'project', input: snapshot.seq });
      projection.apply(snapshot);
      if (!approversAhead?.length) return {};
      calls.push({ name: 'approversAhead', input: approversAhead });
      return { approversAhead: await Promise.all(approversAhead.map((input) => resolve(input).catch(() => null))) };
    },

    async resolveApprovers(input: ApproverInput): Promise<ResolvedApprovers> {
      calls.push({ name: 'resolveApprovers', input });
      return resolve(input);
    },

    async httpCall(input: HttpRequest): Promise<{ status: number; body: unknown }> {
      calls.push({ name: 'httpCall', input });
      throw ApplicationFailure.nonRetryable('httpCall is not available in workflow tests', 'HTTP_CALL_REFUSED');
    },

    async callAiAgent(input: AgentCallInput): Promise<never> {
      calls.push({ name: 'callAiAgent', input });
      throw ApplicationFailure.nonRetryable('AI agents are not available in workflow tests', 'AI_AGENT_FAILED');
    },

    async callWebhook(input: WebhookCallInput): Promise<never> {
      calls.push({ name: 'callWebhook', input });
      throw ApplicationFailure.nonRetryable('webhooks are not available in workflow tests', 'SERVICE_FUNCTION');
    },

    // The registered service functions are pure: the real ones run here.
    async runServiceFunction(input: ServiceFunctionInput) {
      calls.push({ name: 'runServiceFunction', input });
      return runServiceFunction(input);
    },

    async prepareSubProcess(input: SubProcessInput): Promise<never> {
      calls.push({ name: 'prepareSubProcess', input });
      throw ApplicationFailure.nonRetryable('sub-processes are not available in workflow tests', 'NOT_FOUND');
    },
    // Rule chains: none here (test/workflow/chain-run.test.ts and automation-node.test.ts serve their own).
    async loadChainForAutomation(input) {
      calls.push({ name: 'loadChainForAutomation', input });
      return { status: 'missing' as const };
    },
    ...(Object.fromEntries(
      (
        [
          'chainStartProcess',
          'beginChainRun',
          'finishChainRun',
          'runChainScript',
          'chainRestApiCall',
          'loadFlowChain',
          'resolveChainFunction',
        ] as const
      ).map((name) => [
        name,
        async (input: unknown): Promise<never> => {
          calls.push({ name, input });
          throw ApplicationFailure.nonRetryable(`${name} is not available in these workflow tests`, 'NOT_FOUND');
        },
      ]),
    ) as unknown as Pick<
      Activities,
      | 'chainStartProcess'
      | 'beginChainRun'
      | 'finishChainRun'
      | 'runChainScript'
      | 'chainRestApiCall'
      | 'loadFlowChain'
      | 'resolveChainFunction'
    >),
  };
  return { activities, projection, directory, calls };
}
