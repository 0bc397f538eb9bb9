// JSON → ProcessDocument: checks the document's shape, accepts a designer's form/flow wrapper,
// and normalises older userTask keys. Deeper rules live in validate.ts.
import { formSchemaProblems } from './forms.js';
import { normaliseUserTask } from './legacy.js';
import { finding, type Finding } from './problems.js';
import {
  problemAt,
  type DslConnection,
  type DslNode,
  type NodeType,
  type Problem,
  type ProcessDocument,
  type ProcessInfo,
} from './types.js';

type Obj = Record<string, unknown>;

export interface ParseResult {
  /** null when the JSON shape is too broken to build a document. */
  doc: ProcessDocument | null;
  problems: Problem[];
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Largest process a definition may describe. */
export const MAX_NODES = 500;
export const MAX_CONNECTIONS = 2000;

export function parseProcess(input: unknown): ParseResult {
  const shape: Problem[] = []; // a broken shape means no document
  const other: Problem[] = [];
  const at = (list: Problem[], field: string, f: Finding, nodeId: string | null = null) =>
    list.push(problemAt(nodeId, field, f));

  if (!isObj(input)) {
    at(shape, '', finding('document.notObject'));
    return { doc: null, problems: shape };
  }
  // A designer may wrap the document with `form` (the embedded form) and `flow` (its own layout data).
  // `functions` is what deploy pins into a stored definition: dropped here, computed again at deploy.
  const { ruleChain, metadata, form, flow: _flow, functions: _functions, ...unknownKeys } = input;
  for (const key of Object.keys(unknownKeys)) at(other, key, finding('document.unknownKey', { key }));

  const chain = parseRuleChain(
    ruleChain,
    form,
    (f, m) => at(shape, f, m),
    (f, m) => at(other, f, m),
  );
  if (!isObj(metadata)) {
    at(shape, 'metadata', finding('document.metadataRequired'));
    return { doc: null, problems: [...shape, ...other] };
  }

  const firstNodeIndex = metadata.firstNodeIndex ?? 0;
  if (typeof firstNodeIndex !== 'number' || !Number.isInteger(firstNodeIndex)) {
    at(shape, 'metadata.firstNodeIndex', finding('value.notInteger'));
  }
  // Size caps (docs/definitions.md): every view of an instance walks the graph, so its size is bounded.
  let oversized = false;
  if (Array.isArray(metadata.nodes) && metadata.nodes.length > MAX_NODES) {
    at(shape, 'metadata.nodes', finding('limit.nodes', { count: metadata.nodes.length, max: MAX_NODES }));
    oversized = true;
  }
  if (Array.isArray(metadata.connections) && metadata.connections.length > MAX_CONNECTIONS) {
    at(
      shape,
      'metadata.connections',
      finding('limit.connections', { count: metadata.connections.length, max: MAX_CONNECTIONS }),
    );
    oversized = true;
  }
  if (oversized) return { doc: null, problems: [...shape, ...other] };
  const nodes: DslNode[] = [];
  if (!Array.isArray(metadata.nodes)) at(shape, 'metadata.nodes', finding('document.nodesRequired'));
  else {
    metadata.nodes.forEach((raw, i) => {
      const node = parseNode(raw, `metadata.nodes[${i}]`, shape, other);
      if (node) nodes.push(node);
    });
  }
  const connections: DslConnection[] = [];
  const rawConnections = metadata.connections ?? [];
  if (!Array.isArray(rawConnections)) at(shape, 'metadata.connections', finding('value.notArray'));
  else {
    rawConnections.forEach((raw, i) => {
      const conn = parseConnection(raw, `metadata.connections[${i}]`, (f, m) => at(shape, f, m));
      if (conn) connections.push(conn);
    });
  }

  if (shape.length > 0 || !chain) return { doc: null, problems: [...shape, ...other] };
  const doc: ProcessDocument = {
    ruleChain: chain,
    metadata: { firstNodeIndex: firstNodeIndex as number, nodes, connections },
  };
  return { doc, problems: other };
}

type Report = (field: string, f: Finding) => void;

const AUTO_APPROVE_REPEATED = ['none', 'adjacent', 'all'];

function parseRuleChain(
  raw: unknown,
  form: unknown,
  report: Report,
  reportOther: Report,
): ProcessDocument['ruleChain'] | null {
  if (!isObj(raw)) {
    report('ruleChain', finding('document.ruleChainRequired'));
    return null;
  }
  let ok = true;
  const fail: Report = (field, f) => {
    ok = false;
    report(field, f);
  };
  if (!isNonEmptyString(raw.id)) fail('ruleChain.id', finding('document.keyRequired'));
  if (!isNonEmptyString(raw.name)) fail('ruleChain.name', finding('value.requiredString'));
  if (raw.root !== undefined && typeof raw.root !== 'boolean') fail('ruleChain.root', finding('value.notBoolean'));

  let info: ProcessInfo | undefined;
  if (raw.additionalInfo !== undefined && raw.additionalInfo !== null) {
    if (!isObj(raw.additionalInfo)) fail('ruleChain.additionalInfo', finding('value.notObject'));
    else info = { ...raw.additionalInfo } as ProcessInfo;
  }
  if (form !== undefined) {
    info = { ...info, form: form as ProcessInfo['form'] };
    info.formType ??= 'design';
  }
  if (info) {
    checkBooleanMap(info.actionPermissions, 'ruleChain.additionalInfo.actionPermissions', fail);
    if (info.autoApproveRepeated !== undefined && !AUTO_APPROVE_REPEATED.includes(info.autoApproveRepeated as string))
      fail(
        'ruleChain.additionalInfo.autoApproveRepeated',
        finding('value.notOneOf', { allowed: AUTO_APPROVE_REPEATED }),
      );
    // The form's own problems do not stop parsing (a draft may hold an unfinished form).
    checkForm(info.form, form !== undefined ? 'form' : 'ruleChain.additionalInfo.form', reportOther);
    if (info.formType === 'system' && !isNonEmptyString(info.formKey))
      reportOther('ruleChain.additionalInfo.formKey', finding('process.formKeyRequired'));
    if (info.formVersion !== undefined && (!Number.isInteger(info.formVersion) || (info.formVersion as number) < 1))
      reportOther('ruleChain.additionalInfo.formVersion', finding('process.formVersionInvalid'));
  }
  if (!ok) return null;
  return {
    id: raw.id as string,
    name: raw.name as string,
    ...(raw.root !== undefined ? { root: raw.root as boolean } : {}),
    ...(info ? { additionalInfo: info } : {}),
  };
}

/** The one form schema (forms.ts), also for embedded forms. */
function checkForm(form: unknown, field: string, report: Report): void {
  if (form === undefined || form === null) return;
  for (const p of formSchemaProblems(form)) report(p.field ? `${field}.${p.field}` : field, p);
}

function checkBooleanMap(value: unknown, field: string, fail: Report): void {
  if (value === undefined) return;
  if (!isObj(value)) return fail(field, finding('process.actionPermissionsNotObject'));
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'boolean') fail(`${field}.${k}`, finding('value.notBoolean'));
  }
}

