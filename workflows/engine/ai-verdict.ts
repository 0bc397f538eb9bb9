// Reading the verdict of an AI pre-review as GFlow does (components/ai_agent_node.go): the last
// `AI_DECISION: PASS|REJECT` line of the model's answer, Chinese equivalents too. Pure.

export type AiVerdict = 'PASS' | 'REJECT' | 'UNRESOLVED';

/** Appended to the prompt when the node routes on the verdict (GFlow's protocol text, in English). */
export const DECISION_PROTOCOL =
  'This request comes from an approval process. After your analysis, the last line of your answer must be the ' +
  'verdict marker on a line of its own, exactly AI_DECISION: PASS or AI_DECISION: REJECT (PASS = let it through, ' +
  'REJECT = refuse it). Keep the rest of your answer in the format you would otherwise use.';

const TOKENS = 'PASS|APPROVE|APPROVED|REJECT|REJECTED|DENY|DENIED|通过|批准|放行|同意|拒绝|驳回';
// Strict: the whole line is the marker (a trailing full stop allowed), so a repeated protocol text
// ("… PASS or AI_DECISION: REJECT") never counts.
const STRICT = new RegExp(`^\\s*AI_DECISION\\s*[:：]\\s*(${TOKENS})\\s*[。.!！]?\\s*$`, 'gim');
// Loose: a line starting with the marker (or 裁决:), skipping lines that name both outcomes.
const LOOSE = new RegExp(`^\\s*(?:AI_DECISION|裁决)\\s*[:：]\\s*(${TOKENS})`, 'i');
const PASS_WORD = /PASS|APPROVE|通过|批准|放行|同意/i;
const REJECT_WORD = /REJECT|DENY|拒绝|驳回/i;

function normalise(token: string): AiVerdict {
  const t = token.trim().toUpperCase();
  if (['PASS', 'APPROVE', 'APPROVED', '通过', '批准', '放行', '同意'].includes(t)) return 'PASS';
  if (['REJECT', 'REJECTED', 'DENY', 'DENIED', '拒绝', '驳回'].includes(t)) return 'REJECT';
  return 'UNRESOLVED';
}

/** The verdict of the last marker line; UNRESOLVED when there is none. */
export function extractVerdict(output: string): AiVerdict {
  const strict = [...output.matchAll(STRICT)];
  if (strict.length) return normalise(strict[strict.length - 1][1]);
  let last: string | null = null;
  for (const line of output.split('\n')) {
    const m = LOOSE.exec(line);
    if (m && !(PASS_WORD.test(line) && REJECT_WORD.test(line))) last = m[1];
  }
  return last ? normalise(last) : 'UNRESOLVED';
}

/** The model's answer without its marker lines, shortened for the trail and the next approver. */
export function summaryOf(output: string, max = 500): string {
  const text = output
    .split('\n')
    .filter((line) => !/^\s*(?:AI_DECISION|裁决)\s*[:：]/i.test(line))
    .join('\n')
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
