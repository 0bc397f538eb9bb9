// Task actions (docs/contract.md#action-rules, docs/task-actions.md): approve/reject/complete and the approver's
// toolbox, plus candidates, task variables, comments and deleting closed tasks. Mounted at
// /api/v1/workflow/tasks beside the task queries router.
import type { z } from '@hono/zod-openapi';
import * as m from '../../workflows/messages.js';
import type { AppDeps, Principal } from '../context.js';
import * as tasks from './tasks.js';
import * as toolbox from './task-toolbox.js';
import { holds, Permissions } from '../permissions.js';
import { AppError } from '../errors.js';
import { PageQuery } from '../paging.js';
import { page } from '../http/envelope.js';
import { createRouter, endpoint } from '../http/router.js';
import { reasonOf } from '../instances/instance-actions.js';
import { ActionResult, DecisionBody, IdParam } from './tasks.schemas.js';
import * as s from './task-actions.schemas.js';
import { variableWrites } from '../http/shared-endpoints.js';

const tags = ['tasks'];
const { OPERATE, MONITOR, ADMIN, INSTANCE_MANAGE } = Permissions;

/** `body` has passed the route's schema, which mirrors the Update's input (workflows/messages.ts). */
type Run = (
  deps: AppDeps,
  p: Principal,
  id: string,
  body: object,
  key: string | undefined,
) => Promise<z.infer<typeof ActionResult>>;

/** An action that answers the task and instance after it: its path, who may, its body and what runs it. */
interface TaskActionRoute {
  path: string;
  summary: string;
  perms: string[];
  body: z.ZodType;
  /** No body (or `{}`) is fine. */
  optional?: boolean;
  run: Run;
}

const update =
  <A extends m.TaskRef>(def: toolbox.TaskUpdate<A>): Run =>
  (deps, p, id, body, key) =>
    tasks.taskAction(deps, p, id, def, body as toolbox.BodyOf<A>, key);
// ReasonBody: `reason` is the trail comment; `comment` is its deprecated alias, mapped here only.
const withReason =
  (def: toolbox.TaskUpdate<m.ReasonInput>): Run =>
  (deps, p, id, body, key) =>
    tasks.taskAction(
      deps,
      p,
      id,
      def,
      {
        reason: reasonOf(body as z.infer<typeof s.ReasonBody>),
        attachments: (body as { attachments?: string[] }).attachments,
      },
      key,
    );
// Actions that name people: they must exist in the directory.
const withPeople =
  <A extends m.HandoverInput | m.AddSignInput>(def: toolbox.TaskUpdate<A>): Run =>
  (deps, p, id, body, key) =>
    toolbox.actWithPeople(deps, p, id, def, body as toolbox.BodyOf<A>, key);
// approve / reject: `onBehalfOf` needs workflow:admin and a reason (the workflow checks both again).
const decision =
  (def: toolbox.TaskUpdate<m.DecisionInput>): Run =>
  (deps, p, id, body, key) => {
    const b = body as z.infer<typeof s.ApprovalDecisionBody>;
    if (b.onBehalfOf) {
      if (!holds(p.permissions, ADMIN))
        throw new AppError('FORBIDDEN', 'Permission required: workflow:admin (to decide on behalf of the assignee)');
      if (!b.reason?.trim())
        throw new AppError('VALIDATION_FAILED', 'reason is required when deciding on behalf of the assignee');
    }
    return tasks.taskAction(deps, p, id, def, b, key);
  };
const candidates =
  (change: 'add' | 'remove'): Run =>
  (deps, p, id, body, key) =>
    toolbox.changeCandidates(deps, p, id, change, body as z.infer<typeof s.CandidatesBody>, key);

