// The component forms (RuleGo's ComponentForm shape, en and zh-CN) and the rulechain catalogue
// with a JSON Schema per node: every node the runner knows, each key RuleGo reads, defaults that
// validate.
import { describe, expect, it } from 'vitest';
import {
  CHAIN_NODE_TYPES,
  chainComponentCatalogue,
  componentForms,
  NODE_SPECS,
  validateChain,
  type RuleChainDsl,
} from '../../chains/index.js';

const NODE_TYPES = [
  'jsFilter',
  'jsTransform',
  'jsSwitch',
  'log',
  'exprFilter',
  'exprTransform',
  'switch',
  'msgTypeSwitch',
  'restApiCall',
  'delay',
  'fork',
  'join',
  'flow',
  'functions',
  'startProcess',
];

describe('componentForms', () => {
  it('lists every node and endpoint of the issue, in both languages', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      const forms = componentForms(locale);
      expect(forms.nodes.map((f) => f.type)).toEqual(NODE_TYPES);
      expect(forms.endpoints.map((f) => f.type)).toEqual([
        'endpoint/http',
        'http',
        'endpoint/schedule',
        'endpoint/processEvent',
      ]);
    }
    expect(CHAIN_NODE_TYPES).toEqual(NODE_TYPES);
  });

  it('has RuleGo ComponentForm keys and labels that differ by language', () => {
    const en = componentForms('en').nodes;
    const zh = componentForms('zh-CN').nodes;
    for (const [i, form] of en.entries()) {
      expect(Object.keys(form).sort()).toEqual(
        [
          'category',
          'componentKind',
          'desc',
          'disabled',
          'fields',
          'icon',
          'ignoredFields',
          'label',
          'relationTypes',
          'type',
          'version',
        ].sort(),
      );
      expect(form.label).not.toBe(zh[i].label);
      expect(zh[i].label).toMatch(/[\u4e00-\u9fff]/);
      for (const [j, field] of form.fields.entries()) {
        expect(Object.keys(field).sort()).toEqual([
          'component',
          'defaultValue',
          'desc',
          'fields',
          'label',
          'name',
          'required',
          'rules',
          'type',
          'validate',
        ]);
        expect(zh[i].fields[j].desc).toMatch(/[\u4e00-\u9fff]|^\$|^e\.g/);
      }
    }
  });

  it('carries RuleGo keys and defaults', () => {
    const form = (type: string) => componentForms('en').nodes.find((f) => f.type === type)!;
    const defaults = (type: string) => Object.fromEntries(form(type).fields.map((f) => [f.name, f.defaultValue]));
    expect(defaults('restApiCall')).toEqual({
      restEndpointUrlPattern: '',
      requestMethod: 'POST',
      withoutRequestBody: false,
      headers: { 'Content-Type': 'application/json' },
      body: '',
      readTimeoutMs: 2000,
    });
    expect(form('restApiCall').ignoredFields).toEqual(
      expect.arrayContaining(['maxParallelRequestsCount', 'enableProxy', 'proxyHost', 'insecureSkipVerify']),
    );
    expect(defaults('join')).toEqual({ timeout: 0, mergeToMap: false });
    expect(defaults('delay')).toEqual({ delayMs: '60000', periodInSeconds: 0, periodInSecondsPattern: '' });
    expect(form('delay').ignoredFields).toEqual(['maxPendingMsgs', 'overwrite']);
    expect(defaults('functions')).toEqual({ functionName: '', param: '' });
    expect(form('delay').fields.map((f) => f.name)).toEqual(['delayMs', 'periodInSeconds', 'periodInSecondsPattern']);
    expect(defaults('flow')).toEqual({ targetId: '', extend: false });
    expect(Object.keys(defaults('startProcess'))).toEqual(['processKey', 'initiator', 'businessKey', 'variables']);
    expect(Object.keys(defaults('exprTransform'))).toEqual(['expr', 'mapping']);
    expect(defaults('switch').cases).toEqual([{ case: 'msg.temperature>=20 && msg.temperature<=50', then: 'Case1' }]);
    expect(form('exprFilter').fields[0].rules).toEqual([{ required: true, message: 'Required' }]);
    expect(form('exprFilter').fields[0].required).toBe(true);
    expect(componentForms('en').endpoints.every((f) => f.componentKind === 'ec')).toBe(true);
    expect(componentForms('en').nodes.every((f) => f.componentKind === 'nc')).toBe(true);
  });

  it('gives the relations a node emits; computed ones are left to the user (empty)', () => {
    const rel = Object.fromEntries(componentForms('en').nodes.map((f) => [f.type, f.relationTypes]));
    expect(rel.exprFilter).toEqual(['True', 'False', 'Failure']);
    expect(rel.jsFilter).toEqual(['True', 'False', 'Failure']);
    expect(rel.restApiCall).toEqual(['Success', 'Failure']);
    expect(rel.switch).toEqual([]);
    expect(rel.msgTypeSwitch).toEqual([]);
    expect(rel.jsSwitch).toEqual([]);
  });
});

describe('chainComponentCatalogue', () => {
  it('describes each node with a JSON Schema of its configuration and its form', () => {
    const catalogue = chainComponentCatalogue('en');
    expect(catalogue.map((c) => c.type)).toEqual(NODE_TYPES);
    const rest = catalogue.find((c) => c.type === 'restApiCall')!;
    expect(rest.configSchema).toMatchObject({
      type: 'object',
      required: ['restEndpointUrlPattern'],
      additionalProperties: true,
      properties: {
        requestMethod: {
          type: 'string',
          default: 'POST',
          enum: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'],
        },
        readTimeoutMs: { type: 'integer', minimum: 0, default: 2000 },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        proxyHost: { deprecated: true },
      },
    });
    expect(rest.form.type).toBe('restApiCall');
    expect(chainComponentCatalogue('zh-CN').find((c) => c.type === 'join')!.name).toBe('汇聚');
    const sw = catalogue.find((c) => c.type === 'switch')!.configSchema as {
      properties: { cases: { items: unknown } };
    };
    expect(sw.properties.cases.items).toMatchObject({ required: ['case', 'then'] });
  });

  it('has defaults that validate: a chain of every node configured with its form defaults saves', () => {
    const configured: Record<string, Record<string, unknown>> = {
      restApiCall: { restEndpointUrlPattern: 'https://example.com/hook' },
      exprFilter: { expr: 'msg.ok == true' },
      exprTransform: { expr: 'msg' },
      flow: { targetId: 'other' },
      functions: { functionName: 'f' },
      startProcess: { processKey: 'p', initiator: 'u' },
    };
    const nodes = NODE_SPECS.map((spec, i) => ({
      id: `n${i}`,
      type: spec.type,
      configuration: {
        ...Object.fromEntries(
          spec.fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.name, f.defaultValue]),
        ),
        ...configured[spec.type],
      },
    }));
    const chain: RuleChainDsl = { ruleChain: { id: 'all', name: 'all' }, metadata: { nodes } };
    expect(validateChain(chain, { checkScript: () => null })).toEqual([]);
  });
});
