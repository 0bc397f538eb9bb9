// Saving a chain: parseChain keeps every field (round trip), validateChain names node, field and a
// stable code for each problem, chainReferences lists what the server looks up; chains/ is pure.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHAIN_PROBLEM_CODES,
  chainReferenceNames,
  chainReferences,
  parseChain,
  validateChain,
  type RuleChainDsl,
} from '../../chains/index.js';

/** A chain using every node type and every endpoint type, valid as it is. */
function sample(): RuleChainDsl {
  return {
    ruleChain: {
      id: 'orders',
      name: 'Orders',
      root: true,
      debugMode: false,
      additionalInfo: { createTime: '2026-11-29', layoutVersion: 3 },
      vendorField: { kept: true },
    },
    metadata: {
      firstNodeIndex: 0,
      endpoints: [
        {
          id: 'ep-http',
          type: 'endpoint/http',
          name: 'ERP hook',
          configuration: { server: ':9090', allowCors: true },
          routers: [
            { id: 'r1', params: ['POST'], from: { path: '/orders' }, to: { path: 'orders', wait: true } },
            { id: 'r2', params: ['get'], from: { path: '/orders/:id' }, to: { path: 'orders:tf' } },
          ],
          additionalInfo: { layoutX: 10, layoutY: 20 },
        },
        { id: 'ep-old', type: 'http', routers: [{ from: { path: 'legacy' } }] },
        {
          id: 'ep-cron',
          type: 'endpoint/schedule',
          configuration: { timezone: 'Asia/Shanghai' },
          routers: [{ from: { path: '0 0 9 * * MON-FRI' } }, { from: { path: '@every 1h' } }],
        },
        {
          id: 'ep-ev',
          type: 'endpoint/processEvent',
          configuration: { processKey: 'leave', events: ['instanceEnded'] },
        },
      ],
      nodes: [
        {
          id: 'f',
          type: 'exprFilter',
          configuration: { expr: 'msg.amount > 100 && metadata.source == "erp"' },
          additionalInfo: { layoutX: 100, layoutY: 40, description: 'big ones' },
        },
        { id: 'jf', type: 'jsFilter', configuration: { jsScript: 'return msg.amount > 0;' } },
        {
          id: 'tf',
          type: 'jsTransform',
          configuration: { jsScript: 'return {msg: msg, metadata: metadata, msgType: msgType};' },
        },
        {
          id: 'et',
          type: 'exprTransform',
          configuration: { mapping: { total: 'msg.amount * 1.1', who: 'upper(msg.user)' } },
        },
        {
          id: 'sw',
          type: 'switch',
          configuration: {
            cases: [
              { case: 'msg.amount > 1000', then: 'Large' },
              { case: 'msg.amount > 100', then: 'Medium' },
            ],
          },
        },
        { id: 'js', type: 'jsSwitch', configuration: { jsScript: "return ['a', 'b'];" } },
        { id: 'mt', type: 'msgTypeSwitch', configuration: {} },
        {
          id: 'rest',
          type: 'restApiCall',
          configuration: {
            restEndpointUrlPattern: 'https://erp.example/orders/${msg.id}',
            requestMethod: 'POST',
            headers: { Authorization: 'Bearer ${metadata.token}' },
            readTimeoutMs: 5000,
            maxParallelRequestsCount: 200,
            enableProxy: false,
          },
        },
        {
          id: 'dl',
          type: 'delay',
          configuration: { delayMs: '${metadata.wait}', maxPendingMsgs: 1000, overwrite: false },
        },
        { id: 'fk', type: 'fork' },
        { id: 'jn', type: 'join', configuration: { timeout: 30, mergeToMap: true } },
        { id: 'sub', type: 'flow', configuration: { targetId: 'notify-chain', extend: false } },
        { id: 'self', type: 'flow', configuration: { targetId: 'orders' } },
        { id: 'fn', type: 'functions', configuration: { functionName: 'sendMail', param: { to: '${msg.email}' } } },
        {
          id: 'sp',
          type: 'startProcess',
          configuration: {
            processKey: 'purchase',
            initiator: '${msg.user}',
            businessKey: '${msg.id}',
            variables: { amount: '${msg.amount}', fixed: 3 },
          },
        },
        {
          id: 'sp2',
          type: 'startProcess',
          configuration: { processKey: '${msg.kind}', initiator: 'u1', variables: '{"a": "${msg.a}"}' },
        },
        { id: 'lg', type: 'log', configuration: {} },
        { id: 'agent', type: 'log', configuration: { skills: ['tone', 'policy'] } },
      ],
      connections: [
        { fromId: 'f', toId: 'jf', type: 'True', label: 'yes' },
        { fromId: 'f', toId: 'lg', type: 'False' },
        { fromId: 'jf', toId: 'tf', type: 'True' },
        { fromId: 'tf', toId: 'sw', type: 'Success' },
        { fromId: 'sw', toId: 'rest', type: 'Large' },
        { fromId: 'sw', toId: 'fk', type: 'Medium' },
        { fromId: 'sw', toId: 'lg', type: 'Default' },
        { fromId: 'fk', toId: 'et', type: 'Success' },
        { fromId: 'fk', toId: 'dl', type: 'Success' },
        { fromId: 'et', toId: 'jn', type: 'Success' },
        { fromId: 'dl', toId: 'jn', type: 'Success' },
        { fromId: 'jn', toId: 'sub', type: 'Success' },
        { fromId: 'jn', toId: 'lg', type: 'Failure' },
        { fromId: 'js', toId: 'mt', type: 'anything' },
        { fromId: 'mt', toId: 'fn', type: 'ORDER_CREATED' },
        { fromId: 'rest', toId: 'sp', type: 'Success' },
        { fromId: 'rest', toId: 'lg', type: 'Failure' },
      ],
      ruleChainConnections: [],
      vendorMeta: 'kept',
    },
  };
}

