// The validation problems (problems.ts) in Simplified Chinese, made from the same code and params.
// Where the words come from a library (CEL's error, RE2's, a schema's issue), they stay as the
// library wrote them. A unit test keeps the codes in step with problems.ts. Pure code.
import type { ProblemCode, ProblemParams, Suggestion } from './problems.js';

const oneOf = (values: readonly string[]) => {
  const quoted = values.map((v) => `“${v}”`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join('、')}或${quoted[quoted.length - 1]}` : (quoted[0] ?? '');
};

type Messages = { [C in ProblemCode]: (p: ProblemParams<C>) => string };

/** Form field types as the designer names them in Chinese. */
export const FIELD_TYPES_ZH: Record<string, string> = {
  text: '文本',
  textarea: '多行文本',
  number: '数字',
  money: '金额',
  date: '日期',
  datetime: '日期时间',
  select: '单选',
  'multi-select': '多选',
  user: '人员',
  department: '部门',
  boolean: '是/否',
  attachment: '附件',
  array: '列表',
  object: '对象',
};
const fieldTypeZh = (type: string) => FIELD_TYPES_ZH[type] ?? type;

const APPROVER_KINDS: Record<string, string> = { user: '人员', role: '角色', dept: '部门' };

const didYouMean = (p: Suggestion) =>
  p.suggestion
    ? `——是不是 msg.${p.suggestion}${p.suggestionLabel && p.suggestionLabel !== p.suggestion ? `（${p.suggestionLabel}）` : ''}？`
    : '';

// CEL's types and its common errors in words (the compiler's own words otherwise).
const CEL_TYPES: Record<'en' | 'zh-CN', Record<string, string>> = {
  en: {
    double: 'a number',
    int: 'a whole number',
    uint: 'a whole number',
    string: 'text',
    bool: 'yes/no',
    list: 'a list',
    map: 'an object',
    null: 'nothing (null)',
    dyn: 'any value',
  },
  'zh-CN': {
    double: '数字',
    int: '整数',
    uint: '整数',
    string: '文本',
    bool: '是/否',
    list: '列表',
    map: '对象',
    null: '空值',
    dyn: '任意值',
  },
};

/**
 * A condition compiler's error in words, in English or Chinese; unknown errors keep their words.
 * `suggested`: a suggestion follows, so an unknown name needs no hint of how fields are written.
 */
export function conditionErrorIn(locale: string, error: string, suggested = false): string {
  const zh = locale === 'zh-CN';
  const type = (t: string) => CEL_TYPES[zh ? 'zh-CN' : 'en'][t] ?? t;
  let m: RegExpExecArray | null;
  if ((m = /^Unknown variable: (\S+)/.exec(error))) {
    if (suggested) return zh ? `未知的名称“${m[1]}”` : `Unknown name "${m[1]}"`;
    return zh
      ? `未知的名称“${m[1]}”：表单字段要写成 msg.<字段名>`
      : `Unknown name "${m[1]}": a form field is written msg.<field name>`;
  }
  if ((m = /^no such overload: (\w+) (\S+) (\w+)$/.exec(error)))
    return zh
      ? `不能对${type(m[1])}和${type(m[3])}使用 ${m[2]}`
      : `${type(m[1])} and ${type(m[3])} cannot be used with ${m[2]}`;
  if ((m = /^no such overload: (.*)$/.exec(error))) return zh ? `类型不匹配：${m[1]}` : `the types do not fit: ${m[1]}`;
  if (/^Unexpected token: EOF/.test(error)) return zh ? '条件不完整' : 'the condition is incomplete';
  if ((m = /^Unexpected (?:token|character): (.*)$/.exec(error)))
    return zh ? `此处不应出现“${m[1]}”` : `"${m[1]}" is not expected here`;
  if ((m = /^condition must be a boolean, not (\w+)/.exec(error)))
    return zh
      ? `条件的结果必须是“是”或“否”，而不是${type(m[1])}`
      : `a condition must be true or false, not ${type(m[1])}`;
  if (error === 'expression is empty') return zh ? '条件为空' : 'the condition is empty';
  return zh ? `条件无效：${error}` : error;
}

export const zhCNProblems: Messages = {
  'document.notObject': () => '流程定义必须是 JSON 对象',
  'document.unknownKey': (p) => `未知的顶层字段“${p.key}”`,
  'document.metadataRequired': () => '必填，需为包含 nodes 和 connections 的对象',
  'document.nodesRequired': () => '必填，需为节点数组',
  'document.ruleChainRequired': () => '必填，需为包含 id 和 name 的对象',
  'document.keyRequired': () => '必填，需为非空字符串（流程标识）',
  'document.draftKeyRequired': () => '流程标识必填',
  'node.notObject': () => '节点必须是对象',
  'connection.notObject': () => '连线必须是对象',
  'value.required': () => '必填',
  'value.requiredString': () => '必填，需为非空字符串',
  'value.empty': () => '不能为空',
  'value.notString': () => '必须是字符串',
  'value.notBoolean': () => '必须是 true 或 false',
  'value.notInteger': () => '必须是整数',
  'value.notNumber': () => '必须是数字',
  'value.notObject': () => '必须是对象',
  'value.notArray': () => '必须是数组',
  'value.notJson': () => '不是有效的 JSON',
  'value.notJsonObject': () => '必须是 JSON 对象',
  'value.notDate': () => '不是有效的日期',
  'value.notOneOf': (p) => `必须是${oneOf(p.allowed)}`,
  'value.belowMinimum': (p) => `不能小于 ${p.min}`,
  'value.tooLong': (p) => `最多 ${p.max} 个字符`,
  'value.notPositive': () => '必须大于 0',
  'value.unknownField': () => '未知字段',
  'value.invalid': (p) => `无效（${p.issue}）`,
  'limit.nodes': (p) => `共有 ${p.count} 个节点，最多允许 ${p.max} 个`,
  'limit.connections': (p) => `共有 ${p.count} 条连线，最多允许 ${p.max} 条`,
  'process.actionPermissionsNotObject': () => '必须是“操作 → true/false”的对象',
  'process.formPermissionsNotObject': () => '必须是“字段 → r/w/h”的对象',
  'process.formKeyRequired': () => 'formType 为“system”时必填（已存储表单的标识）',
  'process.formVersionInvalid': () => '必须是 ≥ 1 的版本号',
  'process.formUnknown': (p) => `未知的表单“${p.key}”`,
  'legacy.bothKeys': (p) => `同时给出了“${p.key}”和旧字段“${p.legacyKey}”，请只保留一个`,
  'legacy.approvalRuleWithoutType': () => 'approvalRule 需要 approvalType 为 countersign（会签）或 vote（票签）',
  'graph.duplicateNodeId': (p) => `节点 ID“${p.id}”重复`,
  'graph.unknownNode': (p) => `引用了不存在的节点“${p.id}”`,
  'graph.noNodes': () => '流程没有节点',
  'graph.firstNodeOutOfRange': (p) => `${p.index} 超出范围（0..${p.max}）`,
  'graph.unreachable': () => '从第一个节点无法到达',
  'graph.noWayToEnd': () => '从这里无法到达任何结束节点',
  'graph.noEnd': () => '流程没有结束节点',
  'graph.loopNeverWaits': (p) =>
    `位于一个从不等待的循环中（${p.nodeIds.join('、')}）：循环必须经过 ${p.waitingTypes.join(' 或 ')} 节点`,
  'region.nested': (p) => `不支持嵌套的并行区域：此 ${p.type} 位于“${p.splitId}”的区域内`,
  'region.noJoin': (p) => `此 ${p.type} 的分支始终没有在汇合节点汇合`,
  'region.severalJoins': (p) => `此 ${p.type} 的分支汇合到了不同的汇合节点（${p.joinIds.join('、')}）`,
  'region.branchMissesJoin': (p) => `从“${p.startId}”开始的分支始终到达不了汇合节点“${p.joinId}”`,
  'region.joinWithoutSplit': () => '此汇合节点没有对应的并行或包容分支',
  'node.typeUnsupported': (p) => `不支持节点类型“${p.type}”（支持：${p.supported.join('、')}）`,
  'node.functionUnknown': (p) => `函数“${p.name}”未注册：既不是内置函数，也不在租户的服务函数目录中`,
  'node.functionRemoved': (p) => `函数“${p.name}”未注册：已从目录中删除`,
  'node.agentUnknown': (p) => `AI 智能体“${p.agentId}”不在租户的智能体目录中`,
  'node.skillUnknown': (p) => `技能“${p.name}”不在租户的技能中`,
  'node.subProcessSelf': () => '流程不能将自身作为子流程发起',
  'node.httpUrlInvalid': () => '必须是 http(s) URL 或模板',
  'template.expected': (p) => `必须是${p.numberAllowed ? ' ≥ 0 的数字或' : ''}模板，例如 ${p.example}`,
  'template.badPlaceholder': (p) => `“\${${p.placeholder}}”必须指向 msg.<变量> 或 metadata.<键>`,
  'template.unclosed': () => '有未闭合的“${”',
  'approver.idsRequired': (p) => `请至少选择一个${APPROVER_KINDS[p.type] ?? `${p.type}（${p.list}）`}`,
  'approver.expressionRequired': () => '发起人自选需要一个模板，例如 ${msg.approvers}',
  'approver.levelsZero': () => '不能为 0（负数表示直到最高一级）',
  'vote.ruleWithoutVote': () => '只有 approveMode 为“vote”（票签）时才能设置 voteRule',
  'vote.percentRange': () => '按比例票签需要 0 到 100 之间的值',
  'vote.countInvalid': () => '按票数票签需要 ≥ 1 的整数',
  'selfApproval.skipLeavesNobody': () => '审批人为“发起人本人”时选择“跳过”将没有审批人',
  'handle.approveMode': () => '办理任务只支持 approveMode“single”或“any”',
  'reject.targetRequired': () => '驳回策略“toNode”需要指定目标节点 ID',
  'reject.targetUnknown': (p) => `“${p.target}”不是此流程的节点`,
  'reject.targetSelf': () => '不能是节点自身',
  'reject.targetType': (p) => `“${p.target}”必须是审批节点或发起节点`,
  'reject.targetNotUpstream': (p) => `“${p.target}”不在此节点的上游`,
  'reject.targetCrossesParallel': (p) => `退回到“${p.target}”的路径经过了并行、汇合或包容节点`,
  'reject.starterCrossesParallel': () => '退回发起人：退回到第一个节点的路径经过了并行、汇合或包容节点',
  'reject.previousCrossesParallel': (p) => `退回上一审批人：退回路径经过了“${p.nodeId}”（${p.type}）`,
  'switch.noCases': () => '至少需要一个条件',
  'switch.noConnection': (p) => `没有类型为“${p.relation}”的出口连线`,
  'condition.invalid': (p) => conditionErrorIn('zh-CN', p.error, !!p.suggestion) + didYouMean(p),
  'condition.unknownVariable': (p) => `msg.${p.variable} 不是流程表单的字段，之前也没有步骤设置它${didYouMean(p)}`,
  'form.invalid': (p) => `无效（${p.issue}）`,
  'form.duplicateSection': (p) => `分组“${p.id}”重复`,
  'form.duplicateField': (p) => `字段“${p.name}”重复`,
  'form.optionsRequired': (p) => `${fieldTypeZh(p.type)}字段至少需要一个选项`,
  'form.optionsNotAllowed': () => '只有单选和多选字段可以设置选项',
  'form.optionsNotDistinct': () => '选项值不能重复',
  'form.patternNotAllowed': () => '只有文本和多行文本字段可以设置格式',
  'form.patternInvalid': (p) => p.error,
  'form.multipleNotAllowed': () => '只有人员、部门和附件字段可以多选',
  'form.attachmentOnly': (p: { key: string }) => `只有附件字段可以设置 ${p.key}`,
  'form.boundNotTime': (p) => `必须和值一样是${fieldTypeZh(p.type)}`,
  'form.boundNotCount': () => '必须是 ≥ 0 的整数（长度或数量）',
  'form.boundNotAllowed': (p) =>
    `${fieldTypeZh(p.type)}字段不能设置${p.bound === 'min' ? '最小值' : p.bound === 'max' ? '最大值' : ` ${p.bound}`}`,
  'form.minAboveMax': () => '不能大于最大值',
  'form.unknownSection': (p) => `sections 中没有分组“${p.section}”`,
  'form.defaultInvalid': (p) => `默认值不符合字段要求：${p.error}`,
};

/** A problem's words in `locale`; a code this catalogue does not know keeps the given English. */
export function problemMessageIn(
  locale: string,
  problem: { code?: string; params?: Record<string, unknown>; message: string },
): string {
  if (locale !== 'zh-CN' || !problem.code || !Object.hasOwn(zhCNProblems, problem.code)) return problem.message;
  // A schema's issue keeps the schema's own words (its params do not hold them).
  if (problem.code === 'value.invalid' || problem.code === 'form.invalid') return `无效：${problem.message}`;
  try {
    return (zhCNProblems[problem.code as ProblemCode] as (p: Record<string, unknown>) => string)(problem.params ?? {});
  } catch {
    return problem.message;
  }
}
