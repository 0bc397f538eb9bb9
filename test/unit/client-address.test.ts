import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../src/http/client-address.js';

const ctx = (xff: string | undefined, socket = '10.0.0.9') =>
  ({
    env: { incoming: { socket: { remoteAddress: socket } } },
    req: { header: (n: string) => (n.toLowerCase() === 'x-forwarded-for' ? xff : undefined) },
  }) as any;

describe('clientAddress', () => {
  it('ignores X-Forwarded-For without trusted proxies', () => {
    expect(clientAddress(ctx('1.2.3.4'), 0)).toBe('10.0.0.9');
    expect(clientAddress(ctx(undefined), 0)).toBe('10.0.0.9');
  });

  it('takes the Nth address from the right behind N proxies', () => {
    expect(clientAddress(ctx('6.6.6.6, 1.2.3.4'), 1)).toBe('1.2.3.4');
    expect(clientAddress(ctx('6.6.6.6, 1.2.3.4, 10.0.0.2'), 2)).toBe('1.2.3.4');
    expect(clientAddress(ctx('1.2.3.4'), 3)).toBe('1.2.3.4');
    expect(clientAddress(ctx(''), 1)).toBe('10.0.0.9');
  });
});
