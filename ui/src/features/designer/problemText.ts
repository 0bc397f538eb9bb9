// A validation problem in the console's language: from its code and params (dsl/problems.zh-CN.ts),
// else the words it came with (the server's, already in this language; the designer's own, from the catalogue).
// A few codes whose API words name keys (`userIds`, CEL's `double > string`) get the designer's
// own words here, and a problem's field is named as the panel labels it, not by its JSON path.
import { conditionErrorIn, problemMessageIn } from '@dsl/problems.zh-CN.js';
import { messageOf } from '@dsl/problems.js';
import { t } from './i18n';
import { locale } from '../../i18n/locale';
import type { Doc } from './model/doc';
import type { DesignProblem } from './model/problems';

export function problemText(p: Pick<DesignProblem, 'code' | 'params' | 'message'>): string {
  const params = p.params ?? {};
  if (p.code === 'approver.idsRequired' && typeof params.type === 'string') {
    const words = t.designer.problemWords.idsRequired[params.type];
    if (words) return words;
  }
  if (locale !== 'zh-CN' && p.code === 'condition.invalid' && typeof params.error === 'string')
    return messageOf('condition.invalid', {
      ...params,
      error: conditionErrorIn(locale, params.error, typeof params.suggestion === 'string'),
    });
  return problemMessageIn(locale, p);
}

/** The words of the last key of a path, as the panels label it. */
function keyWords(): Record<string, string> {
  const f = t.designer.f;
  return {
    name: f.name,
    id: f.key,
    category: f.category,
    description: f.description,
    formType: f.formType,
    formKey: f.formKey,
    formUrl: f.formUrl,
    fields: f.fields,
    approver: f.approverType,
    type: f.approverType,
    userIds: f.users,
    roleIds: f.roles,
    deptIds: f.depts,
    levels: f.levels,
    expression: f.expression,
    approveMode: f.approveMode,
    voteRule: f.voteRule,
    value: f.voteValue,
    selfApproval: f.selfApproval,
    emptyApproverPolicy: f.emptyApprover,
    dueInMinutes: f.dueInMinutes,
    timeout: f.timeout,
    strategy: f.reject,
    reject: f.reject,
    target: f.rejectTarget,
    targetNodeId: f.rejectTarget,
    taskName: f.taskName,
    cases: f.cases,
    functionName: f.functionName,
    param: f.param,
    url: f.url,
    method: f.method,
    headers: f.headers,
    body: f.body,
    timeoutMs: f.timeoutMs,
    reservedKey: f.reservedKey,
    allowedHosts: f.allowedHosts,
    agentId: f.agentId,
    customPrompt: f.customPrompt,
    timeoutSec: f.timeoutSec,
    skills: f.skills,
    delayMs: f.delayMs,
    targetId: f.targetId,
    ccUsers: f.ccUsers,
    actionPermissions: f.switches,
    formPermissions: f.permissions,
  };
}

/**
 * A problem's field as the user sees it (`configuration.cases[0].case` → "Condition of case 1",
 * `…fields[2].options` → the field's label); null for a path the panels have no words for.
 */
export function problemField(field: string | null | undefined, doc?: Doc): string | null {
  if (!field) return null;
  const caseAt = /cases\[(\d+)\]\.(case|then)$/.exec(field);
  if (caseAt) {
    const i = Number(caseAt[1]) + 1;
    return caseAt[2] === 'case' ? t.designer.f.caseExpr(i) : t.designer.caseLabel(i);
  }
  const formField = /fields\[(\d+)\]/.exec(field);
  if (formField) {
    const fields = (doc?.ruleChain as { additionalInfo?: { form?: { fields?: unknown } } } | undefined)?.additionalInfo
      ?.form?.fields;
    const spec = Array.isArray(fields) ? (fields[Number(formField[1])] as { name?: unknown; label?: unknown }) : null;
    const label =
      (typeof spec?.label === 'string' && spec.label) ||
      (typeof spec?.name === 'string' && spec.name) ||
      String(Number(formField[1]) + 1);
    return t.designer.problemWords.formField(label);
  }
  const keys = field
    .replace(/\[\d+\]/g, '')
    .split('.')
    .filter((k) => k !== 'configuration' && k !== 'additionalInfo' && k !== 'ruleChain');
  const words = keyWords();
  for (let i = keys.length - 1; i >= 0; i--) if (Object.hasOwn(words, keys[i])) return words[keys[i]];
  return null;
}

/** A step as the user sees it: its name, else its kind; the process settings for none. */
export function stepName(nodeId: string | null | undefined, doc?: Doc): string {
  if (!nodeId) return t.designer.processSettings;
  const node = (
    doc?.metadata as { nodes?: Array<{ id: string; type?: string; name?: string }> } | undefined
  )?.nodes?.find((n) => n.id === nodeId);
  if (!node) return nodeId;
  return node.name?.trim() || t.designer.types[node.type ?? ''] || node.id;
}
