// Per-node deploy rules (docs/dsl.md#what-deploy-validates): supported type, configuration schema, and type-specific checks.
import type { z } from 'zod';
import { formVariableTypes } from './conditions.js';
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
import { isTemplate, templateProblems } from './templates.js';
import { isNodeType, nodeTypes, type DslNode, type Problem, type ProcessDocument } from './types.js';

type Obj = Record<string, unknown>;
type Report = (field: string, message: string) => void;

export interface ValidateOptions {
  /** The built-ins and the tenant's catalogue; when given, serviceTask functionName must be one of them. */
  functions?: readonly string[];
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
// Missing or ill-typed required fields are reported by the schema; rules add the empty string.
const emptyString = (v: unknown) => typeof v === 'string' && v.trim() === '';

export function nodeProblems(doc: ProcessDocument, node: DslNode, opts: ValidateOptions): Problem[] {
  const problems: Problem[] = [];
  const report: Report = (field, message) => problems.push({ nodeId: node.id, field, message });
  if (!isNodeType(node.type)) {
    report('type', `node type "${String(node.type)}" is not supported (supported: ${nodeTypes.join(', ')})`);
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
        templateRules(
          c.delayMs,
          'configuration.delayMs',
          report,
          'must be a number ≥ 0 or a template such as ${msg.waitMs}',
        );
      }
      break;
    case 'serviceTask':
      if (emptyString(c.functionName)) report('configuration.functionName', 'must not be empty');
      else if (
        typeof c.functionName === 'string' &&
        opts.functions &&
        !opts.functions.includes(c.functionName as string)
      ) {
        report(
          'configuration.functionName',
          `function "${String(c.functionName)}" is not registered: neither a built-in nor in the tenant's service-function catalogue`,
        );
      }
      if (typeof c.param === 'string') templateRules(c.param, 'configuration.param', report);
      break;
    case 'httpCall':
      httpRules(c, report);
      break;
    case 'subProcess':
      if (emptyString(c.targetId)) report('configuration.targetId', 'must not be empty');
      else if (c.targetId === doc.ruleChain.id)
        report('configuration.targetId', 'a process cannot start itself as a sub-process');
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
      return issue.keys.map((key) => ({ nodeId, field: `${field}.${key}`, message: 'unknown field' }));
    }
    const missing = valueAt(config, issue.path) === undefined;
    return [{ nodeId, field, message: missing ? 'required' : issue.message }];
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

/** `mustBe`: message when the value has to be a template but holds none. */
function templateRules(value: string, field: string, report: Report, mustBe?: string): void {
  if (mustBe && !isTemplate(value)) report(field, mustBe);
  for (const message of templateProblems(value)) report(field, message);
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
        `approver type "${approver.type}" needs at least one id in ${listKey}`,
      );
    }
    if (approver.type === 'initiatorSelect') {
      if (blank(approver.expression))
        report('configuration.approver.expression', 'initiatorSelect needs a template such as ${msg.approvers}');
      else
        templateRules(
          approver.expression as string,
          'configuration.approver.expression',
          report,
          'must be a template such as ${msg.approvers}',
        );
    }
    const levels = approver.levels;
    if (approver.type === 'manager' && typeof levels === 'number' && levels < 1) {
      report('configuration.approver.levels', 'must be at least 1');
    }
    if (approver.type === 'multiLevelManager' && levels === 0) {
      report('configuration.approver.levels', 'must not be 0 (a negative number means up to the top)');
    }
  }

  if (c.voteRule !== undefined && c.approveMode !== 'vote') {
    report('configuration.voteRule', 'voteRule is only allowed with approveMode "vote"');
  } else if (isObj(c.voteRule)) {
    const { type, value } = c.voteRule;
    if (type === 'percent' && !(typeof value === 'number' && value >= 0 && value <= 100)) {
      report('configuration.voteRule.value', 'a percent vote needs a value from 0 to 100');
    }
    if (type === 'count' && !(typeof value === 'number' && Number.isInteger(value) && value >= 1)) {
      report('configuration.voteRule.value', 'a count vote needs a whole number ≥ 1');
    }
  }

  if (isObj(c.timeout) && typeof c.timeout.dueInMinutes === 'number' && !(c.timeout.dueInMinutes > 0)) {
    report('configuration.timeout.dueInMinutes', 'must be greater than 0');
  }
  if (typeof c.dueDate === 'string' && Number.isNaN(Date.parse(c.dueDate))) {
    report('configuration.dueDate', 'is not a valid date');
  }
  if (isObj(approver) && approver.type === 'initiatorSelf' && c.selfApproval === 'skip') {
    report('configuration.selfApproval', '"skip" with approver "initiatorSelf" would leave no approver');
  }
  if (c.kind === 'handle' && c.approveMode !== 'single' && c.approveMode !== 'any') {
    report('configuration.approveMode', 'a handle task only supports approveMode "single" or "any"');
  }
  if (isObj(c.reject)) rejectRules(doc, node, c.reject, report);
}

