// The words of the approval-link page (./link-page.ts), in each language a recipient may have.
import type { Locale } from '../locales.js';

export interface PageWords {
  lang: string;
  facts: { process: string; businessKey: string; initiator: string; task: string; created: string; due: string };
  approve: string;
  reject: string;
  commentOptional: string;
  reasonRequired: string;
  giveReason: string;
  notAllowed: string;
  footer: (until: string) => string;
  gone: Record<string, [title: string, text: string]>;
  invalid: [string, string];
  cannot: string;
  failed: [string, string];
  tooLong: [string, string];
  tooMany: [string, string];
  choose: [string, string];
  done: (approved: boolean, task: string, process: string) => [string, string];
}

export const PAGE_WORDS: Record<Locale, PageWords> = {
  en: {
    lang: 'en',
    facts: {
      process: 'Process',
      businessKey: 'Business key',
      initiator: 'Initiator',
      task: 'Task',
      created: 'Created',
      due: 'Due',
    },
    approve: 'Approve',
    reject: 'Reject',
    commentOptional: 'Comment (optional)',
    reasonRequired: 'Reason for rejecting (required)',
    giveReason: 'Give a reason for rejecting.',
    notAllowed: 'This link does not allow that decision.',
    footer: (until) => `Nothing happens until you press the button. The link works once, and until ${until}.`,
    gone: {
      used: [
        'This link was already used',
        'A decision was already made with this link. Nothing more is needed from it.',
      ],
      revoked: ['This link was revoked', 'Open the task in the approval console instead.'],
      expired: ['This link has expired', 'Open the task in the approval console instead.'],
      closed: [
        'This task is closed',
        'The task was already decided, withdrawn or cancelled: nothing is left to decide.',
      ],
      reassigned: [
        'This task is now with someone else',
        'The task was moved to another approver, so this link no longer works.',
      ],
      user_inactive: ['This link cannot be used', 'The account this link was made for is deactivated.'],
    },
    invalid: [
      'This link is not valid',
      'Check that the whole link was opened, or open the task in the approval console.',
    ],
    cannot: 'This cannot be done now',
    failed: ['Something went wrong', 'Nothing was decided. Try again in a moment.'],
    tooLong: ['Too much text', 'Shorten the comment and try again.'],
    tooMany: ['Too many attempts', 'Wait a minute, then open the link again.'],
    choose: ['Choose a decision', 'Open the link again and press Approve or Reject.'],
    done: (approved, task, process) => {
      const word = approved ? 'Approved' : 'Rejected';
      return [word, `${word}: “${task}” of ${process}. Thank you — you can close this page.`];
    },
  },
  'zh-CN': {
    lang: 'zh-CN',
    facts: {
      process: '流程',
      businessKey: '业务编号',
      initiator: '发起人',
      task: '任务',
      created: '创建时间',
      due: '截止时间',
    },
    approve: '同意',
    reject: '驳回',
    commentOptional: '审批意见（选填）',
    reasonRequired: '驳回理由（必填）',
    giveReason: '请填写驳回理由。',
    notAllowed: '此链接不允许该操作。',
    footer: (until) => `点击按钮后才会生效。此链接只能使用一次，有效期至 ${until}。`,
    gone: {
      used: ['此链接已被使用', '已经通过此链接做出了决定，无需再次操作。'],
      revoked: ['此链接已被撤销', '请在审批控制台中处理该任务。'],
      expired: ['此链接已过期', '请在审批控制台中处理该任务。'],
      closed: ['该任务已结束', '该任务已被处理、撤回或取消，无需再做决定。'],
      reassigned: ['该任务已转给他人', '该任务已转交给其他审批人，此链接已失效。'],
      user_inactive: ['此链接无法使用', '此链接所属的账号已停用。'],
    },
    invalid: ['此链接无效', '请确认打开的是完整链接，或在审批控制台中处理该任务。'],
    cannot: '当前无法执行此操作',
    failed: ['出现错误', '未做任何决定，请稍后重试。'],
    tooLong: ['内容过长', '请缩短意见后重试。'],
    tooMany: ['尝试次数过多', '请稍候一分钟再打开链接。'],
    choose: ['请选择操作', '请重新打开链接，点击同意或驳回。'],
    done: (approved, task, process) => {
      const word = approved ? '已同意' : '已驳回';
      return [word, `${word}：${process} 的“${task}”。谢谢，您可以关闭此页面。`];
    },
  },
};
