// The state of one running instance and the primitives every node and action uses:
// tasks, trail, notifications, waiting ("parking") and projection bookkeeping.
import type { NotificationKind } from '../notification-kinds.js';
import { condition, uuid4, workflowInfo } from '@temporalio/workflow';
import type { DslNode, ProcessDocument } from '../../dsl/index.js';
import type {
  AnsweredEvents,
  Candidates,
  CarriedState,
  CcRecord,
  InstanceInfo,
  InstanceRow,
  InstanceStatus,
  NotificationRecord,
  ProjectionSnapshot,
  TaskKind,
  TaskResult,
  TaskState,
  TaskStatus,
  TrailEntry,
} from './types.js';
import { OPEN_TASK_STATUSES } from './types.js';
import { engineFeatures, type EngineFeatures } from './features.js';
import type { AheadInFlight, ApproversAhead } from './approvers-ahead.js';
import { endingText, type Ending } from '../../dsl/ending.js';

/** Thrown inside a path when the instance ended under it; unwinds that path quietly. */
export class Halt extends Error {
  constructor() {
    super('instance ended');
    this.name = 'Halt';
  }
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise's outcome as a value, so the code after a wait runs whether it resolved or failed. */
const settleOf = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

export type ApproveMode = 'single' | 'any' | 'all' | 'sequential' | 'vote';
export type RunOutcome = 'approved' | 'rejected' | 'returned' | 'cancelled' | 'completed';

/** One activation of a userTask (or a resubmit/delay wait): its ballots and outcome. */
export interface NodeRun {
  id: string;
  nodeId: string;
  tokenId: string;
  mode: ApproveMode;
  threshold: number;
  oneAtATime: boolean;
  parentTaskId: string | null;
  taskIds: string[];
  outcome: RunOutcome | null;
  returnTarget: string | null;
  decidedBy: string | null;
  comment: string | null;
  /** Cancelled by an admin re-drive: the path runs the node again. */
  redriven?: boolean;
  /** The approved run whose decision led the path here (recall looks for it). */
  previousRunId?: string | null;
  /** Cancelled by a recall: the path goes back to this (re-opened) run. */
  recalledTo?: string;
  /** Open tasks the outcome cancelled, with the status they had (a recall re-opens them). */
  closedByOutcome?: Array<{ id: string; status: TaskStatus }>;
}

export interface Token {
  id: string;
  nodeId: string;
  regionId: string | null;
  parked: boolean;
  /** For a delay node: when it wakes. */
  wakeAt: string | null;
  /** Its branch was given up (join timeout): the path stops at its next step. */
  abandoned?: boolean;
  /** Parked on a failure until an admin re-drives the instance. */
  failed?: boolean;
  /** The run this path last left approved (the next userTask records it as its previous run). */
  lastApprovedRun?: string;
  /** Set by a recall: the userTask awaits this re-opened run instead of creating tasks. */
  resumeRun?: string;
  /** The callId of the catalogue service function this path is calling (kept for a re-drive). */
  callId?: string;
}

/** A parallel region opened by a fork/inclusive, closed by its join. */
export interface Region {
  id: string;
  forkId: string;
  joinId: string | null;
  expected: number;
  arrived: string[];
  fired: boolean;
}

export const emptyCandidates = (): Candidates => ({ userIds: [], roleIds: [], deptIds: [] });

/**
 * How many answered states' events a run keeps (Engine.handOver). The sweeper reads them within
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

export class Engine {
  readonly info: InstanceInfo;
  doc: ProcessDocument;
  variables: Record<string, unknown>;
  status: InstanceStatus = 'active';
  endTime: string | null = null;
  /** The ending's English words (the `endReason` older clients and histories read). */
  endReason: string | null = null;
  /** Why the instance ended, as a code and params (dsl/ending.ts); null while running or when it completed. */
  ending: Ending | null = null;
  detail: Record<string, unknown> | null = null;

