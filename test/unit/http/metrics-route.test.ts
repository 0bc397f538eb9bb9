// GET /metrics on the API port exists only with METRICS_TOKEN: the document lists it exactly when
// the server serves it, and then a request without the token is the 401 its security promises.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { AppDeps } from '../../../src/context.js';
import { createApp } from '../../../src/main/app.js';
import { createLogger } from '../../../src/observability/logger.js';

const unused = new Proxy(
  {},
  {
    get: () => {
      throw new Error('not needed');
    },
  },
);
const app = (env: Record<string, string>) => {
  const { METRICS_TOKEN: _ignored, ...rest } = process.env;
  return createApp({
    config: loadConfig({ ...rest, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }),
    logger: createLogger('silent', 'metrics-route'),
    orm: unused,
    temporal: unused,
    tokens: unused,
  } as unknown as AppDeps);
};

describe('GET /metrics on the API port', () => {
  it('without METRICS_TOKEN: not in the document, answered like any unknown path', async () => {
    const a = app({});
    const doc = await (await a.request('/openapi.json')).json();
    expect(doc.paths['/metrics']).toBeUndefined();
    // An unknown path: 404, or the console's page where the console is built (its fallback for
    // every path outside the API) — never the metrics.
    const res = await a.request('/metrics');
    expect([200, 404]).toContain(res.status);
    const body = await res.text();
    expect(body).not.toContain('# HELP');
    if (res.status === 404) expect(JSON.parse(body).code).toBe(40401);
    else expect(body).toContain('<!doctype html>');
  });

  it('with METRICS_TOKEN: in the document; 401 without the token or with another, 200 with it', async () => {
    const token = 'a-metrics-token-of-32-characters';
    const a = app({ METRICS_TOKEN: token });
    const doc = await (await a.request('/openapi.json')).json();
    expect(doc.paths['/metrics'].get.security).toEqual([{ metricsToken: [] }]);
    expect(Object.keys(doc.paths['/metrics'].get.responses).sort()).toEqual(['200', '401']);
    expect((await a.request('/metrics')).status).toBe(401);
    expect((await a.request('/metrics', { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    const ok = await a.request('/metrics', { headers: { Authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('# HELP');
  });
});
