// Messages of the approval workflow, declared once and shared by the workflow and the HTTP side.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MigrationState, ProcessDocument } from '../dsl/index.js';
import type { ActionResult, InstanceStatus } from './engine/types.js';
import type { ApproversAhead } from './engine/approvers-ahead.js';

/** Who acts, as the server established it (the workflow checks object-level rules). */
export interface Actor {
  userId: string;
  /** workflow:admin or * */
  admin: boolean;
  /** workflow:instance:manage */
  manage: boolean;
  /** workflow:monitor */
  monitor: boolean;
  /** role codes and department, for pool membership */
  roles: string[];
  deptId: string | null;
}

/** What every task action names: who acts, on which task. Each Update's input mirrors its HTTP body
 * (src/tasks/task-actions.schemas.ts) plus this; docs/task-actions.md says which field
 * becomes the trail comment. */
export interface TaskRef {
  actor: Actor;
  taskId: string;
  /**
   * Set by the server only, with a decision: the approvers of the userTasks that may start next,
   * looked up in the task look-up's round trip (docs/engine.md "Approvers ahead of a decision"). A node uses
   * an entry only for exactly its own input and while it is fresh; otherwise it looks up itself.
   */
  approversAhead?: ApproversAhead;
  /**
   * Files attached with the action: ids in the HTTP body, replaced by the server with what the trail
   * shows of each (src/attachments/); the trail entry the actor's action writes carries them in
   * `detail.attachments`.
   */
  attachments?: AttachmentRef[] | string[];
}

/** A file as the trail names it. */
export interface AttachmentRef {
  id: string;
  name: string;
  size: number;
  contentType: string;
}

/** approve, reject, complete (DecisionBody): `comment` is the trail comment. approve/reject only:
 * `onBehalfOf` (an admin decides for the assignee) with its mandatory `reason` (trail detail).
 * `link` is set by the server only, for a decision through a one-time approval link: the trail
 * detail records `{channel: 'link', linkId, via}`. */
export type DecisionInput = TaskRef & {
  comment?: string;
  variables?: Record<string, unknown>;
  onBehalfOf?: boolean;
  reason?: string;
  link?: { id: string; via: string };
};
/** recall (RecallBody): `reason` is the trail comment. */
export type RecallInput = TaskRef & { reason?: string };
/** returnTask (ReturnBody): `comment` is the trail comment; `reason` is kept in the trail detail. */
export type ReturnInput = TaskRef & { targetActivityId: string; comment?: string; reason?: string };
/** transfer, delegate, reassign (AssigneeBody): `reason` is the trail comment (reassign: within its text). */
export type HandoverInput = TaskRef & { assigneeUserId: string; reason?: string };
export type SignPosition = 'before' | 'after' | 'parallel';
/** addSign (AddSignBody): `reason` is the trail comment. */
export type AddSignInput = TaskRef & { assigneeUserIds: string[]; position?: SignPosition; reason?: string };
/** reduceSign (ReduceSignBody): `reason` is the trail comment. */
export type ReduceSignInput = TaskRef & { assigneeUserIds: string[]; reason?: string };
/** withdrawTask, suspendTask, activateTask (ReasonBody): `reason` is the trail comment. */
export type ReasonInput = TaskRef & { reason?: string };
/** urge (UrgeBody): `message` is the trail comment and goes into the notification. */
export type UrgeInput = TaskRef & { message?: string };
/** addCandidates, removeCandidates (CandidatesBody). */
export type CandidatesInput = TaskRef & { userIds?: string[]; roleIds?: string[]; deptIds?: string[] };
/** setTaskVariables (SetTaskVariablesBody). */
export type SetTaskVariablesInput = TaskRef & { variables: Record<string, unknown> };
/** deleteTaskVariables. */
export type DeleteTaskVariablesInput = TaskRef & { names: string[] };

