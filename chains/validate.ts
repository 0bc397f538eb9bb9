// What a save checks in a parsed chain (docs/rule-chains.md "Saving a chain"): node and endpoint
// types, ids, connections, every configuration key the node reads (type, required, allowed
// values), expressions, `${...}` templates, scripts (compiled by the caller's checker), crons,
// time zones and HTTP routes. Anything refused here would otherwise fail at run time.
//
// A connection whose relation the node can never emit (`Sucess`, `True` after a transform) is
// refused: RuleGo keeps it and it silently never fires. Nodes computing their relation (switch
// with its cases, jsSwitch, msgTypeSwitch) accept any name; a switch only its cases' `then`,
// Default and Failure. A `flow` to the chain itself is allowed: MAX_FLOW_DEPTH ends it at run time.
import {
  ENDPOINT_SPECS,
  HTTP_ENDPOINT_TYPES,
  PROCESS_EVENT_ENDPOINT_TYPE,
  ROUTER_METHODS,
  SCHEDULE_ENDPOINT_TYPE,
  CHAIN_NODE_TYPES,
  endpointSpec,
  nodeSpec,
  type ComponentSpec,
  type FieldSpec,
} from './catalogue.js';
import { cronToCalendar, isTimeZone } from './cron.js';
import { parseExpr } from './expr.js';
import { problem, type ChainProblem } from './problems.js';
import { hasPlaceholders, templateExprs } from './template.js';
import { PROCESS_EVENTS, RELATIONS, type EndpointDsl, type RuleChainDsl, type RuleNode } from './types.js';

export interface ValidateOptions {
  /** Compiles a script (never runs it): null when it compiles, else the error. The server passes QuickJS's. */
  checkScript?: (source: string) => string | null;
}

type Report = (field: string, code: ChainProblem['code'], message: string, params?: Record<string, unknown>) => void;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOk(field: FieldSpec, v: unknown): boolean {
  switch (field.type) {
    case 'string':
      return typeof v === 'string';
    case 'int':
      return typeof v === 'number' && Number.isInteger(v);
    case 'bool':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'map':
      return isPlainObject(v) && Object.values(v).every((x) => typeof x === 'string');
    case 'object':
      return isPlainObject(v);
    case 'json':
      return true;
  }
}

const TYPE_WORDS: Record<FieldSpec['type'], string> = {
  string: 'a string',
  int: 'an integer',
  bool: 'true or false',
  array: 'an array',
  map: 'an object of strings',
  object: 'an object',
  json: 'a JSON value',
};

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && !v.trim()) || (Array.isArray(v) && !v.length);

function checkExpr(report: Report, field: string, src: unknown) {
  if (typeof src !== 'string' || !src.trim()) return;
  const parsed = parseExpr(src);
  if (!parsed.ok) report(field, 'expr.invalid', `expression does not parse: ${parsed.error}`, { error: parsed.error });
}

function checkTemplate(report: Report, field: string, text: unknown) {
  if (typeof text !== 'string') return;
  const parsed = templateExprs(text);
  if (!parsed.ok)
    report(field, 'template.invalid', `placeholder does not parse: ${parsed.error}`, { error: parsed.error });
}

function checkTemplates(report: Report, at: string, v: unknown) {
  if (typeof v === 'string') return checkTemplate(report, at, v);
  if (Array.isArray(v)) return v.forEach((x, i) => checkTemplates(report, `${at}[${i}]`, x));
  if (isPlainObject(v)) for (const [k, x] of Object.entries(v)) checkTemplates(report, `${at}.${k}`, x);
}

