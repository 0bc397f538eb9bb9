// One-time approval links (docs/task-actions.md#one-time-approval-links): minted for the assignee
// of an active approval task, shown and used without a login. The signed token names a row of
// approval_links; one conditional UPDATE makes exactly one use win, and the decision runs as the
// linked user through the task actions' approve/reject path, recorded with channel `link`.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import * as m from '../../workflows/messages.js';
import { LINK_ACTIONS, signLink, verifyLink, type LinkAction, type LinkClaims } from '../infra/link-tokens.js';
import { loadPrincipal } from '../directory/auth.js';
import { holds, Permissions } from '../permissions.js';
import { getTask, taskAction } from './tasks.js';

const OPEN = ['pending', 'active', 'waiting', 'suspended'];
export const LINK_BASE = '/api/v1/approve-links';
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

export interface MintBody {
  userId?: string;
  actions?: LinkAction[];
  via?: string;
  ttlSeconds?: number;
}

interface LinkRow {
  id: string;
  tenant_id: string;
  task_id: string;
  instance_id: string;
  user_id: string;
  actions: LinkAction[];
  channel: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_action: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
  closed_at: string | null;
}

export function linkView(r: LinkRow) {
  return {
    linkId: r.id,
    taskId: r.task_id,
    instanceId: r.instance_id,
    userId: r.user_id,
    actions: r.actions,
    via: r.channel,
    createdBy: r.created_by,
    createdAt: iso(r.created_at)!,
    expiresAt: iso(r.expires_at)!,
    usedAt: iso(r.used_at),
    usedAction: r.used_action,
    revokedAt: iso(r.revoked_at),
    closedAt: iso(r.closed_at),
  };
}

const isAdmin = (p: Principal) => holds(p.permissions, Permissions.ADMIN);

/** The assignee mints for themselves; workflow:admin (the notifier's account) mints for the assignee. */
export async function mintLink(deps: AppDeps, principal: Principal, taskId: string, body: MintBody) {
  const row = await getTask(deps, principal, taskId);
  if (row.archived || !OPEN.includes(row.status))
    throw new AppError('LINK_TASK_CLOSED', `The task is ${row.status}${row.result ? ` (${row.result})` : ''}`);
  const userId = body.userId ?? row.assignee ?? principal.userId;
  if (row.status !== 'active')
    throw new AppError('INVALID_STATE', `The task is ${row.status}: only an active task gets an approval link`);
  if (row.kind !== 'approval')
    throw new AppError('INVALID_STATE', `A ${row.kind} task is not approved or rejected: no approval link`);
  if (principal.userId !== row.assignee && !isAdmin(principal))
    throw new AppError('FORBIDDEN', 'Only the assignee (or workflow:admin, for the assignee) mints approval links');
  if (userId !== row.assignee)
    throw new AppError('INVALID_TARGET', 'An approval link is minted for the task’s assignee', {
      assignee: row.assignee ?? null,
    });
  const actions = [...new Set(body.actions ?? LINK_ACTIONS)];
  // More than the maximum never gets here: the body schema refuses it (400), it is not shortened.
  const ttl = body.ttlSeconds ?? deps.config.APPROVAL_LINK_TTL_SECONDS;
  const id = randomUUID();
  const expiresAt = new Date(Date.now() + ttl * 1000);
  const via = body.via ?? 'email';
  // Signed before the row exists: a missing key (503) leaves nothing behind.
  const token = await signLink(deps.config, { id, tenantId: principal.tenantId, taskId, userId, actions }, expiresAt);
  const [created] = await deps.orm.em.fork().execute<LinkRow[]>(
    `insert into approval_links (id, tenant_id, task_id, instance_id, user_id, actions, channel, created_by, expires_at)
       values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?) returning *`,
    [
      id,
      principal.tenantId,
      taskId,
      row.instance_id,
      userId,
      JSON.stringify(actions),
      via,
      principal.userId,
      expiresAt,
    ],
  );
  return { ...linkView(created), token, path: `${LINK_BASE}/${token}` };
}

/** Who mints the links the service sends itself (the notification dispatcher). */
export const SYSTEM_MINTER = 'system';

/**
 * A link for a message the service sends (docs/channels.md): for `userId`, if they are the
 * assignee of the active approval task now; else null (the message goes without Approve / Reject).
 * A resend passes the link it minted before (`reuse`): while that link is usable its token is
 * signed again, so a message delivered twice carries one link, not two.
 */