  tasks: Record<string, TaskState> = {};
  runs: Record<string, NodeRun> = {};
  tokens: Record<string, Token> = {};
  regions: Record<string, Region> = {};
  /** userTask node ids in the order they completed (approved), most recent last. */
  completedApprovals: string[] = [];
  lastUrge: Record<string, string> = {};

  seq = 0;
  projectedSeq = 0;
  /**
   * Paths that are running (not parked). Starts at 1: the workflow's start holds the instance
   * until its first paths run (releaseStart), so an Update dispatched before that (the start's
   * own `sync`, run when its handler is registered) cannot see an empty instance as settled.
   */
  private busy = 1;
  /** Real waits so far (a park whose condition was not already met): the step budget's clock. */
  waits = 0;
  ended = false;
  private trailCounter = 0;
  private parked = new Set<() => boolean>();
  pendingTrail: TrailEntry[] = [];
  pendingCc: CcRecord[] = [];
  pendingNotifications: NotificationRecord[] = [];
  /** Who acted last, and the last comment a person made (instance_ended); not carried by continue-as-new. */
  private lastActor: string | null = null;
  private lastComment: { userId: string; comment: string } | null = null;

  /** What the run's engine version turns on (features.ts). */
  features: EngineFeatures = engineFeatures(0);
  /** Engine version 4: Update handlers running whose caller writes their state (handlers.ts); the projection waits for them. */
  callerUpdates = 0;
  /** Engine version 4: the events of the last answers, kept for the sweeper (AnsweredEvents). */
  answered: AnsweredEvents[] = [];
  /** The InstanceStatus search attribute as last upserted ('' before the first). */
  shownStatus = '';
  /** What the Updates answered so far in the current workflow task (by its history length) carried. */
  private handedInTask: { at: number; state: ProjectionSnapshot } | null = null;
  /** Continue as new once the history has this many events (StartInput.historyLimit). */
  historyLimit = 2000;

  /** Approvers of the next userTasks, looked up by the last projection (approvers-ahead.ts); not carried. */
  approversAhead: ApproversAhead | null = null;
  /** The look-ups the projection in flight is making (approvers-ahead.ts). */
  aheadInFlight: AheadInFlight | null = null;

  /** Answers of recent Updates by id, so a retry after continue-as-new gets the first answer. */
  recentUpdates: Array<{ id: string; result: unknown }> = [];

  constructor(info: InstanceInfo, doc: ProcessDocument, variables: Record<string, unknown>) {
    this.info = info;
    this.doc = doc;
    this.variables = { ...variables };
  }

  /** Everything continue-as-new hands to the next run (the instance is settled then). */
  carry(): CarriedState {
    return {
      status: this.status,
      detail: this.detail,
      tasks: this.tasks,
      runs: this.runs,
      tokens: this.tokens,
      regions: this.regions,
      completedApprovals: this.completedApprovals,
      lastUrge: this.lastUrge,
      seq: this.seq,
      trailCounter: this.trailCounter,
      recentUpdates: this.recentUpdates.slice(-100),
      ...(this.features.callerWrites ? { answered: this.answered } : {}),
    };
  }

  static restore(
    info: InstanceInfo,
    doc: ProcessDocument,
    variables: Record<string, unknown>,
    c: CarriedState,
  ): Engine {
    const e = new Engine(info, doc, variables);
    Object.assign(e, {
      status: c.status,
      detail: c.detail,
      tasks: c.tasks,
      runs: c.runs,
      tokens: c.tokens,
      regions: c.regions,
      completedApprovals: c.completedApprovals,
      lastUrge: c.lastUrge,
      seq: c.seq,
      projectedSeq: c.seq,
      recentUpdates: c.recentUpdates,
      answered: c.answered ?? [],
    });
    e.trailCounter = c.trailCounter;
    return e;
  }

  rememberUpdate(id: string, result: unknown) {
    this.recentUpdates.push({ id, result });
    if (this.recentUpdates.length > 200) this.recentUpdates.splice(0, this.recentUpdates.length - 100);
  }

  // ---------- time and ids ----------

  now(): string {
    return new Date().toISOString();
  }

  newId(): string {
    return uuid4();
  }

