// "Why am I the approver" (assignment-reason.ts) in the reader's language, said again from the
// reason's kind and fields — never from its English text. A reason recorded before kinds existed
// (`recorded`) keeps its words. Pure.
import type { AssignmentReason } from './assignment-reason.js';

const count = (n: number | null) => (n === null ? '' : `（${n} 人）`);

function zhCN(r: AssignmentReason): string {
  const ids = r.ids.join('、');
  switch (r.kind) {
    case 'user':
      return '流程中指定的审批人';
    case 'initiatorSelect':
      return '由发起人自选';
    case 'initiatorSelf':
      return '发起人本人';
    case 'role':
      return `角色 ${ids}${count(r.count)}`;
    case 'dept':
      return `部门 ${ids}${count(r.count)}`;
    case 'manager':
    case 'multiLevelManager':
      return `${r.ids[0] ?? '发起人'} 的主管${r.level === null ? '' : `（第 ${r.level} 级）`}`;
    case 'selfApproval':
      return `代发起人 ${r.by ?? ''} 审批${r.rule ? `（${r.rule}）` : ''}`;
    case 'fallback':
      return `兜底审批：原规则${r.rule ? ` ${r.rule} ` : ''}未找到审批人`;
    case 'delegated':
      return `${r.by ?? ''} 委派`;
    case 'transferred':
      return `${r.by ?? ''} 转交`;
    case 'reassigned':
      return `${r.by ?? ''} 重新分配`;
    case 'addSign':
      return `${r.by ?? ''} 加签`;
    default:
      return r.text;
  }
}

/** The reason's `text` in `locale` (English: as stored). */
export function reasonTextIn(locale: string, reason: AssignmentReason): string {
  return locale === 'zh-CN' ? zhCN(reason) : reason.text;
}

/** The reason with its `text` in `locale`; every other field as it is. */
export function reasonIn<R extends AssignmentReason | null>(locale: string, reason: R): R {
  return (reason ? { ...reason, text: reasonTextIn(locale, reason) } : reason) as R;
}
