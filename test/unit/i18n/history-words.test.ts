// The engine's trail entries and an instance's ending are codes and params (dsl/history.ts,
// dsl/ending.ts); the console words them in the reader's language (ui/src/features/instance/history.ts),
// the API's `endReason` in the caller's (instanceIn, src/instances/instances.routes.ts), and neither parses English sentences.
import { describe, expect, it } from 'vitest';
import { HISTORY_CODES, historyComment, isHistoryCode, said } from '../../../dsl/history.js';
import { en } from '../../../ui/src/i18n/en.js';
import { zhCN } from '../../../ui/src/i18n/zh-CN.js';
import { commentOf, endText, historyText, whyText } from '../../../ui/src/features/instance/history.js';
import { ENDING_CODES, ending, endingText, isEndingCode } from '../../../dsl/ending.js';
import { zhCNEndings } from '../../../dsl/ending.zh-CN.js';
import { instanceIn } from '../../../src/instances/instances.routes.js';

const names: Record<string, string> = { mgr: '经理审批', hr: 'HR审批', a: '分支甲', b: '分支乙' };
const nameOf = (id: string) => names[id] ?? id;

describe('history codes', () => {
  it('every code has a sentence in each console catalogue, and nothing more', () => {
    expect(Object.keys(en.history).sort()).toEqual([...HISTORY_CODES].sort());
    expect(Object.keys(zhCN.history).sort()).toEqual([...HISTORY_CODES].sort());
    expect(isHistoryCode('reject.backTo')).toBe(true);
    expect(isHistoryCode('toString')).toBe(false);
  });

  it('keeps the English comment word for word as the engine wrote it before codes (API compatibility)', () => {
    expect(historyComment('autoApprove.selfApproval', {})).toBe(
      'Approved automatically: the approver is the initiator (selfApproval autoApprove)',
    );
    expect(historyComment('reject.backTo', { target: 'mgr', strategy: 'toPrev' })).toBe(
      'Rejected: back to mgr (toPrev)',
    );
    expect(historyComment('instance.redriven', { actor: 'admin', nodes: ['a'], reason: 'fixed' })).toBe(
      'Re-driven by admin: a runs again: fixed',
    );
    expect(historyComment('instance.redriven', { actor: 'admin', nodes: [], reason: null })).toBe(
      'Re-driven by admin: the failed node run again',
    );
    expect(said('httpCall.status', { status: 502 })).toEqual({
      code: 'httpCall.status',
      params: { status: 502 },
      comment: 'HTTP call answered 502',
    });
  });

  it('words an entry from its code in the reader language, node ids as their names', () => {
    const back = { type: 'system', ...said('reject.backTo', { target: 'mgr', strategy: 'toPrev' }) };
    expect(historyText(back, zhCN, nameOf)).toBe('已驳回：流程退回到“经理审批”。');
    expect(historyText(back, en, nameOf)).toBe('Rejected: the flow goes back to 经理审批.');
    const fork = { type: 'system', ...said('fork.branches', { branches: ['a', 'b'] }) };
    expect(historyText(fork, zhCN, nameOf)).toBe('并行分支：分支甲和分支乙。');
    expect(historyText(fork, en, nameOf)).toBe('Parallel branches: 分支甲 and 分支乙.');
    const self = { type: 'auto_approve', ...said('autoApprove.selfApproval', {}) };
    expect(historyText(self, zhCN)).toBe('审批人即发起人，已自动同意。');
    const repeat = said('autoApprove.repeated', { nodeId: 'mgr', nodeName: '经理审批', setting: 'all' });
    expect(historyText({ type: 'auto_approve', ...repeat }, zhCN)).toBe('已在“经理审批”审批同意过，本节点自动同意。');
  });

  it('an entry without a code (older histories, a person) shows its comment as written; a person reason on a coded entry is kept', () => {
    const old = { type: 'system', comment: 'Rejected: back to mgr (toPrev)' };
    expect(historyText(old, zhCN)).toBeNull();
    expect(commentOf(old)).toBe('Rejected: back to mgr (toPrev)');
    const unknown = { type: 'system', code: 'some.futureCode', params: {}, comment: 'Future words' };
    expect(historyText(unknown, zhCN)).toBeNull();
    expect(commentOf(unknown)).toBe('Future words');
    const redrive = {
      type: 'system',
      ...said('instance.redriven', { actor: 'admin', nodes: ['mgr'], reason: '目录已修复' }),
    };
    expect(historyText(redrive, zhCN, nameOf)).toBe('admin 重新驱动了流程实例：经理审批 重新执行。');
    expect(commentOf(redrive)).toBe('目录已修复');
    expect(commentOf({ type: 'system', ...said('task.overdue', {}) })).toBeNull();
  });
});