const scriptChecker = (source: string) =>
  source.includes('syntax error here') ? 'SyntaxError: unexpected token' : null;

function problemsOf(mutate: (c: RuleChainDsl) => void) {
  const chain = sample();
  mutate(chain);
  const parsed = parseChain(chain);
  if (!parsed.ok) return parsed.problems.map((p) => [p.nodeId, p.field, p.code]);
  return validateChain(parsed.chain, { checkScript: scriptChecker }).map((p) => [p.nodeId, p.field, p.code]);
}

const node = (c: RuleChainDsl, id: string) => c.metadata.nodes.find((n) => n.id === id)!;
const cfg = (c: RuleChainDsl, id: string) => (node(c, id).configuration ??= {});
const ep = (c: RuleChainDsl, id: string) => c.metadata.endpoints!.find((e) => e.id === id)!;

describe('parseChain', () => {
  it('round-trips the document exactly: unknown fields, layout and key order', () => {
    const doc = sample();
    const parsed = parseChain(JSON.parse(JSON.stringify(doc)));
    expect(parsed.ok).toBe(true);
    expect(JSON.stringify(parsed.chain)).toBe(JSON.stringify(doc));
    expect(parsed.chain).not.toBe(doc);
  });

  it('lists every shape problem with its path, naming the node where it has an id', () => {
    const parsed = parseChain({
      ruleChain: { name: 5 },
      metadata: { nodes: [{ id: 'n1' }, { type: 'log' }], connections: [{ fromId: 'a' }] },
    });
    expect(parsed.ok).toBe(false);
    const rows = parsed.problems.map((p) => [p.nodeId, p.field, p.code]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [null, 'ruleChain.id', 'document.invalid'],
        [null, 'ruleChain.name', 'document.invalid'],
        ['n1', 'metadata.nodes[0].type', 'document.invalid'],
        [null, 'metadata.nodes[1].id', 'document.invalid'],
        [null, 'metadata.connections[0].toId', 'document.invalid'],
      ]),
    );
  });

  it.each([null, 'text', [], 42, { ruleChain: { id: 'a', name: 'a' } }])('refuses %j', (input) => {
    const parsed = parseChain(input);
    expect(parsed.ok).toBe(false);
    expect(parsed.problems.length).toBeGreaterThan(0);
  });
});

