// Why an instance ended (ending.ts) in Simplified Chinese, said from the same code and params; a
// reason or comment a person wrote stays as they wrote it. The API's `endReason` for a zh-CN caller
// (src/http/answer-words.ts). A unit test keeps the codes in step with ending.ts. Pure code.
import type { EndingCode, EndingParams } from './ending.js';

/** The instance statuses a child instance can end with, in Chinese (others are shown as written). */
const STATUS: Record<string, string> = {
  completed: '已完成',
  rejected: '已驳回',
  terminated: '已终止',
  failed: '异常',
};

const after = (words: string | null) => (words ? `：${words}` : '');

export const zhCNEndings: { [C in EndingCode]: (p: EndingParams[C]) => string } = {
  'end.withdrawn': () => '申请人已撤回',
  'end.terminated': (p) => `管理员已终止${after(p.reason)}`,
  'end.completed': (p) => `管理员已直接办结${after(p.reason)}`,
  'end.rejected': (p) => `在“${p.nodeName ?? p.nodeId}”被驳回${after(p.comment)}`,
  'end.aiRejected': (p) => `在“${p.nodeName ?? p.nodeId}”被 AI 预审驳回`,
  'end.subProcess': (p) => `子流程 ${p.targetId} 以“${STATUS[p.status] ?? p.status}”结束`,
};
