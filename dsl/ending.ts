// Why an instance ended, as a code and parameters (STYLE.md "Words at the edge, codes in history"),
// like the trail entries the engine writes (history.ts). The engine records the code and params; the
// API words them in the caller's language (src/http/answer-words.ts), the console in the reader's
// (ui/src/i18n). The English `endReason` made here is word for word what the engine wrote before
// codes existed, for API clients and for instances that ended before. Pure code: the workflows, the
// server and the console import it.

/** Every code, with the parameters it carries. Codes are stable: add new ones, never rename. */
export interface EndingParams {
  /** The initiator withdrew the application. */
  'end.withdrawn': Record<string, never>;
  /** An administrator terminated the instance (`reason`: theirs, as they wrote it). */
  'end.terminated': { reason: string | null };
  /** An administrator completed the instance (`reason`: theirs, as they wrote it). */
  'end.completed': { reason: string | null };
  /** Rejected at a node with no way back (`comment`: the rejecting person's, as written). */
  'end.rejected': { nodeId: string; nodeName: string | null; comment: string | null };
  /** The aiAgent node's model rejected and the node's reject strategy ends the instance (`terminate`, no Reject edge). */
  'end.aiRejected': { nodeId: string; nodeName: string | null };
  /** A subProcess node's child instance ended as `status` (not completed) and the node had no Failure edge. */
  'end.subProcess': { targetId: string; status: string };
}

export type EndingCode = keyof EndingParams;

/** An ending as the engine records it. */
export interface Ending<C extends EndingCode = EndingCode> {
  code: C;
  params: EndingParams[C];
}

const english: { [C in EndingCode]: (p: EndingParams[C]) => string } = {
  'end.withdrawn': () => 'Withdrawn by applicant',
  'end.terminated': (p) =>
    p.reason ? `Terminated by an administrator: ${p.reason}` : 'Terminated by an administrator',
  'end.completed': (p) => (p.reason ? `Completed by an administrator: ${p.reason}` : 'Completed by an administrator'),
  'end.rejected': (p) => `Rejected at ${p.nodeName ?? p.nodeId}${p.comment ? `: ${p.comment}` : ''}`,
  'end.aiRejected': (p) => `Rejected by the AI pre-review at ${p.nodeName ?? p.nodeId}`,
  'end.subProcess': (p) => `Sub-process ${p.targetId} ended as ${p.status}`,
};

export const ENDING_CODES = Object.keys(english) as EndingCode[];

export const isEndingCode = (code: unknown): code is EndingCode =>
  typeof code === 'string' && Object.prototype.hasOwnProperty.call(english, code);

/** An ending with its code and params. */
export const ending = <C extends EndingCode>(code: C, params: EndingParams[C]): Ending<C> => ({ code, params });

/** The English words of an ending (what `endReason` held before codes existed). */
export const endingText = <C extends EndingCode>(code: C, params: EndingParams[C]): string => english[code](params);