describe('why this approver', () => {
  const why = (kind: string, fields: Record<string, unknown> = {}) => ({
    reason: 'English words no one parses',
    why: { kind, ids: [], count: null, level: null, by: null, rule: null, policy: null, reason: null, ...fields },
  });

  it('says the recorded rule in each language, from its structure', () => {
    expect(whyText(why('manager', { ids: ['alice'], level: 1 }), zhCN)).toBe('alice 的直属主管');
    expect(whyText(why('multiLevelManager', { ids: ['alice'], level: 2 }), en)).toBe('level 2 manager of alice');
    expect(whyText(why('role', { ids: ['finance'], count: 3 }), zhCN)).toBe('角色 finance 的成员（任务池）');
    expect(whyText(why('dept', { ids: ['d1'] }), en)).toBe('member of the department pool d1');
    expect(whyText(why('user', { reason: 'first to claim decides' }), zhCN)).toBe('多人可审批：先认领者审批');
    expect(whyText(why('user'), zhCN)).toBe('流程中指定的审批人');
    expect(whyText(why('initiatorSelect'), en)).toBe('chosen by the initiator');
    expect(whyText(why('initiatorSelf'), zhCN)).toBe('发起人本人审批');
    expect(whyText(why('selfApproval', { by: 'bob' }), zhCN)).toBe('代发起人 bob 审批');
    expect(whyText(why('resubmit', { ids: ['mgr'] }), zhCN)).toBe('驳回给发起人，发起人可重新提交');
    expect(whyText(why('fallback', { policy: 'tenant_admin', reason: 'x' }), zhCN)).toBe(
      '未找到审批人（x）：由租户管理员审批',
    );
    expect(whyText(why('fallback', { policy: 'park', reason: 'x' }), zhCN)).toBe('未找到审批人（x）：等待管理员处理');
    expect(whyText(why('fallback', { policy: 'auto_approve', reason: 'x' }), en)).toBe(
      'no approver found (x): approved automatically',
    );
  });

  it('an older entry without a recorded rule shows its words as written', () => {
    expect(whyText({ reason: 'user: listed in userIds' }, zhCN)).toBe('user: listed in userIds');
    expect(whyText(null, zhCN)).toBeNull();
  });
});