describe('validateChain', () => {
  it('accepts the sample: every node and endpoint type, a flow to itself included', () => {
    expect(problemsOf(() => {})).toEqual([]);
  });

  const cases: Array<[string, (c: RuleChainDsl) => void, Array<[string | null, string, string]>]> = [
    ['unknown node type', (c) => (node(c, 'lg').type = 'mqttClient'), [['lg', 'type', 'node.typeUnknown']]],
    [
      'unknown endpoint type',
      (c) => (ep(c, 'ep-old').type = 'endpoint/mqtt'),
      [['ep-old', 'type', 'endpoint.typeUnknown']],
    ],
    ['duplicate node id', (c) => c.metadata.nodes.push({ id: 'f', type: 'fork' }), [['f', 'id', 'node.idDuplicate']]],
    [
      'duplicate endpoint id',
      (c) => c.metadata.endpoints!.push({ id: 'ep-ev', type: 'endpoint/processEvent' }),
      [['ep-ev', 'id', 'endpoint.idDuplicate']],
    ],
    [
      'dangling toId',
      (c) => c.metadata.connections!.push({ fromId: 'f', toId: 'ghost', type: 'True' }),
      [['f', 'metadata.connections[17].toId', 'connection.toMissing']],
    ],
    [
      'dangling fromId',
      (c) => c.metadata.connections!.push({ fromId: 'ghost', toId: 'f', type: 'Success' }),
      [['ghost', 'metadata.connections[17].fromId', 'connection.fromMissing']],
    ],
    [
      'a relation a filter never emits',
      (c) => (c.metadata.connections![0].type = 'Success'),
      [['f', 'metadata.connections[0].type', 'connection.relationNever']],
    ],
    [
      'a relation with the wrong case',
      (c) => (c.metadata.connections![3].type = 'success'),
      [['tf', 'metadata.connections[3].type', 'connection.relationNever']],
    ],
    [
      'a switch relation no case names',
      (c) => (c.metadata.connections![4].type = 'Huge'),
      [['sw', 'metadata.connections[4].type', 'connection.relationNever']],
    ],
    [
      'firstNodeIndex out of range',
      (c) => (c.metadata.firstNodeIndex = 40),
      [[null, 'metadata.firstNodeIndex', 'chain.firstNodeIndex']],
    ],
    [
      'negative firstNodeIndex',
      (c) => (c.metadata.firstNodeIndex = -1),
      [[null, 'metadata.firstNodeIndex', 'chain.firstNodeIndex']],
    ],
    ['missing expr', (c) => delete cfg(c, 'f').expr, [['f', 'configuration.expr', 'config.required']]],
    ['blank expr', (c) => (cfg(c, 'f').expr = '  '), [['f', 'configuration.expr', 'config.required']]],
    ['bad expression', (c) => (cfg(c, 'f').expr = 'msg.amount >'), [['f', 'configuration.expr', 'expr.invalid']]],
    ['unsupported function', (c) => (cfg(c, 'f').expr = 'now() > 1'), [['f', 'configuration.expr', 'expr.invalid']]],
    ['bad regex', (c) => (cfg(c, 'f').expr = 'msg.s matches "(("'), [['f', 'configuration.expr', 'expr.invalid']]],
    [
      'bad mapping expression',
      (c) => (cfg(c, 'et').mapping = { a: 'msg.' }),
      [['et', 'configuration.mapping.a', 'expr.invalid']],
    ],
    [
      'empty mapping expression',
      (c) => (cfg(c, 'et').mapping = { a: 'msg.a', b: ' ' }),
      [['et', 'configuration.mapping.b', 'config.required']],
    ],
    [
      'exprTransform with neither expr nor mapping',
      (c) => (node(c, 'et').configuration = {}),
      [['et', 'configuration.expr', 'config.required']],
    ],
    [
      'mapping of non-strings',
      (c) => (cfg(c, 'et').mapping = { a: 1 }),
      [['et', 'configuration.mapping', 'config.type']],
    ],
    [
      'switch without cases',
      (c) => (cfg(c, 'sw').cases = []),
      [
        ['sw', 'configuration.cases', 'config.required'],
        ['sw', 'metadata.connections[4].type', 'connection.relationNever'],
        ['sw', 'metadata.connections[5].type', 'connection.relationNever'],
      ],
    ],
    [
      'switch case with a bad expression',
      (c) => ((cfg(c, 'sw').cases as Array<{ case: string }>)[1].case = 'a >'),
      [['sw', 'configuration.cases[1].case', 'expr.invalid']],
    ],
    [
      'switch case without then',
      (c) => ((cfg(c, 'sw').cases as Array<{ then?: string }>)[0].then = ''),
      [
        ['sw', 'configuration.cases[0].then', 'config.required'],
        ['sw', 'metadata.connections[4].type', 'connection.relationNever'],
      ],
    ],
    [
      'script that does not compile',
      (c) => (cfg(c, 'tf').jsScript = 'syntax error here'),
      [['tf', 'configuration.jsScript', 'script.invalid']],
    ],
    ['missing script', (c) => delete cfg(c, 'jf').jsScript, [['jf', 'configuration.jsScript', 'config.required']]],
    [
      'script of the wrong type',
      (c) => (cfg(c, 'js').jsScript = 42),
      [['js', 'configuration.jsScript', 'config.type']],
    ],
    [
      'restApiCall without a URL',
      (c) => delete cfg(c, 'rest').restEndpointUrlPattern,
      [['rest', 'configuration.restEndpointUrlPattern', 'config.required']],
    ],
    [
      'restApiCall to ftp',
      (c) => (cfg(c, 'rest').restEndpointUrlPattern = 'ftp://x/y'),
      [['rest', 'configuration.restEndpointUrlPattern', 'url.invalid']],
    ],
    [
      'restApiCall URL not a URL',
      (c) => (cfg(c, 'rest').restEndpointUrlPattern = 'not a url'),
      [['rest', 'configuration.restEndpointUrlPattern', 'url.invalid']],
    ],
    [
      'restApiCall bad method',
      (c) => (cfg(c, 'rest').requestMethod = 'FETCH'),
      [['rest', 'configuration.requestMethod', 'config.value']],
    ],
    [
      'restApiCall bad placeholder',
      (c) => (cfg(c, 'rest').body = '{"a": ${msg.}}'),
      [['rest', 'configuration.body', 'template.invalid']],
    ],
    [
      'restApiCall bad header placeholder',
      (c) => (cfg(c, 'rest').headers = { 'X-A': '${1 +}' }),
      [['rest', 'configuration.headers.X-A', 'template.invalid']],
    ],
    [
      'restApiCall headers not strings',
      (c) => (cfg(c, 'rest').headers = { a: 1 }),
      [['rest', 'configuration.headers', 'config.type']],
    ],
    [
      'restApiCall negative timeout',
      (c) => (cfg(c, 'rest').readTimeoutMs = -1),
      [['rest', 'configuration.readTimeoutMs', 'config.value']],
    ],
    [
      'restApiCall timeout not an integer',
      (c) => (cfg(c, 'rest').readTimeoutMs = '5000'),
      [['rest', 'configuration.readTimeoutMs', 'config.type']],
    ],
    ['delay not a number', (c) => (cfg(c, 'dl').delayMs = 'soon'), [['dl', 'configuration.delayMs', 'config.value']]],
    [
      'join timeout not a number',
      (c) => (cfg(c, 'jn').timeout = 'x'),
      [['jn', 'configuration.timeout', 'config.type']],
    ],
    [
      'join mergeToMap not a boolean',
      (c) => (cfg(c, 'jn').mergeToMap = 'yes'),
      [['jn', 'configuration.mergeToMap', 'config.type']],
    ],
    [
      'flow without a target',
      (c) => (cfg(c, 'sub').targetId = ''),
      [['sub', 'configuration.targetId', 'config.required']],
    ],
    [
      'flow with a placeholder target',
      (c) => (cfg(c, 'sub').targetId = '${msg.chain}'),
      [['sub', 'configuration.targetId', 'config.value']],
    ],
    [
      'ruleChainConnections in use',
      (c) => (c.metadata.ruleChainConnections = [{ fromId: 'f', toId: 'other', type: 'True' }]),
      [[null, 'metadata.ruleChainConnections', 'chain.ruleChainConnections']],
    ],
    ['chain id with a slash', (c) => (c.ruleChain.id = 'a/b'), [[null, 'ruleChain.id', 'chain.idInvalid']]],
    ['chain id with a colon', (c) => (c.ruleChain.id = 'a:b'), [[null, 'ruleChain.id', 'chain.idInvalid']]],
    [
      'functions param with a bad placeholder',
      (c) => (cfg(c, 'fn').param = { nested: ['${msg.}'] }),
      [['fn', 'configuration.param.nested[0]', 'template.invalid']],
    ],
    ['functions param template string', (c) => (cfg(c, 'fn').param = '${msg.order}'), []],
    [
      'functions without a name',
      (c) => delete cfg(c, 'fn').functionName,
      [['fn', 'configuration.functionName', 'config.required']],
    ],
    [
      'startProcess without an initiator',
      (c) => delete cfg(c, 'sp').initiator,
      [['sp', 'configuration.initiator', 'config.required']],
    ],
    [
      'startProcess variables not JSON',
      (c) => (cfg(c, 'sp2').variables = '{nope'),
      [['sp2', 'configuration.variables', 'config.type']],
    ],
    [
      'startProcess bad variable placeholder',
      (c) => (cfg(c, 'sp').variables = { a: '${msg.}' }),
      [['sp', 'configuration.variables.a', 'template.invalid']],
    ],
    [
      'bad cron',
      (c) => (ep(c, 'ep-cron').routers![0].from.path = '0 0 25 * * *'),
      [['ep-cron', 'routers[0].from.path', 'cron.invalid']],
    ],
    [
      'bad time zone',
      (c) => (ep(c, 'ep-cron').configuration = { timezone: 'Mars/Olympus' }),
      [['ep-cron', 'configuration.timezone', 'timezone.invalid']],
    ],
    [
      'bad route path',
      (c) => (ep(c, 'ep-http').routers![0].from.path = '/a b'),
      [['ep-http', 'routers[0].from.path', 'router.pathInvalid']],
    ],
    [
      'route path with ..',
      (c) => (ep(c, 'ep-http').routers![0].from.path = '/a/../b'),
      [['ep-http', 'routers[0].from.path', 'router.pathInvalid']],
    ],
    [
      'bad route method',
      (c) => (ep(c, 'ep-http').routers![0].params = ['CONNECT']),
      [['ep-http', 'routers[0].params[0]', 'router.methodInvalid']],
    ],
    ['duplicate route', (c) => (ep(c, 'ep-http').routers![1].from.path = 'orders/'), []],
    [
      'duplicate route (same method)',
      (c) => ep(c, 'ep-http').routers!.push({ from: { path: 'orders' } }),
      [['ep-http', 'routers[2].from.path', 'router.duplicate']],
    ],
    [
      'router to a missing node',
      (c) => (ep(c, 'ep-http').routers![1].to = { path: 'orders:ghost' }),
      [['ep-http', 'routers[1].to.path', 'router.nodeMissing']],
    ],
    [
      'unknown process event',
      (c) => (ep(c, 'ep-ev').configuration = { events: ['instanceExploded'] }),
      [['ep-ev', 'configuration.events[0]', 'config.value']],
    ],
    ['node without a type', (c) => (node(c, 'lg').type = ''), [['lg', 'metadata.nodes[16].type', 'document.invalid']]],
  ];
  it.each(cases)('%s', (_name, mutate, expected) => {
    expect(problemsOf(mutate)).toEqual(expected);
  });

  it('uses only the documented codes, each with a message', () => {
    const chain = sample();
    cfg(chain, 'f').expr = 'x >';
    node(chain, 'lg').type = 'nope';
    for (const p of validateChain(chain)) {
      expect(CHAIN_PROBLEM_CODES).toContain(p.code);
      expect(p.message.length).toBeGreaterThan(3);
    }
  });

  it('skips script compilation when no checker is given', () => {
    const chain = sample();
    cfg(chain, 'tf').jsScript = 'syntax error here';
    expect(validateChain(chain)).toEqual([]);
  });
});

