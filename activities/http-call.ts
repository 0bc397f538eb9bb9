// The httpCall activity: one request under the outbound network rules (src/infra/outbound/guard.ts).
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from './deps.js';
import { guardedRequest, RequestRefused, ResponseTooLarge, type HttpRequest } from '../src/infra/outbound/guard.js';
import { tenantTrust } from '../src/infra/outbound/network-trust.js';

const refuse = (message: string) => ApplicationFailure.nonRetryable(message, 'HTTP_CALL_REFUSED');

export function createHttpActivities(deps: ActivityDeps) {
  return {
    async httpCall(req: HttpRequest): Promise<{ status: number; body: unknown }> {
      const trust = req.tenantId ? await tenantTrust(deps.orm, req.tenantId) : null;
      const res = await guardedRequest(deps.config, req, trust).catch((err) => {
        if (err instanceof RequestRefused) throw refuse(err.message);
        throw ApplicationFailure.nonRetryable(
          err instanceof ResponseTooLarge ? err.message : `request failed: ${err?.message ?? err}`,
          'HTTP_CALL_FAILED',
        );
      });
      const text = res.text;
      let body: unknown = text;
      if (res.contentType.includes('json') && text) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      return { status: res.status, body };
    },
  };
}
