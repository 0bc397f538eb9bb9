// Per-node deploy rules (docs/dsl.md#what-deploy-validates): supported type, configuration schema, and type-specific checks.
import type { z } from 'zod';
import { formFieldLabels, formVariableTypes, invalidConditionFinding } from './conditions.js';
import { compileCondition } from './expressions.js';
import {
  firstNode,
  isFlowEdge,
  isParallelNode,
  nodeById,
  outgoing,
  pathCrossesParallel,
  upstream,
  walk,
} from './graph.js';
import { nodeConfigSchemas } from './schemas.js';
import { finding, schemaFinding, type Finding } from './problems.js';
import { isTemplate, templateFindings } from './templates.js';
import { isNodeType, nodeTypes, problemAt, type DslNode, type Problem, type ProcessDocument } from './types.js';

type Obj = Record<string, unknown>;
type Report = (field: string, f: Finding) => void;

export interface ValidateOptions {
  /** The built-ins and the tenant's catalogue; when given, serviceTask functionName must be one of them. */
  functions?: readonly string[];
  /** The tenant's agents catalogue; when given, an aiAgent's agentId must be one of them. */
  agents?: readonly string[];
  /** The tenant's skill names; when given, every skill an aiAgent names must be one of them. */
  skills?: readonly string[];
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
// Missing or ill-typed required fields are reported by the schema; rules add the empty string.
const emptyString = (v: unknown) => typeof v === 'string' && v.trim() === '';

export function nodeProblems(doc: ProcessDocument, node: DslNode, opts: ValidateOptions): Problem[] {
  const problems: Problem[] = [];
  const report: Report = (field, f) => problems.push(problemAt(node.id, field, f));
  if (!isNodeType(node.type)) {
    report('type', finding('node.typeUnsupported', { type: String(node.type), supported: [...nodeTypes] }));
    return problems;
  }
  const config = node.configuration ?? {};
  problems.push(...schemaProblems(node.id, nodeConfigSchemas[node.type], config));
  const c = config as Obj;
  switch (node.type) {
    case 'userTask':
      userTaskRules(doc, node, c, report);
      break;
    case 'switch':
    case 'inclusive':
      caseRules(doc, node, c, report);
      break;
    case 'delay':
      if (typeof c.delayMs === 'string') {
        templateRules(c.delayMs, 'configuration.delayMs', report, { example: '${msg.waitMs}', numberAllowed: true });
      }
      break;
    case 'serviceTask':
      if (emptyString(c.functionName)) report('configuration.functionName', finding('value.empty'));
      else if (
        typeof c.functionName === 'string' &&
        opts.functions &&
        !opts.functions.includes(c.functionName as string)
      ) {
        report('configuration.functionName', finding('node.functionUnknown', { name: String(c.functionName) }));
      }
      if (typeof c.param === 'string') templateRules(c.param, 'configuration.param', report);
      break;
    case 'httpCall':
      httpRules(c, report);
      break;
    case 'aiAgent':
      if (emptyString(c.agentId)) report('configuration.agentId', finding('value.empty'));
      else if (typeof c.agentId === 'string' && opts.agents && !opts.agents.includes(c.agentId))
        report('configuration.agentId', finding('node.agentUnknown', { agentId: c.agentId }));
      if (isObj(c.inputAssembly) && typeof c.inputAssembly.customPrompt === 'string')
        templateRules(c.inputAssembly.customPrompt, 'configuration.inputAssembly.customPrompt', report);
      if (Array.isArray(c.skills) && opts.skills) {
        c.skills.forEach((name: unknown, i) => {
          if (typeof name === 'string' && name !== '' && !opts.skills!.includes(name))
            report(`configuration.skills[${i}]`, finding('node.skillUnknown', { name }));
        });
      }
      break;
    case 'automation':
      if (emptyString(c.targetId)) report('configuration.targetId', finding('value.empty'));
      break;
    case 'subProcess':
      if (emptyString(c.targetId)) report('configuration.targetId', finding('value.empty'));
      else if (c.targetId === doc.ruleChain.id) report('configuration.targetId', finding('node.subProcessSelf'));
      break;
  }
  return problems;
}

function schemaProblems(nodeId: string, schema: z.ZodType, config: unknown): Problem[] {
  const result = schema.safeParse(config);
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => {
    const field = ['configuration', ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))]
      .join('')
      .replace(/\.\[/g, '[');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => problemAt(nodeId, `${field}.${key}`, finding('value.unknownField', { key })));
    }
    const missing = valueAt(config, issue.path) === undefined;
    return [problemAt(nodeId, field, missing ? finding('value.required') : schemaFinding('value.invalid', issue))];
  });
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** `mustBe`: what the value has to be when it holds no template. */
function templateRules(
  value: string,
  field: string,
  report: Report,
  mustBe?: { example: string; numberAllowed: boolean },
): void {
  if (mustBe && !isTemplate(value)) report(field, finding('template.expected', mustBe));
  for (const f of templateFindings(value)) report(field, f);
}

