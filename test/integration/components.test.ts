import { beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../helpers/api.js';

describe('components', () => {
  let token: string;
  beforeAll(async () => {
    token = await login('alice', 'demo', 'demo');
  });

  it('lists the components of both scopes', async () => {
    for (const scope of ['bpm', 'rulechain']) {
      const res = await api(`/api/v1/components?scope=${scope}`, { token });
      expect(res.status, scope).toBe(200);
      expect(res.body.code).toBe(0);
      expect(res.body.data.length, scope).toBeGreaterThan(0);
      for (const c of res.body.data) {
        expect(typeof c.type).toBe('string');
        expect(typeof c.name).toBe('string');
        expect(typeof c.description).toBe('string');
        expect(c).toHaveProperty('configSchema');
      }
    }
    const bpm = (await api('/api/v1/components?scope=bpm', { token })).body.data.map((c: any) => c.type);
    expect(bpm).toEqual(expect.arrayContaining(['startTask', 'userTask', 'switch', 'end']));
  });

  it('lists every rule-chain node with its RuleGo form, labels in the caller’s language', async () => {
    const chain = (await api('/api/v1/components?scope=rulechain', { token })).body.data as any[];
    const types = chain.map((c) => c.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'jsFilter',
        'jsTransform',
        'exprFilter',
        'switch',
        'restApiCall',
        'delay',
        'fork',
        'join',
      ]),
    );
    expect(types).toEqual(expect.arrayContaining(['flow', 'functions', 'startProcess', 'log', 'msgTypeSwitch']));
    // Process nodes are the bpm palette's, not the chain's.
    expect(types).not.toContain('userTask');
    const js = chain.find((c) => c.type === 'jsFilter');
    expect(js.form.type).toBe('jsFilter');
    expect(js.form.fields.map((f: any) => f.name)).toContain('jsScript');
    const zh = (await api('/api/v1/components?scope=rulechain', { token, headers: { 'Accept-Language': 'zh-CN' } }))
      .body.data as any[];
    expect(zh.find((c) => c.type === 'jsFilter').name).not.toBe(js.name);
  });

  it('refuses a missing or unknown scope with 400 and needs a token', async () => {
    expect((await api('/api/v1/components?scope=other', { token })).status).toBe(400);
    expect((await api('/api/v1/components', { token })).status).toBe(400);
    expect((await api('/api/v1/components?scope=bpm')).status).toBe(401);
  });
});
