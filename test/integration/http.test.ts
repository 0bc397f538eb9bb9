import { describe, expect, it } from 'vitest';
import { api, baseUrl, login } from '../helpers/api.js';

describe('HTTP contract', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await api('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await api('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { postgres: true, temporal: true } });
  });

  it('answers an unknown route with an envelope 404', async () => {
    const res = await api('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 40401, data: null });
    expect(res.body.message).toContain('/api/v1/nothing-here');
  });

  it('refuses unknown fields with 400 and names them', async () => {
    const token = await login('admin', 'admin', 'demo');
    const res = await api('/api/v1/roles', { token, body: { code: 'x1', name: 'X', colour: 'red' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40003);
    expect(res.body.message).toContain('colour');
    expect((await api('/api/v1/roles/x1', { token })).status).toBe(404);
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await api('/api/v1/auth/login', {
      raw: '{"username": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, data: null });
  });

  it('refuses a body over the limit with 413', async () => {
    const big = JSON.stringify({ username: 'a'.repeat(1024 * 1024 + 10), password: 'x' });
    const res = await api('/api/v1/auth/login', { raw: big, headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(41300);
  });

  it('counts a chunked body (no Content-Length) as it arrives: over the limit 413, under it read as usual', async () => {
    // A stream body goes out with Transfer-Encoding: chunked.
    const chunked = (text: string) =>
      fetch(`${baseUrl()}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: new Blob([text]).stream(),
        duplex: 'half',
      } as RequestInit);
    const over = await chunked(JSON.stringify({ username: 'a'.repeat(1024 * 1024 + 10), password: 'x' }));
    expect(over.status).toBe(413);
    expect((await over.json()).code).toBe(41300);
    const under = await chunked(JSON.stringify({ username: 'admin', password: 'admin', tenantId: 'demo' }));
    expect(under.status).toBe(200);
    expect((await under.json()).data.accessToken).toEqual(expect.any(String));
  });

  it('refuses pageSize above 200 with 400', async () => {
    const token = await login('admin', 'admin', 'demo');
    expect((await api('/api/v1/users?pageSize=201', { token })).status).toBe(400);
    const ok = await api('/api/v1/users?pageSize=2&page=2', { token });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ page: 2, pageSize: 2 });
    expect(ok.body.data.items).toHaveLength(2);
    expect(ok.body.data.total).toBe(8);
  });

  it('marks every API answer, success or refusal, as not to be stored by a browser or proxy', async () => {
    const token = await login('admin', 'admin', 'demo');
    for (const res of [
      await api('/api/v1/users?pageSize=2', { token }),
      await api('/api/v1/auth/me', { token }),
      await api('/api/v1/users'),
      await api('/api/v1/nothing-here'),
    ])
      expect(res.headers.get('cache-control'), String(res.status)).toBe('no-store');
  });

  it('gives every response a request id', async () => {
    const res = await api('/healthz');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('serves the OpenAPI 3.1 document and the docs page', async () => {
    const doc = await api('/openapi.json');
    expect(doc.status).toBe(200);
    const spec = doc.body as any;
    expect(spec.openapi).toBe('3.1.0');
    for (const p of [
      '/api/v1/auth/login',
      '/api/v1/users',
      '/api/v1/users/{id}',
      '/api/v1/departments',
      '/api/v1/roles/{code}',
      '/api/v1/tenants',
      '/readyz',
    ]) {
      expect(spec.paths[p], p).toBeDefined();
    }
    expect(spec.paths['/api/v1/auth/login'].post.requestBody.content['application/json'].schema).toBeDefined();
    expect(spec.components.securitySchemes.bearerAuth.scheme).toBe('bearer');
    const html = await fetch(`${baseUrl()}/docs`);
    expect(await html.text()).toContain('swagger-ui-bundle.js');
    const js = await fetch(`${baseUrl()}/docs/swagger-ui-bundle.js`);
    expect(js.status).toBe(200);
  });
});