const approverLists: Record<string, string> = { user: 'userIds', role: 'roleIds', dept: 'deptIds' };

function userTaskRules(doc: ProcessDocument, node: DslNode, c: Obj, report: Report): void {
  const approver = c.approver;
  if (isObj(approver) && typeof approver.type === 'string') {
    const listKey = approverLists[approver.type];
    const list = listKey ? approver[listKey] : undefined;
    if (listKey && (!Array.isArray(list) || list.length === 0)) {
      report(
        `configuration.approver.${listKey}`,
        finding('approver.idsRequired', { type: approver.type, list: listKey }),
      );
    }
    if (approver.type === 'initiatorSelect') {
      if (blank(approver.expression))
        report('configuration.approver.expression', finding('approver.expressionRequired'));
      else
        templateRules(approver.expression as string, 'configuration.approver.expression', report, {
          example: '${msg.approvers}',
          numberAllowed: false,
        });
    }
    const levels = approver.levels;
    if (approver.type === 'manager' && typeof levels === 'number' && levels < 1) {
      report('configuration.approver.levels', finding('value.belowMinimum', { min: 1 }));
    }
    if (approver.type === 'multiLevelManager' && levels === 0) {
      report('configuration.approver.levels', finding('approver.levelsZero'));
    }
  }

  if (c.voteRule !== undefined && c.approveMode !== 'vote') {
    report('configuration.voteRule', finding('vote.ruleWithoutVote'));
  } else if (isObj(c.voteRule)) {
    const { type, value } = c.voteRule;
    if (type === 'percent' && !(typeof value === 'number' && value >= 0 && value <= 100)) {
      report('configuration.voteRule.value', finding('vote.percentRange'));
    }
    if (type === 'count' && !(typeof value === 'number' && Number.isInteger(value) && value >= 1)) {
      report('configuration.voteRule.value', finding('vote.countInvalid'));
    }
  }

  if (isObj(c.timeout) && typeof c.timeout.dueInMinutes === 'number' && !(c.timeout.dueInMinutes > 0)) {
    report('configuration.timeout.dueInMinutes', finding('value.notPositive'));
  }
  if (typeof c.dueDate === 'string' && Number.isNaN(Date.parse(c.dueDate))) {
    report('configuration.dueDate', finding('value.notDate'));
  }
  if (isObj(approver) && approver.type === 'initiatorSelf' && c.selfApproval === 'skip') {
    report('configuration.selfApproval', finding('selfApproval.skipLeavesNobody'));
  }
  if (c.kind === 'handle' && c.approveMode !== 'single' && c.approveMode !== 'any') {
    report('configuration.approveMode', finding('handle.approveMode'));
  }
  if (isObj(c.reject)) rejectRules(doc, node, c.reject, report);
}

