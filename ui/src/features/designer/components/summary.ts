// One line under a card's name saying what the step does, from its canonical settings.
import { t } from '../i18n';
import type { Node } from '../model/doc';
import { canonicalConfig } from '../model/edit';

const list = (ids: unknown) => (Array.isArray(ids) && ids.length ? ids.join(', ') : '—');

export function summary(node: Node): string {
  const f = t.designer.f;
  const c: any = node.configuration ?? {};
  switch (node.type) {
    case 'userTask': {
      const u = canonicalConfig(node);
      const a = u.approver ?? {};
      const who =
        a.type === 'user'
          ? list(a.userIds)
          : a.type === 'role'
            ? `${f.roles}: ${list(a.roleIds)}`
            : a.type === 'dept'
              ? `${f.depts}: ${list(a.deptIds)}`
              : a.type === 'manager' || a.type === 'multiLevelManager'
                ? `${f.approverTypes[a.type]} (${a.levels ?? 1})`
                : (f.approverTypes[a.type] ?? String(a.type ?? '—'));
      return `${who} · ${f.approveModes[u.approveMode] ?? u.approveMode}`;
    }
    case 'ccTask':
      return c.selfSelect ? f.selfSelect : list(c.ccUserIds);
    case 'serviceTask':
      return c.functionName || f.pickFunction;
    case 'httpCall':
      return `${c.method ?? 'GET'} ${c.url || '—'}`;
    case 'aiAgent': {
      const mode = c.async ? 'async' : c.decision ? 'decides' : 'reference';
      return `${c.agentId || f.pickAgent} · ${f.aiModes[mode]}`;
    }
    case 'delay':
      return typeof c.delayMs === 'number' ? `${Math.round(c.delayMs / 1000)} s` : String(c.delayMs ?? '');
    case 'subProcess':
      return c.targetId || '—';
    case 'automation':
      return `${c.targetId || f.pickChain}${c.wait === false ? ` · ${f.noWait}` : ''}`;
    default:
      return '';
  }
}
