// The console's Content-Security-Policy (docs/console.md "Content-Security-Policy"), on the whole
// app object (no server, no database): every console HTML answer — `/` and any SPA route — carries
// it with the expected directives, and so do the console's assets; /docs has its own (no inline
// script nor inline style there); the API's JSON answers carry none (they are not documents the console runs).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { AppDeps } from '../../../src/context.js';
import { createApp } from '../../../src/main/app.js';
import { createLogger } from '../../../src/observability/logger.js';

const saved = process.env.UI_DIST_DIR;
let app: ReturnType<typeof createApp>;

/** A policy header as directive → its sources. */
function directives(header: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

/** What the console's policy must say, directive by directive (and nothing else). */
const CONSOLE = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'frame-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

beforeAll(() => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ui-dist-csp-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>x</title>' +
      '<script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="app"></div></body></html>',
  );
  writeFileSync(path.join(dir, 'assets/index-1.js'), 'console.log(1)');
  process.env.UI_DIST_DIR = dir;
  const unused = new Proxy(
    {},
    {
      get: () => {
        throw new Error('no dependency expected');
      },
    },
  );
  app = createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    logger: createLogger('silent', 'console-csp-test'),
    orm: unused,
    temporal: unused,
    tokens: unused,
  } as unknown as AppDeps);
});
afterAll(() => {
  if (saved === undefined) delete process.env.UI_DIST_DIR;
  else process.env.UI_DIST_DIR = saved;
});

describe('the console Content-Security-Policy', () => {
  it('is on / and every SPA route, with exactly the expected directives', async () => {
    for (const p of ['/', '/tasks', '/inbox/todo', '/instances/abc', '/admin/notifications/templates', '/settings']) {
      const res = await app.request(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toContain('text/html');
      expect(await res.text(), p).toContain('<div id="app">');
      const policy = directives(res.headers.get('content-security-policy'));
      expect(Object.fromEntries(policy), p).toEqual(CONSOLE);
    }
  });

  it('allows no inline script, no eval and no other origin for scripts, styles, images, calls or frames', async () => {
    const policy = directives((await app.request('/')).headers.get('content-security-policy'));
    for (const d of ['default-src', 'script-src', 'style-src', 'img-src', 'connect-src']) {
      const sources = policy.get(d)!;
      expect(sources, d).not.toContain('*');
      expect(sources, d).not.toContain('https:');
      expect(sources, d).not.toContain('http:');
    }
    expect(policy.get('script-src')).toEqual(["'self'"]); // no 'unsafe-inline', 'unsafe-eval', data: or blob:
    expect(policy.has('script-src-elem')).toBe(false);
    expect(policy.has('script-src-attr')).toBe(false);
  });

  it('is on HEAD answers and on the hashed assets too', async () => {
    const head = await app.request('/inbox/todo', { method: 'HEAD' });
    expect(directives(head.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
    const asset = await app.request('/assets/index-1.js');
    expect(asset.status).toBe(200);
    expect(Object.fromEntries(directives(asset.headers.get('content-security-policy')))).toEqual(CONSOLE);
  });

  it('is not on the API’s JSON answers (nor on /openapi.json)', async () => {
    for (const p of ['/api/v1/auth/me', '/api/v1/no-such-thing', '/openapi.json', '/assets/missing.js']) {
      const res = await app.request(p);
      expect(res.headers.get('content-type'), p).toContain('application/json');
      expect(res.headers.get('content-security-policy'), p).toBeNull();
    }
  });

  it('/docs has its own: scripts from self only (the start-up script is a file), nothing framed or framing', async () => {
    const res = await app.request('/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    // No inline script left in the page: every <script> has a src.
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(html).toContain('<script src="/docs/swagger-init.js"></script>');
    const policy = directives(res.headers.get('content-security-policy'));
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]); // Swagger UI needs no inline style
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    const init = await app.request('/docs/swagger-init.js');
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toContain('javascript');
    const script = await init.text();
    expect(script).toContain("url: '/openapi.json'");
    expect(script).toContain('validatorUrl: null');
  });
});