function rejectRules(doc: ProcessDocument, node: DslNode, reject: Obj, report: Report): void {
  if (reject.strategy === 'toNode') {
    const target = reject.target;
    const targetNode = typeof target === 'string' ? nodeById(doc, target) : undefined;
    const field = 'configuration.reject.target';
    if (blank(target)) report(field, finding('reject.targetRequired'));
    else if (!targetNode) report(field, finding('reject.targetUnknown', { target: String(target) }));
    else if (targetNode.id === node.id) report(field, finding('reject.targetSelf'));
    else if (targetNode.type !== 'userTask' && targetNode.type !== 'startTask')
      report(field, finding('reject.targetType', { target: targetNode.id }));
    else if (!upstream(doc, node.id).has(targetNode.id))
      report(field, finding('reject.targetNotUpstream', { target: targetNode.id }));
    else if (pathCrossesParallel(doc, node.id, targetNode.id)) {
      report(field, finding('reject.targetCrossesParallel', { target: targetNode.id }));
    }
  } else if (reject.strategy === 'toStarter') {
    const first = firstNode(doc);
    if (first && first.id !== node.id && pathCrossesParallel(doc, node.id, first.id)) {
      report('configuration.reject.strategy', finding('reject.starterCrossesParallel'));
    }
  } else if (reject.strategy === 'toPrev') {
    const crossed = toPrevCrossing(doc, node);
    if (crossed) {
      report(
        'configuration.reject.strategy',
        finding('reject.previousCrossesParallel', { nodeId: crossed.id, type: crossed.type }),
      );
    }
  }
}

/** The first fork/join/inclusive met going back before an approval node, if an approval lies beyond it. */
function toPrevCrossing(doc: ProcessDocument, node: DslNode): DslNode | undefined {
  const typeOf = (id: string) => nodeById(doc, id);
  const stopsHere = (id: string) => typeOf(id)?.type === 'userTask' || isParallelNode(typeOf(id));
  const visited = walk(doc, [node.id], 'backward', isFlowEdge, (id) => !stopsHere(id));
  for (const id of visited) {
    const parallel = typeOf(id);
    if (!isParallelNode(parallel)) continue;
    for (const up of upstream(doc, id)) {
      if (up !== node.id && typeOf(up)?.type === 'userTask') return parallel;
    }
  }
  return undefined;
}

function caseRules(doc: ProcessDocument, node: DslNode, c: Obj, report: Report): void {
  if (!Array.isArray(c.cases)) return; // reported by the schema
  if (c.cases.length === 0) report('configuration.cases', finding('switch.noCases'));
  const varTypes = formVariableTypes(doc);
  const labelled = formFieldLabels(doc);
  const relations = new Set(outgoing(doc, node.id).map((conn) => conn.type));
  c.cases.forEach((entry: unknown, i) => {
    if (!isObj(entry)) return;
    if (typeof entry.case === 'string') {
      const compiled = compileCondition(entry.case, varTypes);
      if (!compiled.ok)
        report(`configuration.cases[${i}].case`, invalidConditionFinding(entry.case, compiled.error, labelled));
    }
    if (typeof entry.then === 'string' && entry.then !== '' && !relations.has(entry.then)) {
      report(`configuration.cases[${i}].then`, finding('switch.noConnection', { relation: entry.then }));
    }
  });
}

function httpRules(c: Obj, report: Report): void {
  if (emptyString(c.url)) return report('configuration.url', finding('value.empty'));
  if (typeof c.url !== 'string') return;
  const url = c.url as string;
  if (!url.startsWith('${') && !/^https?:\/\//i.test(url)) report('configuration.url', finding('node.httpUrlInvalid'));
  templateRules(url, 'configuration.url', report);
  if (isObj(c.headers)) {
    for (const [name, value] of Object.entries(c.headers)) {
      if (typeof value === 'string') templateRules(value, `configuration.headers.${name}`, report);
    }
  }
  if (typeof c.body === 'string') templateRules(c.body, 'configuration.body', report);
}