  /** Every change bumps the sequence number the projection orders by. */
  touch(): number {
    return ++this.seq;
  }

  node(id: string): DslNode {
    const node = this.doc.metadata.nodes.find((n) => n.id === id);
    if (!node) throw new Error(`unknown node ${id}`);
    return node;
  }

  // ---------- trail, cc, notifications ----------

  trail(
    type: string,
    fields: {
      activityId?: string | null;
      taskId?: string | null;
      userId?: string | null;
      comment?: string | null;
      detail?: Record<string, unknown> | null;
      /** What the engine itself says (dsl/history.ts): the console words it in the reader's language. */
      code?: string | null;
      params?: Record<string, unknown> | null;
    } = {},
  ): TrailEntry {
    const entry: TrailEntry = {
      id: `${this.info.id}-${++this.trailCounter}`,
      type,
      activityId: fields.activityId ?? null,
      taskId: fields.taskId ?? null,
      userId: fields.userId ?? null,
      comment: fields.comment ?? null,
      time: this.now(),
      detail: fields.detail ?? null,
      code: fields.code ?? null,
      params: fields.params ?? null,
      seq: this.touch(),
    };
    this.pendingTrail.push(entry);
    if (entry.userId) this.lastActor = entry.userId;
    if (entry.userId && entry.comment) this.lastComment = { userId: entry.userId, comment: entry.comment };
    return entry;
  }

  notify(userId: string, kind: NotificationKind, taskId: string | null, payload: Record<string, unknown> = {}) {
    this.pendingNotifications.push({
      key: `${this.info.id}:${this.trailCounter}:${this.seq}:${kind}:${userId}:${taskId ?? ''}`,
      userId,
      kind,
      taskId,
      payload,
    });
    this.touch();
  }

  cc(activityId: string, userId: string) {
    this.pendingCc.push({ activityId, userId, ccTime: this.now() });
    this.notify(userId, 'cc', null, { activityId });
  }

  // ---------- tasks ----------

  /** Opens a run of a node for a path: a single ballot unless a userTask says otherwise. */
  newRun(
    nodeId: string,
    tokenId: string,
    fields: Partial<Pick<NodeRun, 'mode' | 'oneAtATime' | 'previousRunId'>> = {},
  ): NodeRun {
    const run: NodeRun = {
      id: this.newId(),
      nodeId,
      tokenId,
      mode: 'single',
      threshold: 1,
      oneAtATime: false,
      parentTaskId: null,
      taskIds: [],
      outcome: null,
      returnTarget: null,
      decidedBy: null,
      comment: null,
      ...fields,
    };
    this.runs[run.id] = run;
    return run;
  }

  createTask(fields: {
    activityId: string;
    name: string;
    kind: TaskKind;
    runId: string;
    status: TaskStatus;
    assignee?: string | null;
    candidates?: Candidates;
    parentTaskId?: string | null;
    dueDate?: string | null;
    addedBy?: string | null;
    variables?: Record<string, unknown>;
  }): TaskState {
    const task: TaskState = {
      id: this.newId(),
      activityId: fields.activityId,
      name: fields.name,
      kind: fields.kind,
      assignee: fields.assignee ?? null,
      candidates: fields.candidates ?? emptyCandidates(),
      status: this.status === 'suspended' && fields.status !== 'completed' ? 'suspended' : fields.status,
      result: null,
      parentTaskId: fields.parentTaskId ?? null,
      owner: null,
      addedBy: fields.addedBy ?? null,
      dueDate: fields.dueDate ?? null,
      createTime: this.now(),
      endTime: null,
      comment: null,
      variables: fields.variables ?? {},
      runId: fields.runId,
      suspendedFrom: this.status === 'suspended' ? fields.status : null,
      seq: 0,
    };
    this.tasks[task.id] = task;
    this.changed(task);
    if (task.status === 'active' && task.assignee)
      this.notify(task.assignee, 'task_assigned', task.id, { activityId: task.activityId, name: task.name });
    return task;
  }

  changed(task: TaskState) {
    task.seq = this.touch();
  }

