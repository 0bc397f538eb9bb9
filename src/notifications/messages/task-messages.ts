// The three messages about a task waiting for the recipient — assigned to them, open for claiming in a
// pool of theirs, overdue — differ only in their words: one definition.
import { FACTS_WITH_REASON } from './common.js';
import type { MessageDefinition } from './types.js';

const TASK = '{{ task.name | default: payload.name }}';

function taskMessage(
  kind: MessageDefinition['kind'],
  decision: boolean,
  words: Record<'en' | 'zh-CN', { title: string; intro: string }>,
  facts?: string,
): MessageDefinition {
  const withFacts = (w: { title: string; intro: string }) => (facts ? { ...w, facts } : w);
  return { kind, decision, words: { en: withFacts(words.en), 'zh-CN': withFacts(words['zh-CN']) } };
}

/** task_assigned: a task is now the recipient's to decide (a new task, a transfer, a delegation, …). */
export const taskAssigned = taskMessage(
  'task_assigned',
  true,
  {
    en: { title: `Approval needed: ${TASK}`, intro: '{{ instance.initiator }} asks for your decision.' },
    'zh-CN': { title: `待审批：${TASK}`, intro: '{{ instance.initiator }} 提交的申请等待您审批。' },
  },
  FACTS_WITH_REASON,
);

/** task_claimable: a task waits in a pool the recipient belongs to; the first to claim it decides. */
export const taskClaimable = taskMessage(
  'task_claimable',
  false,
  {
    en: {
      title: `Open for claiming: ${TASK}`,
      intro: 'A task is waiting in a pool you belong to: claim it in the console to decide it.',
    },
    'zh-CN': { title: `可认领：${TASK}`, intro: '您所在的候选组有一项待认领的任务，请在控制台认领后审批。' },
  },
  FACTS_WITH_REASON,
);

/** task_overdue: a task's due date passed and its node reminds. */
export const taskOverdue = taskMessage('task_overdue', true, {
  en: { title: `Overdue: ${TASK}`, intro: 'This task is past its due date and still waits for a decision.' },
  'zh-CN': { title: `已超期：${TASK}`, intro: '该任务已超过截止时间，仍在等待处理。' },
});