function checkKind(report: Report, f: FieldSpec, v: unknown, opts: ValidateOptions) {
  const at = `configuration.${f.name}`;
  switch (f.kind) {
    case 'expr':
      return checkExpr(report, at, v);
    case 'template':
      // A JSON-valued field (functions' param) may be an object whose strings are templates.
      return checkTemplates(report, at, v);
    case 'script': {
      if (typeof v !== 'string' || !opts.checkScript) return;
      const error = opts.checkScript(v);
      if (error) report(at, 'script.invalid', `script does not compile: ${error}`, { error });
      return;
    }
    case 'exprMap':
      for (const [k, src] of Object.entries(v as Record<string, unknown>)) {
        if (typeof src === 'string' && !src.trim()) report(`${at}.${k}`, 'config.required', 'required expression');
        else checkExpr(report, `${at}.${k}`, src);
      }
      return;
    case 'templateMap':
      for (const [k, text] of Object.entries(v as Record<string, unknown>)) {
        checkTemplate(report, `${at}.${k}`, k);
        checkTemplate(report, `${at}.${k}`, text);
      }
      return;
    case 'cases':
      (v as unknown[]).forEach((c, i) => {
        const where = `${at}[${i}]`;
        if (!isPlainObject(c)) return report(where, 'config.type', 'a case must be {case, then}');
        if (typeof c.case !== 'string' || !c.case.trim())
          report(`${where}.case`, 'config.required', 'required expression');
        else checkExpr(report, `${where}.case`, c.case);
        if (typeof c.then !== 'string' || !c.then.trim())
          report(`${where}.then`, 'config.required', 'required relation name');
      });
      return;
    case 'events':
      (v as unknown[]).forEach((e, i) => {
        if (!PROCESS_EVENTS.includes(e as never))
          report(
            `${at}[${i}]`,
            'config.value',
            `unknown event ${JSON.stringify(e)}; one of ${PROCESS_EVENTS.join(', ')}`,
            {
              allowed: PROCESS_EVENTS,
            },
          );
      });
      return;
  }
}

function checkFields(report: Report, spec: ComponentSpec, cfg: Record<string, unknown>, opts: ValidateOptions) {
  for (const f of spec.fields) {
    const at = `configuration.${f.name}`;
    let v = cfg[f.name];
    // GFlow keeps startProcess's variables as a JSON object or its text.
    if (spec.type === 'startProcess' && f.name === 'variables' && typeof v === 'string' && v.trim()) {
      try {
        v = JSON.parse(v) as unknown;
      } catch {
        report(at, 'config.type', 'must be an object (or its JSON text)');
        continue;
      }
    }
    if (isEmpty(v)) {
      if (f.required) report(at, 'config.required', 'required', { key: f.name });
      continue;
    }
    if (!typeOk(f, v)) {
      report(at, 'config.type', `must be ${TYPE_WORDS[f.type]}`, { key: f.name, expected: f.type });
      continue;
    }
    if (f.min !== undefined && (v as number) < f.min)
      report(at, 'config.value', `must be at least ${f.min}`, { min: f.min });
    if (f.options && !f.options.includes((v as string).toUpperCase()))
      report(at, 'config.value', `must be one of ${f.options.join(', ')}`, { allowed: f.options });
    checkKind(report, f, v, opts);
  }
}

