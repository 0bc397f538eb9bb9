// What the read model has not seen yet: the sequence number it has, the trail entries, copies and
// notifications since, and (engine version 4) the states handed to the callers of Updates, which
// they write themselves (docs/engine.md "Read model").
import { workflowInfo } from '@temporalio/workflow';
import type {
  AnsweredEvents,
  CcRecord,
  InstanceRow,
  NotificationRecord,
  ProjectionSnapshot,
  TaskState,
  TrailEntry,
} from './types.js';

/**
 * How many answered states' events a run keeps (Outbox.handOver). The sweeper reads them within
 * seconds of a lost write; this many more Updates on one instance in that time would be needed
 * to push one out.
 */
const ANSWERED_KEPT = 32;

/** Two snapshots as one: `later`'s rows win, events of both. */
function mergeSnapshots(earlier: ProjectionSnapshot, later: ProjectionSnapshot): ProjectionSnapshot {
  const tasks = new Map(earlier.tasks.map((t) => [t.id, t]));
  for (const t of later.tasks) tasks.set(t.id, t);
  return {
    ...later,
    tasks: [...tasks.values()],
    formPermissions: { ...earlier.formPermissions, ...later.formPermissions },
    actionPermissions: { ...earlier.actionPermissions, ...later.actionPermissions },
    trail: [...earlier.trail, ...later.trail],
    cc: [...earlier.cc, ...later.cc],
    notifications: [...earlier.notifications, ...later.notifications],
  };
}

/** The instance as the outbox reads it for a snapshot (the Engine). */
export interface SnapshotSource {
  seq: number;
  ended: boolean;
  tasks: Record<string, TaskState>;
  instanceRow(): InstanceRow;
  permissionsOf(tasks: TaskState[]): Pick<ProjectionSnapshot, 'formPermissions' | 'actionPermissions'>;
}

export class Outbox {
  /** The sequence number the read model has (written by the projection or by an Update's caller). */
  projectedSeq = 0;
  trail: TrailEntry[] = [];
  cc: CcRecord[] = [];
  notifications: NotificationRecord[] = [];
  /** Engine version 4: Update handlers running whose caller writes their state (handlers.ts); the projection waits for them. */
  callerUpdates = 0;
  /** Engine version 4: the events of the last answers, kept for the sweeper (AnsweredEvents). */
  answered: AnsweredEvents[] = [];
  /** The InstanceStatus search attribute as last upserted ('' before the first). */
  shownStatus = '';
  /** What the Updates answered so far in the current workflow task (by its history length) carried. */
  private handedInTask: { at: number; state: ProjectionSnapshot } | null = null;

  /** The changes of `source` since the last projection. */
  snapshot(source: SnapshotSource): ProjectionSnapshot {
    const tasks = Object.values(source.tasks).filter((t) => t.seq > this.projectedSeq);
    return {
      seq: source.seq,
      instance: source.instanceRow(),
      tasks,
      ...source.permissionsOf(tasks),
      // Copies: markProjected drops exactly what this snapshot carried, not what was added since.
      trail: [...this.trail],
      cc: [...this.cc],
      notifications: [...this.notifications],
      ended: source.ended,
    };
  }

  /**
   * Engine version 4: the changes of `source` go to the caller of Update `updateId`, which writes
   * them; the projection will not. Their events are kept for the sweeper while the write may still
   * be missing.
   */
  handOver(updateId: string, source: SnapshotSource): ProjectionSnapshot {
    const snapshot = this.snapshot(source);
    // Updates answered in one workflow task share its changes: each answer carries all of them, so
    // every caller reads its own action once it has written (read-your-writes), whichever writes first.
    const at = workflowInfo().historyLength;
    const prior = this.handedInTask?.at === at ? this.handedInTask.state : null;
    const state = prior ? mergeSnapshots(prior, snapshot) : snapshot;
    this.handedInTask = { at, state };
    this.markProjected(snapshot);
    const { seq, trail, cc, notifications } = snapshot;
    if (trail.length || cc.length || notifications.length) {
      this.answered.push({ updateId, seq, trail, cc, notifications });
      if (this.answered.length > ANSWERED_KEPT) this.answered.splice(0, this.answered.length - ANSWERED_KEPT);
    }
    return state;
  }

  markProjected(snapshot: ProjectionSnapshot) {
    this.projectedSeq = snapshot.seq;
    this.trail = this.trail.filter((e) => e.seq > snapshot.seq);
    this.cc = this.cc.filter((c) => !snapshot.cc.includes(c));
    this.notifications = this.notifications.filter((n) => !snapshot.notifications.includes(n));
  }
}
