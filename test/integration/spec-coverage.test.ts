// Every path of the interface specification (../shared/SPEC.md §4) is served and documented.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/api.js';

const specFile = path.resolve(import.meta.dirname, '../../..', 'shared', 'SPEC.md');

/** `| METHOD | /path | … |` rows under each "base path `…`" heading of §4. */
function specEndpoints(): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  let base = '';
  for (const line of readFileSync(specFile, 'utf8').split('\n')) {
    const heading = line.match(/^### .*base path `([^`]+)`/);
    if (heading) base = heading[1];
    else if (line.startsWith('### ')) base = '';
    const row = line.match(/^\| (GET|POST|PUT|DELETE|PATCH) \| `([^`]+)` \|/);
    if (!row) continue;
    const p = row[2].startsWith('/api/') ? row[2] : `${base}${row[2] === '/' ? '' : row[2]}`;
    if (!p.startsWith('/api/')) continue;
    out.push({ method: row[1].toLowerCase(), path: p.replace(/\{taskId\}/g, '{id}') });
  }
  return out;
}

describe.runIf(existsSync(specFile))('interface specification coverage', () => {
  it('documents every endpoint of SPEC.md §4 in /openapi.json', async () => {
    const endpoints = specEndpoints();
    expect(endpoints.length).toBeGreaterThan(60);
    const spec = (await api('/openapi.json')).body as any;
    const paths: Record<string, Record<string, unknown>> = spec.paths;
    const norm = (p: string) => p.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '');
    const served = new Set(Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${norm(p)}`)));
    const missing = endpoints.filter((e) => !served.has(`${e.method} ${norm(e.path)}`)).map((e) => `${e.method.toUpperCase()} ${e.path}`);
    expect(missing).toEqual([]);
  });

  it('answers every one of them with the envelope (401 without a token, never 404 or 500)', async () => {
    for (const e of specEndpoints()) {
      const url = e.path.replace(/\{[^}]+\}/g, 'x').replace('/ws/notifications', '/ws/notifications');
      if (e.path.includes('/ws/')) continue;
      const res = await api(url, { method: e.method.toUpperCase(), body: e.method === 'get' ? undefined : {} });
      expect(res.status, `${e.method} ${e.path}`).toBe(401);
      expect(res.body.code, `${e.method} ${e.path}`).toBe(40100);
    }
  });
});