/** The checks one node type needs beyond its fields. */
function checkNode(report: Report, node: RuleNode, cfg: Record<string, unknown>) {
  const str = (k: string) => (typeof cfg[k] === 'string' ? (cfg[k] as string).trim() : '');
  switch (node.type) {
    case 'exprTransform':
      if (!str('expr') && !(isPlainObject(cfg.mapping) && Object.keys(cfg.mapping).length))
        report('configuration.expr', 'config.required', 'an expression or a mapping is required');
      return;
    case 'restApiCall': {
      const url = str('restEndpointUrlPattern');
      if (!url) return;
      if (hasPlaceholders(url)) {
        if (!/^(https?:\/\/|\$\{)/i.test(url))
          report('configuration.restEndpointUrlPattern', 'url.invalid', 'must start with http:// or https://');
        return;
      }
      let parsed: URL | null = null;
      try {
        parsed = new URL(url);
      } catch {
        /* reported below */
      }
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
        report('configuration.restEndpointUrlPattern', 'url.invalid', 'must be an http:// or https:// URL');
      return;
    }
    case 'delay': {
      const ms = str('delayMs');
      if (ms && !hasPlaceholders(ms) && !/^\d+$/.test(ms))
        report('configuration.delayMs', 'config.value', 'must be a number of milliseconds or a ${...} expression');
      return;
    }
    case 'functions':
    case 'flow': {
      const key = node.type === 'flow' ? 'targetId' : 'functionName';
      if (hasPlaceholders(str(key)))
        report(
          `configuration.${key}`,
          'config.value',
          'must name one target (no ${...} placeholders): it is checked at save',
        );
      return;
    }
  }
}

const ROUTE_PATH = /^\/?[A-Za-z0-9._~\-:{}*]+(\/[A-Za-z0-9._~\-:{}*]+)*\/?$/;

function checkRouters(report: Report, ep: EndpointDsl, chain: RuleChainDsl) {
  const seen = new Set<string>();
  const isHttp = (HTTP_ENDPOINT_TYPES as readonly string[]).includes(ep.type);
  (ep.routers ?? []).forEach((r, i) => {
    const at = `routers[${i}]`;
    const path = r.from.path.trim();
    if (isHttp) {
      if (!ROUTE_PATH.test(path) || path.split('/').some((s) => s === '.' || s === '..'))
        report(`${at}.from.path`, 'router.pathInvalid', 'must be a URL path such as /orders or /orders/:id', { path });
      const method = r.params?.[0] ?? 'POST';
      const upper = typeof method === 'string' ? method.toUpperCase() : '';
      if (!(ROUTER_METHODS as readonly string[]).includes(upper))
        report(`${at}.params[0]`, 'router.methodInvalid', `the method must be one of ${ROUTER_METHODS.join(', ')}`, {
          allowed: ROUTER_METHODS,
        });
      const key = `${upper} ${path.replace(/^\/|\/$/g, '')}`;
      if (seen.has(key)) report(`${at}.from.path`, 'router.duplicate', `another router already serves ${key}`);
      seen.add(key);
    }
    if (ep.type === SCHEDULE_ENDPOINT_TYPE) {
      const cron = cronToCalendar(path);
      if (!cron.ok)
        report(`${at}.from.path`, 'cron.invalid', `cron does not parse: ${cron.error}`, { error: cron.error });
    }
    // to.path is "chainId" or "chainId:nodeId": the run starts at that node. Endpoints always run
    // this chain, so the chain part is not checked (an imported chain may carry its old id).
    const to = r.to?.path ?? '';
    const nodeId = to.includes(':') ? to.slice(to.indexOf(':') + 1) : '';
    if (nodeId && !chain.metadata.nodes.some((n) => n.id === nodeId))
      report(`${at}.to.path`, 'router.nodeMissing', `no node ${nodeId} to start at`, { nodeId });
  });
}

function checkEndpoint(report: Report, ep: EndpointDsl, chain: RuleChainDsl, opts: ValidateOptions) {
  const spec = endpointSpec(ep.type);
  if (!spec)
    return report('type', 'endpoint.typeUnknown', `unknown endpoint type ${ep.type}`, {
      type: ep.type,
      known: ENDPOINT_SPECS.map((s) => s.type),
    });
  const cfg = ep.configuration ?? {};
  checkFields(report, spec, cfg, opts);
  if (
    ep.type === SCHEDULE_ENDPOINT_TYPE &&
    typeof cfg.timezone === 'string' &&
    cfg.timezone &&
    !isTimeZone(cfg.timezone)
  )
    report('configuration.timezone', 'timezone.invalid', `unknown time zone ${cfg.timezone}`);
  if (ep.type !== PROCESS_EVENT_ENDPOINT_TYPE || ep.routers?.length) checkRouters(report, ep, chain);
}

/** The relations a node may be connected by (null: any name). */
function relationsOf(node: RuleNode, spec: ComponentSpec): string[] | null {
  if (node.type === 'switch') {
    const cases = node.configuration?.cases;
    const thens = Array.isArray(cases) ? cases.map((c) => (isPlainObject(c) ? c.then : undefined)) : [];
    return [...thens.filter((x): x is string => typeof x === 'string'), RELATIONS.DEFAULT, RELATIONS.FAILURE];
  }
  return spec.relations;
}

/** Every problem of a parsed chain (empty: it saves). */
export function validateChain(chain: RuleChainDsl, opts: ValidateOptions = {}): ChainProblem[] {
  const problems: ChainProblem[] = [];
  const reporter =
    (nodeId: string | null): Report =>
    (field, code, message, params) =>
      problems.push(problem(nodeId, field, code, message, params));
  const { nodes } = chain.metadata;

  // The id appears in hook URLs (/hooks/{tenant}/{chainId}/…), workflow ids and `chainId:nodeId`.
  if (/[\s/?#%:\\]/.test(chain.ruleChain.id))
    reporter(null)('ruleChain.id', 'chain.idInvalid', 'the id may not contain spaces, /, ?, #, %, : or \\');

  if (chain.metadata.ruleChainConnections?.length)
    reporter(null)(
      'metadata.ruleChainConnections',
      'chain.ruleChainConnections',
      'links to other chains are not run here: call the chain with a flow node',
    );

  const first = chain.metadata.firstNodeIndex;
  if (first !== undefined && (first < 0 || (nodes.length ? first >= nodes.length : first > 0)))
    reporter(null)(
      'metadata.firstNodeIndex',
      'chain.firstNodeIndex',
      `no node at index ${first} (${nodes.length} nodes)`,
      {
        index: first,
      },
    );

  const specs = new Map<string, ComponentSpec>();
  const ids = new Set<string>();
  for (const node of nodes) {
    const report = reporter(node.id);
    const duplicate = ids.has(node.id);
    if (duplicate) report('id', 'node.idDuplicate', `another node has the id ${node.id}`);
    ids.add(node.id);
    const spec = nodeSpec(node.type);
    if (!spec) {
      report('type', 'node.typeUnknown', `unknown node type ${node.type}`, {
        type: node.type,
        known: CHAIN_NODE_TYPES,
      });
      continue;
    }
    // Connections from a duplicated id are checked against its first node, the one routing finds.
    if (!duplicate) specs.set(node.id, spec);
    const cfg = node.configuration ?? {};
    checkFields(report, spec, cfg, opts);
    checkNode(report, node, cfg);
  }

  (chain.metadata.connections ?? []).forEach((c, i) => {
    const report = reporter(c.fromId);
    const at = `metadata.connections[${i}]`;
    if (!ids.has(c.fromId))
      report(`${at}.fromId`, 'connection.fromMissing', `no node ${c.fromId}`, { fromId: c.fromId });
    if (!ids.has(c.toId)) report(`${at}.toId`, 'connection.toMissing', `no node ${c.toId}`, { toId: c.toId });
    const node = nodes.find((n) => n.id === c.fromId);
    const spec = specs.get(c.fromId);
    const allowed = node && spec ? relationsOf(node, spec) : null;
    if (allowed && !allowed.includes(c.type))
      report(
        `${at}.type`,
        'connection.relationNever',
        `${node!.type} never emits ${c.type} (it emits ${allowed.join(', ')})`,
        {
          relation: c.type,
          allowed,
        },
      );
  });

  const endpointIds = new Set<string>();
  for (const ep of chain.metadata.endpoints ?? []) {
    const report = reporter(ep.id);
    if (endpointIds.has(ep.id)) report('id', 'endpoint.idDuplicate', `another endpoint has the id ${ep.id}`);
    endpointIds.add(ep.id);
    checkEndpoint(report, ep, chain, opts);
  }
  return problems;
}