function parseNode(raw: unknown, path: string, shape: Problem[], other: Problem[]): DslNode | null {
  if (!isObj(raw)) {
    shape.push(problemAt(null, path, finding('node.notObject')));
    return null;
  }
  const nodeId = isNonEmptyString(raw.id) ? raw.id : null;
  const before = shape.length;
  const fail: Report = (field, f) => shape.push(problemAt(nodeId, nodeId ? field : `${path}.${field}`, f));
  if (!nodeId) fail('id', finding('value.requiredString'));
  if (!isNonEmptyString(raw.type)) fail('type', finding('value.requiredString'));
  if (raw.name !== undefined && typeof raw.name !== 'string') fail('name', finding('value.notString'));
  if (raw.configuration !== undefined && raw.configuration !== null && !isObj(raw.configuration)) {
    fail('configuration', finding('value.notObject'));
  }
  let info: Obj | undefined;
  if (raw.additionalInfo !== undefined && raw.additionalInfo !== null) {
    if (!isObj(raw.additionalInfo)) fail('additionalInfo', finding('value.notObject'));
    else info = { ...raw.additionalInfo };
  }
  if (shape.length > before) return null;

  let configuration = isObj(raw.configuration) ? { ...raw.configuration } : undefined;
  if (raw.type === 'userTask') {
    const actionPermissions = isObj(info?.actionPermissions) ? info.actionPermissions : undefined;
    const normal = normaliseUserTask(configuration ?? {}, actionPermissions);
    configuration = normal.config;
    if (actionPermissions && info) info.actionPermissions = normal.actionPermissions;
    for (const p of normal.problems) other.push(problemAt(nodeId, `configuration.${p.field}`, p));
  }
  if (info) {
    checkBooleanMap(info.actionPermissions, 'additionalInfo.actionPermissions', fail);
    checkFormPermissions(info.formPermissions, fail);
  }
  if (shape.length > before) return null;
  return {
    id: nodeId!,
    type: raw.type as NodeType, // unsupported types are kept so validation can name them
    ...(raw.name !== undefined ? { name: raw.name as string } : {}),
    ...(configuration ? { configuration } : {}),
    ...(info ? { additionalInfo: info } : {}),
  };
}

function checkFormPermissions(value: unknown, fail: Report): void {
  if (value === undefined) return;
  if (!isObj(value)) return fail('additionalInfo.formPermissions', finding('process.formPermissionsNotObject'));
  for (const [k, v] of Object.entries(value)) {
    if (v !== 'r' && v !== 'w' && v !== 'h')
      fail(`additionalInfo.formPermissions.${k}`, finding('value.notOneOf', { allowed: ['r', 'w', 'h'] }));
  }
}

function parseConnection(raw: unknown, path: string, report: Report): DslConnection | null {
  if (!isObj(raw)) {
    report(path, finding('connection.notObject'));
    return null;
  }
  let ok = true;
  for (const key of ['fromId', 'toId', 'type'] as const) {
    if (!isNonEmptyString(raw[key])) {
      ok = false;
      report(`${path}.${key}`, finding('value.requiredString'));
    }
  }
  return ok ? { fromId: raw.fromId as string, toId: raw.toId as string, type: raw.type as string } : null;
}
