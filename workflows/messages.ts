// Messages of the approval workflow, declared once and shared by the workflow and the HTTP side.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ActionResult, InstanceStatus } from './engine/types.js';

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

export interface TaskActionInput {
  actor: Actor;
  taskId: string;
  comment?: string;
  reason?: string;
  targetActivityId?: string;
  assigneeUserId?: string;
  assigneeUserIds?: string[];
  position?: 'before' | 'after' | 'parallel';
  variables?: Record<string, unknown>;
  userIds?: string[];
  roleIds?: string[];
  deptIds?: string[];
  message?: string;
}

export interface InstanceActionInput {
  actor: Actor;
  reason?: string;
  comment?: string;
  variables?: Record<string, unknown>;
  deleteNames?: string[];
}

// Instance-level
export const sync = defineUpdate<ActionResult, []>('sync');
export const setVariables = defineUpdate<ActionResult, [InstanceActionInput]>('setVariables');
export const withdraw = defineUpdate<ActionResult, [InstanceActionInput]>('withdraw');
export const terminate = defineUpdate<ActionResult, [InstanceActionInput]>('terminate');
export const completeInstance = defineUpdate<ActionResult, [InstanceActionInput]>('completeInstance');
export const suspendInstance = defineUpdate<ActionResult, [InstanceActionInput]>('suspendInstance');
export const activateInstance = defineUpdate<ActionResult, [InstanceActionInput]>('activateInstance');
export const reDrive = defineUpdate<ActionResult, [InstanceActionInput]>('reDrive');
export const forceResume = defineUpdate<ActionResult, [InstanceActionInput]>('forceResume');

// Task-level
export const approve = defineUpdate<ActionResult, [TaskActionInput]>('approve');
export const reject = defineUpdate<ActionResult, [TaskActionInput]>('reject');
export const complete = defineUpdate<ActionResult, [TaskActionInput]>('complete');
export const claim = defineUpdate<ActionResult, [TaskActionInput]>('claim');
export const unclaim = defineUpdate<ActionResult, [TaskActionInput]>('unclaim');
export const returnTask = defineUpdate<ActionResult, [TaskActionInput]>('returnTask');
export const transfer = defineUpdate<ActionResult, [TaskActionInput]>('transfer');
export const delegate = defineUpdate<ActionResult, [TaskActionInput]>('delegate');
export const resolve = defineUpdate<ActionResult, [TaskActionInput]>('resolve');
export const addSign = defineUpdate<ActionResult, [TaskActionInput]>('addSign');
export const reduceSign = defineUpdate<ActionResult, [TaskActionInput]>('reduceSign');
export const withdrawTask = defineUpdate<ActionResult, [TaskActionInput]>('withdrawTask');
export const urge = defineUpdate<ActionResult, [TaskActionInput]>('urge');
export const suspendTask = defineUpdate<ActionResult, [TaskActionInput]>('suspendTask');
export const activateTask = defineUpdate<ActionResult, [TaskActionInput]>('activateTask');
export const reassign = defineUpdate<ActionResult, [TaskActionInput]>('reassign');
export const addCandidates = defineUpdate<ActionResult, [TaskActionInput]>('addCandidates');
export const removeCandidates = defineUpdate<ActionResult, [TaskActionInput]>('removeCandidates');
export const setTaskVariables = defineUpdate<ActionResult, [TaskActionInput]>('setTaskVariables');
export const deleteTaskVariables = defineUpdate<ActionResult, [TaskActionInput & { names: string[] }]>('deleteTaskVariables');

export interface InstanceStatusView {
  status: InstanceStatus;
  currentNodes: string[];
  seq: number;
}
export const status = defineQuery<InstanceStatusView>('status');