export async function mintSystemLink(
  deps: Pick<AppDeps, 'config' | 'orm'>,
  opts: { tenantId: string; taskId: string; userId: string; via: string; reuse?: string | null },
): Promise<{ linkId: string; token: string } | null> {
  const em = deps.orm.em.fork();
  const [task] = await em.execute(
    `select instance_id, status, kind, assignee from tasks where tenant_id = ? and id = ? and not deleted`,
    [opts.tenantId, opts.taskId],
  );
  if (!task || task.status !== 'active' || task.kind !== 'approval' || task.assignee !== opts.userId) return null;
  if (opts.reuse) {
    const [row] = await em.execute<LinkRow[]>(`select * from approval_links where id = ? and tenant_id = ?`, [
      opts.reuse,
      opts.tenantId,
    ]);
    if (row && row.task_id === opts.taskId && row.user_id === opts.userId && !goneReason(row)) {
      const claims = {
        id: row.id,
        tenantId: opts.tenantId,
        taskId: opts.taskId,
        userId: opts.userId,
        actions: row.actions,
      };
      return { linkId: row.id, token: await signLink(deps.config, claims, new Date(row.expires_at)) };
    }
  }
  const id = randomUUID();
  const actions = [...LINK_ACTIONS];
  const expiresAt = new Date(Date.now() + deps.config.APPROVAL_LINK_TTL_SECONDS * 1000);
  const token = await signLink(deps.config, { id, ...opts, actions }, expiresAt);
  await em.execute(
    `insert into approval_links (id, tenant_id, task_id, instance_id, user_id, actions, channel, created_by, expires_at)
       values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)`,
    [
      id,
      opts.tenantId,
      opts.taskId,
      task.instance_id,
      opts.userId,
      JSON.stringify(actions),
      opts.via,
      SYSTEM_MINTER,
      expiresAt,
    ],
  );
  return { linkId: id, token };
}

async function linkOfTask(deps: AppDeps, principal: Principal, taskId: string, linkId: string) {
  await getTask(deps, principal, taskId);
  const [row] = await deps.orm.em
    .fork()
    .execute<LinkRow[]>(`select * from approval_links where tenant_id = ? and task_id = ? and id = ?`, [
      principal.tenantId,
      taskId,
      linkId,
    ]);
  if (!row) throw new AppError('NOT_FOUND', `No approval link ${linkId} on task ${taskId}`);
  return row;
}

/** The links of a task: the caller's own, or all of them for workflow:admin. Tokens are never shown again. */
export async function listLinks(deps: AppDeps, principal: Principal, taskId: string) {
  await getTask(deps, principal, taskId);
  const rows = await deps.orm.em.fork().execute<LinkRow[]>(
    `select * from approval_links where tenant_id = ? and task_id = ? and (?::boolean or user_id = ? or created_by = ?)
       order by created_at, id`,
    [principal.tenantId, taskId, isAdmin(principal), principal.userId, principal.userId],
  );
  return rows.map(linkView);
}

/** Revokes an unused link (its user, who minted it, or workflow:admin); revoking again answers the same. */
export async function revokeLink(deps: AppDeps, principal: Principal, taskId: string, linkId: string) {
  const row = await linkOfTask(deps, principal, taskId, linkId);
  if (row.user_id !== principal.userId && row.created_by !== principal.userId && !isAdmin(principal))
    throw new AppError('FORBIDDEN', 'Only the link’s user, who minted it, or workflow:admin revokes it');
  const [revoked] = await deps.orm.em
    .fork()
    .execute<LinkRow[]>(
      `update approval_links set revoked_at = now(), revoked_by = ? where id = ? and used_at is null and revoked_at is null returning *`,
      [principal.userId, linkId],
    );
  if (revoked) return linkView(revoked);
  const [now] = await deps.orm.em.fork().execute<LinkRow[]>(`select * from approval_links where id = ?`, [linkId]);
  if (now.used_at) throw new AppError('INVALID_STATE', 'The link was already used');
  return linkView(now);
}

/** 410 with the reason a link can no longer be used, or nothing. */
function goneReason(row: LinkRow): string | null {
  if (row.used_at) return 'used';
  if (row.revoked_at) return 'revoked';
  if (new Date(row.expires_at).getTime() <= Date.now()) return 'expired';
  if (row.closed_at) return 'closed';
  return null;
}