const actions: TaskActionRoute[] = [
  {
    path: '/{id}/approve',
    summary: 'Approve (the assignee; the delegatee while delegated; workflow:admin with onBehalfOf for the assignee)',
    perms: [OPERATE],
    body: s.ApprovalDecisionBody,
    optional: true,
    run: decision(m.approve),
  },
  {
    path: '/{id}/reject',
    summary: "Reject: the node's reject strategy applies (workflow:admin with onBehalfOf for the assignee)",
    perms: [OPERATE],
    body: s.ApprovalDecisionBody,
    optional: true,
    run: decision(m.reject),
  },
  {
    path: '/{id}/recall',
    summary:
      'Recall your approval while nobody has acted on the tasks it created: they are cancelled, your task opens again',
    perms: [OPERATE],
    body: s.RecallBody,
    optional: true,
    run: update(m.recall),
  },
  {
    path: '/{id}/complete',
    summary: 'Complete a handle or resubmit task (an admin may end a delay early)',
    perms: [OPERATE],
    body: DecisionBody,
    optional: true,
    run: update(m.complete),
  },
  {
    path: '/urge/{id}',
    summary: 'Urge: notify the current handlers (initiator or workflow:monitor; once per task per 10 minutes)',
    perms: [OPERATE, MONITOR],
    body: s.UrgeBody,
    optional: true,
    run: update(m.urge),
  },
  {
    path: '/{id}/claim',
    summary: 'Claim a pending task (a candidate)',
    perms: [OPERATE],
    body: s.EmptyBody,
    optional: true,
    run: update(m.claim),
  },
  {
    path: '/{id}/unclaim',
    summary: 'Unclaim: back to the pool (the claimer)',
    perms: [OPERATE],
    body: s.EmptyBody,
    optional: true,
    run: update(m.unclaim),
  },
  {
    path: '/{id}/resolve',
    summary: 'Resolve a delegation: the task returns to the owner (delegatee or owner)',
    perms: [OPERATE],
    body: s.EmptyBody,
    optional: true,
    run: update(m.resolve),
  },
  {
    path: '/{id}/withdraw',
    summary: 'Withdraw the application this task belongs to (initiator)',
    perms: [OPERATE],
    body: s.ReasonBody,
    optional: true,
    run: withReason(m.withdrawTask),
  },
  {
    path: '/{id}/suspend',
    summary: 'Suspend the task (initiator with switch suspend, or workflow:instance:manage)',
    perms: [OPERATE, INSTANCE_MANAGE],
    body: s.ReasonBody,
    optional: true,
    run: withReason(m.suspendTask),
  },
  {
    path: '/{id}/activate',
    summary: 'Resume a suspended task',
    perms: [OPERATE, INSTANCE_MANAGE],
    body: s.ReasonBody,
    optional: true,
    run: withReason(m.activateTask),
  },
  {
    path: '/{id}/return',
    summary: 'Return to the most recently completed approval node before this one',
    perms: [OPERATE],
    body: s.ReturnBody,
    run: update(m.returnTask),
  },
  {
    path: '/{id}/reduce-sign',
    summary: 'Remove signers who have not acted (answer lists removed and kept)',
    perms: [OPERATE],
    body: s.ReduceSignBody,
    run: update(m.reduceSign),
  },
  {
    path: '/{id}/transfer',
    summary: 'Transfer the task to another user for good',
    perms: [OPERATE],
    body: s.AssigneeBody,
    run: withPeople(m.transfer),
  },
  {
    path: '/{id}/delegate',
    summary: 'Delegate: the same task goes to the delegatee and returns to you after they decide',
    perms: [OPERATE],
    body: s.AssigneeBody,
    run: withPeople(m.delegate),
  },
  {
    path: '/{id}/add-sign',
    summary: 'Add signers (position before (default), after or parallel)',
    perms: [OPERATE],
    body: s.AddSignBody,
    run: withPeople(m.addSign),
  },
  {
    path: '/{id}/reassign',
    summary: 'Reassign an active or pending task (workflow:admin)',
    perms: [ADMIN],
    body: s.AssigneeBody,
    run: (deps, p, id, body, key) => toolbox.reassign(deps, p, id, body as z.infer<typeof s.AssigneeBody>, key),
  },
  {
    path: '/{id}/candidates',
    summary: 'Add candidates to a pending pool (workflow:admin)',
    perms: [ADMIN],
    body: s.CandidatesBody,
    run: candidates('add'),
  },
  {
    path: '/{id}/candidates/remove',
    summary: 'Remove candidates from a pending pool (workflow:admin or the initiator)',
    perms: [ADMIN, OPERATE],
    body: s.CandidatesBody,
    run: candidates('remove'),
  },
];

export function taskActionRoutes(deps: AppDeps) {
  const r = createRouter();

  for (const a of actions) {
    endpoint(
      r,
      {
        method: 'post',
        path: a.path,
        tags,
        summary: a.summary,
        permissions: a.perms,
        params: IdParam,
        body: a.body,
        optionalBody: a.optional,
        idempotent: true,
        response: ActionResult,
      },
      ({ principal, params, body, key }) => a.run(deps, principal, params.id, body as object, key),
    );
  }

  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/candidates',
      tags,
      summary: 'Candidates of the task (users, roles, departments)',
      params: IdParam,
      query: PageQuery,
      response: page(s.Candidate),
    },
    ({ principal, params, query }) => toolbox.listCandidates(deps, principal, params.id, query),
  );

  // Task variables
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/variables',
      tags,
      summary: 'Task variables (hidden fields left out)',
      params: IdParam,
      response: s.TaskVariables,
    },
    ({ principal, params }) => toolbox.listTaskVariables(deps, principal, params.id),
  );
  variableWrites(
    r,
    {
      tags,
      permissions: [OPERATE],
      owner: 'task',
      mergeNote: "the node's formPermissions apply",
      params: IdParam,
      variableParams: s.VariableParam,
      bodies: { set: s.SetVariablesBody, value: s.ValueBody },
      response: s.TaskVariables,
    },
    (principal, id, change, key) => toolbox.writeTaskVariables(deps, principal, id, change, key),
  );

  // Comments
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/comments',
      tags,
      summary: 'Comments on the task, oldest first',
      params: IdParam,
      query: PageQuery,
      response: page(s.Comment),
    },
    ({ principal, params, query }) => toolbox.listComments(deps, principal, params.id, query),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/{id}/comments',
      tags,
      summary: 'Add a comment (participants; node switch addComment)',
      permissions: [OPERATE],
      params: IdParam,
      body: s.CommentBody,
      idempotent: true,
      status: 201,
      response: s.Comment,
      responseDescription: 'Created',
    },
    ({ principal, params, body, key }) =>
      toolbox.addComment(deps, principal, params.id, body.comment, key, body.attachments),
  );

  endpoint(
    r,
    {
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Delete a closed task (workflow:admin); a live task is 409',
      permissions: [ADMIN],
      params: IdParam,
      response: s.Deleted,
    },
    ({ principal, params }) => toolbox.deleteTask(deps, principal, params.id),
  );
  return r;
}