  isOpen(task: TaskState): boolean {
    return OPEN_TASK_STATUSES.includes(task.status);
  }

  closeTask(task: TaskState, result: TaskResult, comment?: string | null) {
    if (!this.isOpen(task)) return;
    task.status = result === 'cancelled' || result === 'withdrawn' ? 'cancelled' : 'completed';
    task.result = result;
    task.endTime = this.now();
    if (comment !== undefined) task.comment = comment;
    task.suspendedFrom = null;
    this.changed(task);
  }

  setStatus(task: TaskState, status: TaskStatus) {
    if (this.status === 'suspended' && OPEN_TASK_STATUSES.includes(status)) {
      task.suspendedFrom = status;
      task.status = 'suspended';
    } else task.status = status;
    this.changed(task);
    if (status === 'active' && task.assignee)
      this.notify(task.assignee, 'task_assigned', task.id, { activityId: task.activityId, name: task.name });
  }

  openTasks(): TaskState[] {
    return Object.values(this.tasks).filter((t) => this.isOpen(t));
  }

  tasksOfRun(run: NodeRun): TaskState[] {
    return run.taskIds.map((id) => this.tasks[id]);
  }

  /** Closes every open task of a run, and its parent. */
  cancelRun(run: NodeRun, result: TaskResult = 'cancelled') {
    for (const t of this.tasksOfRun(run)) this.closeTask(t, result);
    for (const t of Object.values(this.tasks)) if (t.runId === run.id) this.closeTask(t, result);
    if (run.parentTaskId) this.closeTask(this.tasks[run.parentTaskId], result);
  }

  // ---------- waiting ----------

  /** A path starts or resumes running: the instance is not quiet until it parks or ends. */
  hold() {
    this.busy++;
  }

  /** A path parked or ended. */
  release() {
    if (this.busy <= 0) throw new Error('engine: release without hold');
    this.busy--;
  }

  /** The start (or the resume after continue-as-new) has launched its paths. */
  releaseStart() {
    this.release();
  }

  /**
   * Waits for `predicate` (or the end of the instance). While parked, this path does not count
   * as busy, so the projection and pending Updates may complete. `timerSummary` labels the
   * timeout's timer in the Web UI.
   */
  async park(predicate: () => boolean, timeoutMs?: number, timerSummary?: string): Promise<boolean> {
    const wake = () => this.ended || predicate();
    if (!wake()) this.waits++;
    this.parked.add(wake);
    this.release();
    const met = await settleOf(
      timeoutMs === undefined
        ? condition(wake).then(() => true)
        : timerSummary
          ? condition(wake, timeoutMs, { summary: timerSummary })
          : condition(wake, timeoutMs),
    );
    this.parked.delete(wake);
    return this.resume(met);
  }

  /** Awaits work that may take long (http call, child process) without holding Updates back. */
  async parkOn<T>(promise: Promise<T>): Promise<T> {
    this.release();
    return this.resume(await settleOf(promise));
  }

