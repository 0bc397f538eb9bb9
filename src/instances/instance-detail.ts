// The caller-specific parts of an instance's detail: the form with their field permissions,
// and the actions they may take now.
import type { Principal } from '../context.js';
import type { Actor } from '../../workflows/messages.js';
import { holds, Permissions } from '../permissions.js';

export { formFor } from '../read-model/form-view.js';

const taskActions = [
  'approve',
  'reject',
  'return',
  'transfer',
  'delegate',
  'addSign',
  'reduceSign',
  'comment',
] as const;

/** Action names the caller may take now (`permissions` in docs/contract.md#instance). */
export function allowedActions(
  def: { dsl: any } | null,
  row: any,
  actor: Actor,
  principal: Principal,
  openTasks: any[],
): string[] {
  const out = new Set<string>();
  const live = row.status === 'active' || row.status === 'suspended' || row.status === 'failed';
  const processSwitches: Record<string, boolean> = def?.dsl?.ruleChain?.additionalInfo?.actionPermissions ?? {};
  const allowed = (name: string, node?: Record<string, boolean> | null) =>
    processSwitches[name] !== false && node?.[name] !== false;
  const operate = holds(principal.permissions, Permissions.OPERATE);
  if (row.status === 'active' && operate) {
    for (const t of openTasks) {
      const sw: Record<string, boolean> | null = t.action_permissions;
      if (t.status === 'active' && t.assignee === actor.userId) {
        if (t.kind === 'approval')
          for (const a of taskActions)
            if (a === 'approve' || a === 'reject' || allowed(a === 'comment' ? 'addComment' : a, sw)) out.add(a);
        if (t.kind === 'handle') out.add('complete').add('comment');
        if (t.kind === 'resubmit') {
          out.add('comment');
          if (allowed('resubmit', sw)) out.add('complete').add('approve');
        }
        if (t.owner) out.add('resolve');
      }
      if (t.status === 'active' && t.owner === actor.userId) out.add('resolve');
      if (t.status === 'pending') {
        const c = t.candidates ?? {};
        if (
          c.userIds?.includes(actor.userId) ||
          c.roleIds?.some((r: string) => actor.roles.includes(r)) ||
          (actor.deptId && c.deptIds?.includes(actor.deptId))
        )
          out.add('claim');
      }
      if (
        t.status === 'active' &&
        t.assignee === actor.userId &&
        (t.candidates?.userIds?.length || t.candidates?.roleIds?.length || t.candidates?.deptIds?.length)
      )
        out.add('unclaim');
    }
  }
  const initiator = row.initiator_id === actor.userId;
  if (live && initiator && allowed('withdraw')) out.add('withdraw');
  if (row.status === 'active' && (initiator || actor.monitor) && allowed('urge')) out.add('urge');
  if (row.status === 'active' && ((initiator && allowed('suspend')) || actor.manage)) out.add('suspend');
  if (row.status === 'suspended' && ((initiator && allowed('suspend')) || actor.manage)) out.add('activate');
  if (live && actor.manage && allowed('terminate')) out.add('terminate');
  return [...out];
}
