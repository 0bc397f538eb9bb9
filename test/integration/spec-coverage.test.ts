// Every path of the interface specification (listed in docs/spec-coverage.md) is served and documented.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/api.js';

const coverageFile = path.resolve(import.meta.dirname, '../..', 'docs', 'spec-coverage.md');

/** The `| METHOD | `/api/...` | … |` rows of docs/spec-coverage.md, paths complete. */
function specEndpoints(): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  for (const line of readFileSync(coverageFile, 'utf8').split('\n')) {
    const row = line.match(/^\| (GET|POST|PUT|DELETE|PATCH) \| `([^`]+)` \|/);
    if (row) out.push({ method: row[1].toLowerCase(), path: row[2] });
  }
  return out;
}

describe('interface specification coverage', () => {
  it('documents every endpoint of the specification in /openapi.json', async () => {
    const endpoints = specEndpoints();
    expect(endpoints).toHaveLength(134); // every row of the endpoint tables (the specification's and our extensions)
    expect(new Set(endpoints.map((e) => `${e.method} ${e.path}`)).size).toBe(endpoints.length);
    expect(endpoints.every((e) => e.path.startsWith('/api/v1/'))).toBe(true);
    const spec = (await api('/openapi.json')).body as any;
    const paths: Record<string, Record<string, unknown>> = spec.paths;
    const norm = (p: string) => p.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '');
    const served = new Set(Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${norm(p)}`)));
    const missing = endpoints
      .filter((e) => !served.has(`${e.method} ${norm(e.path)}`))
      .map((e) => `${e.method.toUpperCase()} ${e.path}`);
    expect(missing).toEqual([]);
  });

  it('answers every one of them with the envelope (401 without a token, never 404 or 500)', async () => {
    for (const e of specEndpoints()) {
      const url = e.path.replace(/\{[^}]+\}/g, 'x').replace('/ws/notifications', '/ws/notifications');
      if (e.path.includes('/ws/')) continue;
      const res = await api(url, { method: e.method.toUpperCase(), body: e.method === 'get' ? undefined : {} });
      expect(res.status, `${e.method} ${e.path}`).toBe(401);
      // The approval-link paths need no login: the path's token is refused (docs/spec-coverage.md).
      expect(res.body.code, `${e.method} ${e.path}`).toBe(e.path.startsWith('/api/v1/approve-links/') ? 40170 : 40100);
    }
  });
});