  /** Back from a wait: running again; an instance that ended meanwhile halts the path whatever the wait gave. */
  private resume<T>(outcome: Settled<T>): T {
    this.hold();
    if (this.ended) throw new Halt();
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** Nothing is running and nothing parked is about to wake: the instance waits for people or time. */
  quiet(): boolean {
    if (this.busy > 0) return false;
    for (const wake of this.parked) if (wake()) return false;
    return true;
  }

  /** Time to hand the state to a fresh run (continue-as-new, once settled). */
  rollDue(): boolean {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength > this.historyLimit;
  }

  /** Quiet, and the read model has every change. */
  settled(): boolean {
    return this.quiet() && this.projectedSeq >= this.seq;
  }

  // ---------- instance ----------

  currentNodes(): string[] {
    const nodes = new Set<string>();
    for (const t of this.openTasks()) nodes.add(t.activityId);
    for (const tok of Object.values(this.tokens)) if (tok.parked) nodes.add(tok.nodeId);
    return [...nodes];
  }

  setInstanceStatus(status: InstanceStatus) {
    this.status = status;
    this.touch();
  }

  /** Ends the instance: open tasks close, every path halts. `why`: the ending's code and params (null: it simply completed). */
  end(status: InstanceStatus, why: Ending | null, taskResult: TaskResult = 'cancelled') {
    if (this.ended) return;
    for (const t of this.openTasks()) {
      if (t.status === 'suspended' && t.suspendedFrom) t.status = t.suspendedFrom;
      this.closeTask(t, taskResult);
    }
    for (const run of Object.values(this.runs)) if (!run.outcome) run.outcome = 'cancelled';
    this.status = status;
    this.endTime = this.now();
    // Recorded as a code with params; the English words beside it are the ones written before codes.
    // Only the projection's input and Update answers carry them (no command): running instances replay unchanged.
    this.ending = why;
    this.endReason = why ? endingText(why.code, why.params as never) : null;
    this.ended = true;
    this.touch();
    // The outcome to the initiator (not when they withdrew it themselves). Adds to the projection's
    // input only, no command: running instances replay unchanged.
    if (taskResult !== 'withdrawn' && (status === 'completed' || status === 'rejected' || status === 'terminated'))
      this.notify(this.info.initiatorId, 'instance_ended', null, {
        outcome: status === 'completed' ? 'approved' : status,
        by: this.lastActor,
        comment: this.lastComment?.comment ?? null,
        commentBy: this.lastComment?.userId ?? null,
      });
  }

  instanceRow(): InstanceRow {
    return {
      id: this.info.id,
      tenantId: this.info.tenantId,
      workflowId: workflowInfo().workflowId,
      definitionId: this.info.definitionId,
      processKey: this.info.processKey,
      processVersion: this.info.processVersion,
      processName: this.info.processName,
      businessKey: this.info.businessKey,
      status: this.status,
      initiatorId: this.info.initiatorId,
      variables: this.variables,
      currentNodes: this.ended ? [] : this.currentNodes(),
      startTime: this.info.startTime,
      endTime: this.endTime,
      endReason: this.endReason,
      endCode: this.ending?.code ?? null,
      endParams: this.ending?.params ?? null,
      detail: this.detail,
    };
  }

  /** The form and action switches of these tasks' nodes, by task id, as the read model keeps them. */
  permissionsOf(tasks: TaskState[]): Pick<ProjectionSnapshot, 'formPermissions' | 'actionPermissions'> {
    const formPermissions: ProjectionSnapshot['formPermissions'] = {};
    const actionPermissions: ProjectionSnapshot['actionPermissions'] = {};
    for (const t of tasks) {
      const info = this.doc.metadata.nodes.find((n) => n.id === t.activityId)?.additionalInfo;
      formPermissions[t.id] = (info?.formPermissions as Record<string, string> | undefined) ?? null;
      actionPermissions[t.id] = (info?.actionPermissions as Record<string, boolean> | undefined) ?? null;
    }
    return { formPermissions, actionPermissions };
  }

  /** The changes since the last projection. */
  snapshot(): ProjectionSnapshot {
    const tasks = Object.values(this.tasks).filter((t) => t.seq > this.projectedSeq);
    return {
      seq: this.seq,
      instance: this.instanceRow(),
      tasks,
      ...this.permissionsOf(tasks),
      // Copies: markProjected drops exactly what this snapshot carried, not what was added since.
      trail: [...this.pendingTrail],
      cc: [...this.pendingCc],
      notifications: [...this.pendingNotifications],
      ended: this.ended,
    };
  }

  /**
   * Engine version 4: `snapshot` goes to the caller of Update `updateId`, which writes it; the
   * projection will not. Its events are kept for the sweeper while the write may still be missing.
   */
  handOver(updateId: string): ProjectionSnapshot {
    const snapshot = this.snapshot();
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
    this.pendingTrail = this.pendingTrail.filter((e) => e.seq > snapshot.seq);
    this.pendingCc = this.pendingCc.filter((c) => !snapshot.cc.includes(c));
    this.pendingNotifications = this.pendingNotifications.filter((n) => !snapshot.notifications.includes(n));
  }
}
