import { describe, expect, it } from 'vitest';
import { bodyHash, idempotencyScope } from '../../src/http/idempotency.js';

describe('idempotency scope and body hash', () => {
  const base = { tenantId: 't1', userId: 'bob', method: 'POST', path: '/api/v1/workflow/tasks/x/approve', key: 'K' };

  it('every part of the scope makes another scope', () => {
    const scope = idempotencyScope(base);
    expect(scope).toMatch(/^[0-9a-f]{64}$/);
    expect(idempotencyScope({ ...base, method: 'post' })).toBe(scope);
    for (const change of [
      { tenantId: 't2' },
      { userId: 'carol' },
      { method: 'PUT' },
      { path: '/api/v1/workflow/tasks/y/approve' },
      { key: 'K2' },
    ]) {
      expect(idempotencyScope({ ...base, ...change }), JSON.stringify(change)).not.toBe(scope);
    }
    // No field bleeds into the next one.
    expect(idempotencyScope({ ...base, userId: 'bo', path: `b${base.path}` })).not.toBe(scope);
  });

  it('hashes the body canonically: key order does not matter, values do', () => {
    expect(bodyHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(bodyHash({ b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(bodyHash({ a: 1 })).not.toBe(bodyHash({ a: 2 }));
    expect(bodyHash({ a: [1, 2] })).not.toBe(bodyHash({ a: [2, 1] }));
    expect(bodyHash(undefined)).toBe(bodyHash({}));
    expect(bodyHash({ a: undefined })).toBe(bodyHash({}));
  });
});