/** Instance-level actor. */
export interface InstanceRef {
  actor: Actor;
}
/** withdraw, terminate, completeInstance, suspendInstance, activateInstance, reDrive, forceResume: `reason` is the trail comment. */
export type InstanceReasonInput = InstanceRef & { reason?: string };
/** What a user handover moves (docs/task-actions.md#handing-over-a-leavers-work). */
export interface HandoverScope {
  /** Open tasks assigned to or delegated to the user, and those they delegated (the owner moves). */
  tasks: boolean;
  /** Their place among the candidate users of open tasks. */
  pools: boolean;
  /** The instances they started: the receiver becomes the initiator. */
  startedInstances: boolean;
}
/** handoverUser: everything `fromUserId` holds in this instance moves to `toUserId`; `reason` is the trail comment. */
export type UserHandoverInput = InstanceRef & {
  fromUserId: string;
  toUserId: string;
  reason?: string;
  scope: HandoverScope;
};
/** setVariables. */
export type SetVariablesInput = InstanceRef & { variables?: Record<string, unknown>; deleteNames?: string[] };

/** migrate: the target version (loaded and checked by the HTTP side) and the node mapping. */
export type MigrateInput = InstanceRef & {
  target: { definitionId: string; processKey: string; version: number; name: string; doc: ProcessDocument };
  nodeMapping?: Record<string, string>;
};

// Instance-level
export const sync = defineUpdate<ActionResult, []>('sync');
export const setVariables = defineUpdate<ActionResult, [SetVariablesInput]>('setVariables');
export const withdraw = defineUpdate<ActionResult, [InstanceReasonInput]>('withdraw');
export const terminate = defineUpdate<ActionResult, [InstanceReasonInput]>('terminate');
export const completeInstance = defineUpdate<ActionResult, [InstanceReasonInput]>('completeInstance');
export const suspendInstance = defineUpdate<ActionResult, [InstanceReasonInput]>('suspendInstance');
export const activateInstance = defineUpdate<ActionResult, [InstanceReasonInput]>('activateInstance');
export const reDrive = defineUpdate<ActionResult, [InstanceReasonInput]>('reDrive');
export const forceResume = defineUpdate<ActionResult, [InstanceReasonInput]>('forceResume');
export const migrate = defineUpdate<ActionResult, [MigrateInput]>('migrate');
export const handoverUser = defineUpdate<ActionResult, [UserHandoverInput]>('handoverUser');

// Task-level
export const approve = defineUpdate<ActionResult, [DecisionInput]>('approve');
export const reject = defineUpdate<ActionResult, [DecisionInput]>('reject');
export const complete = defineUpdate<ActionResult, [DecisionInput]>('complete');
export const claim = defineUpdate<ActionResult, [TaskRef]>('claim');
export const unclaim = defineUpdate<ActionResult, [TaskRef]>('unclaim');
export const returnTask = defineUpdate<ActionResult, [ReturnInput]>('returnTask');
export const transfer = defineUpdate<ActionResult, [HandoverInput]>('transfer');
export const delegate = defineUpdate<ActionResult, [HandoverInput]>('delegate');
export const resolve = defineUpdate<ActionResult, [TaskRef]>('resolve');
export const addSign = defineUpdate<ActionResult, [AddSignInput]>('addSign');
export const reduceSign = defineUpdate<ActionResult, [ReduceSignInput]>('reduceSign');
export const withdrawTask = defineUpdate<ActionResult, [ReasonInput]>('withdrawTask');
export const urge = defineUpdate<ActionResult, [UrgeInput]>('urge');
export const suspendTask = defineUpdate<ActionResult, [ReasonInput]>('suspendTask');
export const activateTask = defineUpdate<ActionResult, [ReasonInput]>('activateTask');
export const reassign = defineUpdate<ActionResult, [HandoverInput]>('reassign');
export const addCandidates = defineUpdate<ActionResult, [CandidatesInput]>('addCandidates');
export const removeCandidates = defineUpdate<ActionResult, [CandidatesInput]>('removeCandidates');
export const setTaskVariables = defineUpdate<ActionResult, [SetTaskVariablesInput]>('setTaskVariables');
export const deleteTaskVariables = defineUpdate<ActionResult, [DeleteTaskVariablesInput]>('deleteTaskVariables');
export const recall = defineUpdate<ActionResult, [RecallInput]>('recall');

export interface InstanceStatusView {
  status: InstanceStatus;
  currentNodes: string[];
  seq: number;
}
export const status = defineQuery<InstanceStatusView>('status');

/** What a migration looks at (dsl/migration-plan.ts): the dry run plans from it. */
export interface MigrationStateView {
  status: InstanceStatus;
  definitionId: string;
  processVersion: number | null;
  state: MigrationState;
}
export const migrationState = defineQuery<MigrationStateView>('migrationState');
