// The console's static mount (src/http/ui-static.ts): SPA fallback for pages, assets with
// cache headers and gzip copies, and API / docs / health paths left to the app.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uiStatic } from '../../src/http/ui-static.js';

let app: Hono;
const saved = process.env.UI_DIST_DIR;

beforeAll(() => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ui-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body><div id="app"></div></body></html>',
  );
  writeFileSync(path.join(dir, 'assets/app-123.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'assets/app-123.js.gz'), gzipSync('console.log(1)'));
  process.env.UI_DIST_DIR = dir;
  app = new Hono();
  app.get('/api/v1/known', (c) => c.json({ ok: true }));
  app.use('*', uiStatic({ temporalUiUrl: 'http://t.example:8233', namespace: 'ns' }));
  app.notFound((c) => c.json({ code: 40401 }, 404));
});
afterAll(() => {
  if (saved === undefined) delete process.env.UI_DIST_DIR;
  else process.env.UI_DIST_DIR = saved;
});

describe('ui-static', () => {
  it('answers pages with index.html carrying the Temporal UI address', async () => {
    for (const p of ['/', '/inbox/todo', '/instances/abc']) {
      const res = await app.request(p);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<div id="app">');
      expect(html).toContain('content="http://t.example:8233"');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache, gzipped when accepted', async () => {
    const plain = await app.request('/assets/app-123.js');
    expect(plain.status).toBe(200);
    expect(await plain.text()).toBe('console.log(1)');
    expect(plain.headers.get('cache-control')).toContain('immutable');
    const gz = await app.request('/assets/app-123.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
  });

  it('leaves API, docs, health and missing files to the app', async () => {
    expect((await app.request('/api/v1/known')).status).toBe(200);
    for (const p of [
      '/api/v1/unknown',
      '/api',
      '/openapi.json',
      '/docs',
      '/healthz',
      '/readyz',
      '/assets/missing.js',
    ]) {
      const res = await app.request(p);
      expect(res.status, p).toBe(404);
      expect(await res.json()).toEqual({ code: 40401 });
    }
    expect((await app.request('/inbox', { method: 'POST' })).status).toBe(404);
  });
});
