// The state an approval workflow carries (and hands to continue-as-new), and the projection
// snapshot it sends to PostgreSQL. Pure types: shared by workflow, activities and HTTP side.
import type { NotificationKind } from '../notification-kinds.js';
import type { Predicted } from './first-state.js';
import type { MigrationPlan, ProcessDocument } from '../../dsl/index.js';
import type { EndingCode } from '../../dsl/ending.js';

// The status lists are declared once here; the HTTP schemas (src/shapes.ts) enumerate them too.
export const INSTANCE_STATUSES = [
  'draft',
  'active',
  'suspended',
  'completed',
  'rejected',
  'terminated',
  'failed',
] as const;
export const TASK_STATUSES = ['pending', 'active', 'waiting', 'suspended', 'completed', 'cancelled'] as const;
export const TASK_KINDS = ['approval', 'handle', 'resubmit', 'delay'] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];
export type TaskStatus = (typeof TASK_STATUSES)[number];
export type TaskKind = (typeof TASK_KINDS)[number];
export type AddSignPosition = 'before' | 'after' | 'parallel';
export type TaskResult =
  'approved' | 'rejected' | 'returned' | 'withdrawn' | 'cancelled' | 'completed' | 'auto_approved' | 'auto_rejected';

export const OPEN_TASK_STATUSES: readonly TaskStatus[] = ['pending', 'active', 'waiting', 'suspended'];
export const ENDED_INSTANCE_STATUSES: readonly InstanceStatus[] = ['completed', 'rejected', 'terminated', 'failed'];

export interface Candidates {
  userIds: string[];
  roleIds: string[];
  deptIds: string[];
}

export interface TaskState {
  id: string;
  activityId: string;
  name: string;
  kind: TaskKind;
  assignee: string | null;
  candidates: Candidates;
  status: TaskStatus;
  result: TaskResult | null;
  parentTaskId: string | null;
  owner: string | null;
  addedBy: string | null;
  dueDate: string | null;
  createTime: string;
  endTime: string | null;
  comment: string | null;
  variables: Record<string, unknown>;
  /** The node activation this task belongs to. */
  runId: string;
  /** Status to restore when a suspension ends. */
  suspendedFrom: TaskStatus | null;
  /** Add-sign sub-tasks: when the added signer signs, relative to the task they were added to. */
  position?: AddSignPosition | null;
  /** Taken off the node by reduce-sign: no longer a ballot. */
  removed?: boolean;
  /** Who claimed it from its pool (only they may unclaim). */
  claimedBy?: string | null;
  /** Approved automatically because this person approved before (autoApproveRepeated). */
  repeatApproved?: boolean;
  /** Suspended on its own (task suspend): activating the instance leaves it suspended. */
  held?: boolean;
  /** Last state change (projection ordering). */
  seq: number;
}

export interface TrailEntry {
  id: string;
  type: string;
  activityId: string | null;
  taskId: string | null;
  userId: string | null;
  comment: string | null;
  time: string;
  detail: Record<string, unknown> | null;
  /** A code of dsl/history.ts and its params when the engine wrote the entry's words (absent in older histories). */
  code?: string | null;
  params?: Record<string, unknown> | null;
  seq: number;
}

export interface CcRecord {
  activityId: string;
  userId: string;
  ccTime: string;
}

export interface NotificationRecord {
  key: string;
  userId: string;
  kind: NotificationKind;
  taskId: string | null;
  payload: Record<string, unknown>;
}

export interface InstanceInfo {
  id: string;
  tenantId: string;
  definitionId: string;
  processKey: string;
  processVersion: number | null;
  processName: string;
  businessKey: string | null;
  initiatorId: string;
  startTime: string;
}

/** Approver look-ups made ahead of the userTasks that may come next (approvers-ahead.ts), by input key. */
export interface ApproversAhead {
  at: number;
  entries: Array<{ key: string; resolved: ResolvedApprovers | null }>;
}

/** An input with its key, as the instance row keeps it for the server (the key as approvers-ahead.ts computes it). */
export interface AheadInput {
  key: string;
  input: ApproverInput;
}

/** The look-ups a projection activity still has to answer: a node that needs one waits for it. */
export interface AheadInFlight {
  keys: Set<string>;
  done: Promise<void>;
}

/** What the workflow asks the directory to resolve for a userTask (src/directory/approvers.ts). */
export interface ApproverInput {
  tenantId: string;
  initiatorId: string;
  approver: { type: string; userIds?: string[]; roleIds?: string[]; deptIds?: string[]; levels?: number };
}

export interface StartInput {
  /** The engine version the run was started with (engine/features.ts); absent in runs started before versions existed. */
  engineVersion?: number;
  instance: InstanceInfo;
  /** The first userTasks' approvers, looked up by the starter (workflows/engine/approvers-ahead.ts). */
  approversAhead?: ApproversAhead;
  doc: ProcessDocument;
  variables: Record<string, unknown>;
  /** Set by continue-as-new: the state to carry on from. */
  carried?: CarriedState;
  /** Continue as new once the history has this many events (default 2000). */
  historyLimit?: number;
  /**
   * The server wrote the first state itself (engine/first-state.ts): the ids it used, in the order
   * the engine takes them, and its prediction, which the first run confirms or corrects. Absent:
   * the first state is the workflow's to hand over (older starts, documents not predictable).
   */
  firstIds?: string[];
  predicted?: Predicted;
}

