// The state of one running instance and the primitives every node and action uses: its tasks,
// runs and paths' tokens, the trail, copies and notifications. Which paths run or wait is
// paths.ts's, what the read model has not seen yet outbox.ts's, recent Update answers
// update-memory.ts's.
import type { NotificationKind } from '../notification-kinds.js';
import type { AttachmentRef } from '../messages.js';
import { uuid4, workflowInfo } from '@temporalio/workflow';
import type { DslNode, ProcessDocument } from '../../dsl/index.js';
import type {
  AheadInFlight,
  ApproversAhead,
  Candidates,
  CarriedState,
  InstanceInfo,
  InstanceRow,
  InstanceStatus,
  NodeRun,
  Region,
  Token,
  ProjectionSnapshot,
  TaskKind,
  TaskResult,
  TaskState,
  TaskStatus,
  TrailEntry,
} from './types.js';
import { emptyCandidates, OPEN_TASK_STATUSES } from './types.js';
import { engineFeatures, type EngineFeatures } from './features.js';
import { endingText, type Ending } from '../../dsl/ending.js';

import { Halt, Paths } from './paths.js';
import type { OfflineRuntime } from './first-state.js';
import { Outbox } from './outbox.js';
import { UpdateMemory } from './update-memory.js';

export { Halt };

// The state types live in types.ts; these names are read from here by the nodes and actions.
export type { ApproveMode, NodeRun, Region, RunOutcome, Token } from './types.js';
export { emptyCandidates };

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

  /** Bumped by every change (touch): the order the read model's writes follow. */
  seq = 0;
  ended = false;
  private trailCounter = 0;
  /** Who acted last, and the last comment a person made (instance_ended); not carried by continue-as-new. */
  private lastActor: string | null = null;
  private lastComment: { userId: string; comment: string } | null = null;
  /** Files the running Update's actor attached: the first trail entry of theirs carries them (handlers.ts). */
  actionFiles: { userId: string; files: AttachmentRef[] } | null = null;

  /** What the run's engine version turns on (features.ts). */
  features: EngineFeatures = engineFeatures(0);
  /** Continue as new once the history has this many events (StartInput.historyLimit). */
  historyLimit = 2000;

  /** Approvers of the next userTasks, looked up by the last projection (approvers-ahead.ts); not carried. */
  approversAhead: ApproversAhead | null = null;
  /** The look-ups the projection in flight is making (approvers-ahead.ts). */
  aheadInFlight: AheadInFlight | null = null;

  /** Which paths run and which wait (paths.ts). */
  readonly paths = new Paths(() => this.ended);

  /**
   * The first steps' clock when the starter predicted them (StartInput.predicted): the prediction's
   * time, so both computations stamp the same times. Cleared once the first state is settled.
   */
  fixedNow: string | null = null;
  /** Ids the starter chose for the first steps (StartInput.firstIds), taken in order before any uuid4. */
  presetIds: string[] = [];
  /** Set only outside a workflow: the server's prediction of the first state (first-state.ts). */
  offline: OfflineRuntime | null = null;
  /** What the read model has not seen yet (outbox.ts). */
  readonly outbox = new Outbox();
  /** Answers of recent Updates by id, so a retry after continue-as-new gets the first answer. */
  updates = new UpdateMemory();

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
      recentUpdates: this.updates.recent.slice(-100),
      ...(this.features.callerWrites ? { answered: this.outbox.answered } : {}),
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
    });
    e.outbox.projectedSeq = c.seq;
    e.outbox.answered = c.answered ?? [];
    e.updates = new UpdateMemory(c.recentUpdates);
    e.trailCounter = c.trailCounter;
    return e;
  }

  // ---------- time and ids ----------

  now(): string {
    return this.fixedNow ?? new Date().toISOString();
  }

  newId(): string {
    return this.presetIds.shift() ?? (this.offline ? this.offline.newId() : uuid4());
  }

  /** Runs offline (the server's prediction): waits are kept by the offline runtime. */
  runOffline(runtime: OfflineRuntime) {
    this.offline = runtime;
    this.paths.waitWith(runtime.condition);
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
      detail: this.withFiles(fields.userId ?? null, fields.detail ?? null),
      code: fields.code ?? null,
      params: fields.params ?? null,
      seq: this.touch(),
    };
    this.outbox.trail.push(entry);
    if (entry.userId) this.lastActor = entry.userId;
    if (entry.userId && entry.comment) this.lastComment = { userId: entry.userId, comment: entry.comment };
    return entry;
  }

  private withFiles(userId: string | null, detail: Record<string, unknown> | null) {
    const pending = this.actionFiles;
    if (!pending || !userId || pending.userId !== userId) return detail;
    this.actionFiles = null;
    return { ...(detail ?? {}), attachments: pending.files };
  }

  notify(userId: string, kind: NotificationKind, taskId: string | null, payload: Record<string, unknown> = {}) {
    this.outbox.notifications.push({
      key: `${this.info.id}:${this.trailCounter}:${this.seq}:${kind}:${userId}:${taskId ?? ''}`,
      userId,
      kind,
      taskId,
      payload,
    });
    this.touch();
  }

  cc(activityId: string, userId: string) {
    this.outbox.cc.push({ activityId, userId, ccTime: this.now() });
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

  /** Time to hand the state to a fresh run (continue-as-new, once settled). */
  rollDue(): boolean {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength > this.historyLimit;
  }

  /** Quiet, and the read model has every change. */
  settled(): boolean {
    return this.paths.quiet() && this.outbox.projectedSeq >= this.seq;
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
      workflowId: this.offline?.workflowId ?? workflowInfo().workflowId,
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
    return this.outbox.snapshot(this);
  }
}