function rejectRules(doc: ProcessDocument, node: DslNode, reject: Obj, report: Report): void {
  if (reject.strategy === 'toNode') {
    const target = reject.target;
    const targetNode = typeof target === 'string' ? nodeById(doc, target) : undefined;
    const field = 'configuration.reject.target';
    if (blank(target)) report(field, 'reject strategy "toNode" needs a target node id');
    else if (!targetNode) report(field, `"${String(target)}" is not a node of this process`);
    else if (targetNode.id === node.id) report(field, 'cannot be the node itself');
    else if (targetNode.type !== 'userTask' && targetNode.type !== 'startTask')
      report(field, `"${targetNode.id}" must be a userTask or startTask`);
    else if (!upstream(doc, node.id).has(targetNode.id))
      report(field, `"${targetNode.id}" is not upstream of this node`);
    else if (pathCrossesParallel(doc, node.id, targetNode.id)) {
      report(field, `the path back to "${targetNode.id}" crosses a fork, join or inclusive`);
    }
  } else if (reject.strategy === 'toStarter') {
    const first = firstNode(doc);
    if (first && first.id !== node.id && pathCrossesParallel(doc, node.id, first.id)) {
      report(
        'configuration.reject.strategy',
        'toStarter: the path back to the first node crosses a fork, join or inclusive',
      );
    }
  } else if (reject.strategy === 'toPrev') {
    const crossed = toPrevCrossing(doc, node);
    if (crossed) {
      report(
        'configuration.reject.strategy',
        `toPrev: the path back to the previous approval crosses "${crossed.id}" (${crossed.type})`,
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
  if (c.cases.length === 0) report('configuration.cases', 'needs at least one case');
  const varTypes = formVariableTypes(doc);
  const relations = new Set(outgoing(doc, node.id).map((conn) => conn.type));
  c.cases.forEach((entry: unknown, i) => {
    if (!isObj(entry)) return;
    if (typeof entry.case === 'string') {
      const compiled = compileCondition(entry.case, varTypes);
      if (!compiled.ok) report(`configuration.cases[${i}].case`, compiled.error);
    }
    if (typeof entry.then === 'string' && entry.then !== '' && !relations.has(entry.then)) {
      report(`configuration.cases[${i}].then`, `no outgoing connection of type "${entry.then}"`);
    }
  });
}

function httpRules(c: Obj, report: Report): void {
  if (emptyString(c.url)) return report('configuration.url', 'must not be empty');
  if (typeof c.url !== 'string') return;
  const url = c.url as string;
  if (!url.startsWith('${') && !/^https?:\/\//i.test(url))
    report('configuration.url', 'must be an http(s) URL or a template');
  templateRules(url, 'configuration.url', report);
  if (isObj(c.headers)) {
    for (const [name, value] of Object.entries(c.headers)) {
      if (typeof value === 'string') templateRules(value, `configuration.headers.${name}`, report);
    }
  }
  if (typeof c.body === 'string') templateRules(c.body, 'configuration.body', report);
}