export interface InstanceRow {
  id: string;
  tenantId: string;
  workflowId: string;
  definitionId: string;
  processKey: string;
  processVersion: number | null;
  processName: string;
  businessKey: string | null;
  status: InstanceStatus;
  initiatorId: string;
  variables: Record<string, unknown>;
  currentNodes: string[];
  startTime: string;
  endTime: string | null;
  /** The ending's English words (as written before codes existed). */
  endReason: string | null;
  /** Why it ended, as a code (dsl/ending.ts); absent in snapshots made before codes existed. */
  endCode?: EndingCode | null;
  endParams?: Record<string, unknown> | null;
  detail: Record<string, unknown> | null;
}

/** What one projection write carries: changes since the previous write. */
export interface ProjectionSnapshot {
  seq: number;
  instance: InstanceRow;
  tasks: TaskState[];
  formPermissions: Record<string, Record<string, string> | null>;
  actionPermissions: Record<string, Record<string, boolean> | null>;
  trail: TrailEntry[];
  cc: CcRecord[];
  notifications: NotificationRecord[];
  ended: boolean;
  /**
   * The look-up inputs of the userTasks that may start after the open nodes (user-task/assignment.ts
   * inputsAhead), kept on the instance row for the server's look-up with the next decision
   * (docs/engine.md "Approvers ahead of a decision"). Absent in states that do not say (older runs).
   */
  ahead?: AheadInput[];
  /**
   * A correction of the server's prediction (engine/first-state.ts): the rows the prediction
   * wrote are replaced by this state, unless a newer state than `belowSeq` is written already;
   * `dropTasks`, ids the prediction may have used for tasks this state does not have, go whatever.
   */
  replaces?: { belowSeq: number; dropTasks: string[] };
}

/** State handed over by continue-as-new (see Engine.carry). */
export interface CarriedState {
  status: InstanceStatus;
  detail: Record<string, unknown> | null;
  tasks: Record<string, TaskState>;
  runs: Record<string, unknown>;
  tokens: Record<string, unknown>;
  regions: Record<string, unknown>;
  completedApprovals: string[];
  lastUrge: Record<string, string>;
  seq: number;
  trailCounter: number;
  recentUpdates: Array<{ id: string; result: unknown }>;
  /** Engine version 4: the events of the last answered states, for the sweeper (absent before). */
  answered?: AnsweredEvents[];
}

/**
 * The appended rows (trail, copies, notifications) of a state an Update's answer carried to its
 * caller (engine version 4). Kept for the last few answers, because the workflow's state alone
 * does not hold them: if the caller died before writing, the sweeper writes them from here.
 */
export interface AnsweredEvents {
  updateId: string;
  seq: number;
  trail: TrailEntry[];
  cc: CcRecord[];
  notifications: NotificationRecord[];
}

/** The `sweepState` query's answer: the whole state, the kept events, and the Updates the run answered. */
export interface SweepState extends ProjectionSnapshot {
  /** Ids of the Updates this run (and the runs it continued) completed, most recent last. */
  updateIds: string[];
}

/** Who the approvers are for one userTask, and why. */
export interface ResolvedApprovers {
  /** `level`: for manager rules, how far up the chain (absent in results recorded before it existed). */
  users: Array<{ userId: string; reason: string; level?: number }>;
  pool: Candidates | null;
  poolSize: number;
  poolMembers: string[];
  poolReason: string | null;
  admins: string[];
  managers: Record<string, string | null>;
  deptLeaders: Record<string, string | null>;
  problem: string | null;
}

/** What one instance's handoverUser moved, and the tasks it left because the receiver already holds a ballot there. */
export interface HandoverMoved {
  tasks: number;
  delegated: number;
  poolMemberships: number;
  instances: number;
  skipped: Array<{ taskId: string; reason: string }>;
}

export interface ActionResult {
  taskId: string | null;
  instanceStatus: InstanceStatus;
  removed?: string[];
  kept?: string[];
  /** migrate: what was done (or, when unchanged, that the instance already runs the target). */
  migration?: MigrationOutcome;
  handover?: HandoverMoved;
  /**
   * Engine version 2: the changes since the last projection, as the answer left them. The caller
   * (src/temporal/engine-client.ts) writes them to the read model and never passes them on.
   */
  state?: ProjectionSnapshot;
}

export interface MigrationOutcome {
  /** False when the instance already ran the target version (an idempotent repeat). */
  changed: boolean;
  fromDefinitionId: string;
  fromVersion: number | null;
  toDefinitionId: string;
  toVersion: number | null;
  plan: MigrationPlan | null;
}

/**
 * Why a task went to whom, recorded as `detail.why` of its `assign` trail entry (the read model
 * turns it into the task's `assignmentReason`). `ids`: the rule's users/roles/departments (the
 * initiator for manager rules); `count`: pool members or people listed; `level`: manager level;
 * `by`: the initiator a selfApproval substitute stands in for; `rule`: the fallback's rule
 * (`role:finance-director`) or the selfApproval setting; `policy`: the empty-approver policy.
 */
export interface AssignWhy {
  kind: string;
  ids: string[];
  count: number | null;
  level: number | null;
  by: string | null;
  rule: string | null;
  policy: string | null;
  reason: string | null;
}

// ---------- an instance's runs, paths and regions (Engine) ----------

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