describe('ending codes (why an instance ended)', () => {
  it('every code has a sentence in each console catalogue and in the API words, and nothing more', () => {
    const codes = [...ENDING_CODES].sort();
    expect(codes).toEqual([
      'end.aiRejected',
      'end.completed',
      'end.rejected',
      'end.subProcess',
      'end.terminated',
      'end.withdrawn',
    ]);
    expect(Object.keys(en.ending).sort()).toEqual(codes);
    expect(Object.keys(zhCN.ending).sort()).toEqual(codes);
    expect(Object.keys(zhCNEndings).sort()).toEqual(codes);
    expect(isEndingCode('end.rejected')).toBe(true);
    expect(isEndingCode('reject.backTo')).toBe(false);
    expect(isEndingCode('constructor')).toBe(false);
  });

  it('keeps the English endReason word for word as the engine wrote it before codes (API compatibility)', () => {
    expect(endingText('end.withdrawn', {})).toBe('Withdrawn by applicant');
    expect(endingText('end.terminated', { reason: null })).toBe('Terminated by an administrator');
    expect(endingText('end.terminated', { reason: 'duplicate' })).toBe('Terminated by an administrator: duplicate');
    expect(endingText('end.completed', { reason: null })).toBe('Completed by an administrator');
    expect(endingText('end.completed', { reason: 'paid' })).toBe('Completed by an administrator: paid');
    expect(endingText('end.rejected', { nodeId: 'mgr', nodeName: 'Manager', comment: 'busy week' })).toBe(
      'Rejected at Manager: busy week',
    );
    expect(endingText('end.rejected', { nodeId: 'mgr', nodeName: null, comment: null })).toBe('Rejected at mgr');
    expect(endingText('end.subProcess', { targetId: 'child', status: 'rejected' })).toBe(
      'Sub-process child ended as rejected',
    );
    expect(endingText('end.aiRejected', { nodeId: 'ai', nodeName: 'AI pre-check' })).toBe(
      'Rejected by the AI pre-review at AI pre-check',
    );
    expect(ending('end.withdrawn', {})).toEqual({ code: 'end.withdrawn', params: {} });
  });

  const ended = (code: string, params: Record<string, unknown>, endReason = 'English words no one parses') => ({
    endReason,
    endCode: code,
    endParams: params,
  });

  it('the console words the ending in the reader language: node names, statuses in words, a person’s words as written', () => {
    const rejected = ended('end.rejected', { nodeId: 'mgr', nodeName: null, comment: '预算不足' });
    expect(endText(rejected, zhCN, nameOf)).toBe('在“经理审批”被驳回：预算不足');
    expect(endText(rejected, en, nameOf)).toBe('Rejected at 经理审批: 预算不足');
    const named = ended('end.rejected', { nodeId: 'mgr', nodeName: '部门经理', comment: null });
    expect(endText(named, zhCN, nameOf)).toBe('在“部门经理”被驳回');
    expect(endText(ended('end.withdrawn', {}), zhCN)).toBe('申请人已撤回');
    expect(endText(ended('end.terminated', { reason: '重复提交' }), zhCN)).toBe('管理员已终止：重复提交');
    expect(endText(ended('end.completed', { reason: null }), en)).toBe('Completed by an administrator');
    expect(endText(ended('end.subProcess', { targetId: 'child', status: 'rejected' }), zhCN)).toBe(
      '子流程 child 以“已驳回”结束',
    );
    expect(endText(ended('end.subProcess', { targetId: 'child', status: 'rejected' }), en)).toBe(
      'Sub-process child ended: Rejected',
    );
  });

  it('an instance that ended before codes (or with a code this console does not know) shows its words as written', () => {
    expect(endText({ endReason: 'Rejected at Manager' }, zhCN)).toBe('Rejected at Manager');
    expect(endText({ endReason: 'Future words', endCode: 'end.future', endParams: {} }, zhCN)).toBe('Future words');
    expect(endText({ endReason: null, endCode: null, endParams: null }, zhCN)).toBeNull();
  });

  it('the API says endReason in the caller language; code, params and the English words stay', () => {
    const inst = {
      id: 'i1',
      ...ended(
        'end.rejected',
        { nodeId: 'mgr', nodeName: '经理审批', comment: 'too expensive' },
        'Rejected at 经理审批: too expensive',
      ),
    };
    expect(instanceIn('zh-CN', inst)).toEqual({ ...inst, endReason: '在“经理审批”被驳回：too expensive' });
    expect(instanceIn('en', inst)).toBe(inst);
    const old = { endReason: 'Withdrawn by applicant', endCode: null, endParams: null };
    expect(instanceIn('zh-CN', old)).toBe(old);
    expect(instanceIn('zh-CN', { endReason: null, endCode: null, endParams: null }).endReason).toBeNull();
    for (const code of ENDING_CODES)
      expect(
        instanceIn('zh-CN', ended(code, { nodeId: 'n', targetId: 't', status: 'failed' })).endReason,
        code,
      ).toMatch(/[\u4e00-\u9fff]/);
  });
});
