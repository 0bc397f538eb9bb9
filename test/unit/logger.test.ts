import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, safeUrl } from '../../src/observability/logger.js';

describe('logger', () => {
  it('never writes passwords or tokens', () => {
    const lines: string[] = [];
    const logger = createLogger(
      'info',
      'test',
      new Writable({
        write(chunk, _e, cb) {
          lines.push(chunk.toString());
          cb();
        },
      }),
    );
    logger.info(
      {
        password: 'hunter2',
        body: { password: 'hunter3' },
        token: 'tkn',
        accessToken: 'abc.def.ghi',
        req: { headers: { authorization: 'Bearer xyz' } },
      },
      'login',
    );
    const out = lines.join('');
    for (const secret of ['hunter2', 'hunter3', 'tkn', 'abc.def.ghi', 'Bearer xyz']) expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
  });

  it('strips tokens from URLs', () => {
    expect(safeUrl('/api/v1/ws/notifications?token=abc.def&x=1')).toBe('/api/v1/ws/notifications?token=[redacted]&x=1');
  });
});