const gone = (reason: string) =>
  new AppError(
    'LINK_GONE',
    {
      used: 'This approval link was already used',
      revoked: 'This approval link was revoked',
      expired: 'This approval link has expired',
      closed: 'The task of this approval link is closed',
      reassigned: 'The task is no longer with the user of this approval link',
      user_inactive: 'The user of this approval link is deactivated',
    }[reason] ?? 'This approval link can no longer be used',
    { reason },
  );

/** A verified token, its row, and the task it is for, still open and with its user. */
async function openLink(deps: AppDeps, em: EntityManager, token: string) {
  const claims: LinkClaims = await verifyLink(deps.config, token);
  const [row] = await em.execute<LinkRow[]>(`select * from approval_links where id = ? and tenant_id = ?`, [
    claims.id,
    claims.tenantId,
  ]);
  if (!row || row.task_id !== claims.taskId || row.user_id !== claims.userId) throw new AppError('LINK_INVALID');
  const reason = goneReason(row);
  if (reason) throw gone(reason);
  const [task] = await em.execute(
    `select t.*, i.process_key as i_process_key, i.variables as i_variables, i.start_time as i_start_time
     from tasks t join instances i on i.id = t.instance_id where t.tenant_id = ? and t.id = ? and not t.deleted`,
    [claims.tenantId, claims.taskId],
  );
  // Invalidated when the task closes: checked here too, whatever the projection marked.
  if (!task || !OPEN.includes(task.status)) throw gone('closed');
  if (task.assignee !== row.user_id) throw gone('reassigned');
  return { claims, row, task };
}

/** What the link's page shows: the task, its instance and the fields its node does not hide. */
export async function viewLink(deps: AppDeps, token: string) {
  const { row, task } = await openLink(deps, deps.orm.em.fork(), token);
  const perms = (task.form_permissions ?? {}) as Record<string, string>;
  const variables = Object.fromEntries(
    Object.entries((task.i_variables ?? {}) as Record<string, unknown>).filter(([k]) => perms[k] !== 'h'),
  );
  return {
    linkId: row.id,
    userId: row.user_id,
    actions: row.actions,
    expiresAt: iso(row.expires_at)!,
    task: {
      id: task.id as string,
      name: task.name as string,
      activityId: task.activity_id as string,
      status: task.status as string,
      createTime: iso(task.create_time)!,
      dueDate: iso(task.due_date),
    },
    instance: {
      id: task.instance_id as string,
      processKey: task.process_key as string,
      processName: task.process_name as string,
      businessKey: (task.business_key as string | null) ?? null,
      initiatorId: task.initiator_id as string,
      startTime: iso(task.i_start_time)!,
    },
    variables,
  };
}

export interface DecideBody {
  action: LinkAction;
  comment?: string;
}

/**
 * Decides the task as the link's user. The use is claimed by one conditional UPDATE in a
 * transaction that stays open until the decision is answered: a concurrent use waits for it and
 * then finds the link used (410); a refused or failed decision rolls the use back.
 */
export async function decideLink(deps: AppDeps, token: string, body: DecideBody) {
  const em = deps.orm.em.fork();
  const { claims, row } = await openLink(deps, em, token);
  if (!claims.actions.includes(body.action) || !row.actions.includes(body.action))
    throw new AppError('FORBIDDEN', `This link does not allow ${body.action}`);
  let principal: Principal;
  try {
    principal = await loadPrincipal(em, claims.tenantId, claims.userId);
  } catch {
    throw gone('user_inactive');
  }
  if (!holds(principal.permissions, Permissions.OPERATE))
    throw new AppError('FORBIDDEN', 'Permission required: approval:operate');
  return em.transactional(async (tx) => {
    const [won] = await tx.execute<LinkRow[]>(
      `update approval_links set used_at = now(), used_action = ?
       where id = ? and used_at is null and revoked_at is null and closed_at is null and expires_at > now() returning *`,
      [body.action, row.id],
    );
    if (!won) {
      const [now] = await tx.execute<LinkRow[]>(`select * from approval_links where id = ?`, [row.id]);
      throw gone(goneReason(now) ?? 'used');
    }
    const def = body.action === 'approve' ? m.approve : m.reject;
    const result = await taskAction(
      deps,
      principal,
      claims.taskId,
      def,
      { comment: body.comment, link: { id: row.id, via: row.channel } },
      `link-${row.id}`,
    );
    return { linkId: row.id, action: body.action, ...result };
  });
}