describe('chainReferences', () => {
  it('names each sub-chain, function, process and skill with its node and field', () => {
    expect(chainReferences(sample())).toEqual([
      { kind: 'chain', name: 'notify-chain', nodeId: 'sub', field: 'configuration.targetId' },
      { kind: 'chain', name: 'orders', nodeId: 'self', field: 'configuration.targetId' },
      { kind: 'function', name: 'sendMail', nodeId: 'fn', field: 'configuration.functionName' },
      { kind: 'process', name: 'purchase', nodeId: 'sp', field: 'configuration.processKey' },
      { kind: 'skill', name: 'tone', nodeId: 'agent', field: 'configuration.skills[0]' },
      { kind: 'skill', name: 'policy', nodeId: 'agent', field: 'configuration.skills[1]' },
    ]);
    expect(chainReferenceNames(sample())).toEqual({
      chains: ['notify-chain', 'orders'],
      functions: ['sendMail'],
      processes: ['purchase'],
      skills: ['tone', 'policy'],
    });
  });
});

describe('chains/ is a pure package', () => {
  it('imports only its own files, jsep, re2js and zod (no Node, ORM, Hono, Temporal)', () => {
    const dir = path.resolve(import.meta.dirname, '../../chains');
    const imports: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const src = readFileSync(path.join(dir, file), 'utf8');
      for (const m of src.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm))
        imports.push(`${file}: ${m[1]}`);
      for (const m of src.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]/g)) imports.push(`${file}: ${m[1]}`);
    }
    expect(imports.length).toBeGreaterThan(10);
    const outside = imports.filter((i) => !i.split(': ')[1].startsWith('./'));
    expect(outside.every((i) => ['jsep', 're2js', 'zod'].includes(i.split(': ')[1]))).toBe(true);
    expect(imports.filter((i) => /: (node:|@mikro-orm|hono|@hono|@temporalio|pg$|pino$|\.\.\/)/.test(i))).toEqual([]);
  });
});
