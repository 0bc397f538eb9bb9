// Catalogue service functions of kind webhook (docs/service-functions.md): a signed POST under the
// same network rules as httpCall. Activity-kind functions need nothing here: the workflow schedules
// them on the entry's own task queue, where the tenant's worker serves them.
import { ApplicationFailure } from '@temporalio/common';
import { redactSecrets, urlSecrets } from '../src/shapes.js';
import { guardedRequest, RequestRefused } from '../src/infra/outbound/guard.js';
import type { ActivityDeps } from './deps.js';
import { tenantTrust } from '../src/infra/outbound/network-trust.js';
import { CALL_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signature } from '../src/infra/outbound/signing.js';

/** What every catalogue function receives (the activity's argument, the webhook's body). */
export interface FunctionCall {
  instanceId: string;
  nodeId: string;
  businessKey: string | null;
  variables: Record<string, unknown>;
  param: unknown;
  /** The same on every retry and re-drive of one visit of the node: receivers de-duplicate by it. */
  callId: string;
}

export interface WebhookCallInput {
  tenantId: string;
  functionId: string;
  functionName: string;
  url: string;
  timeoutMs: number;
  call: FunctionCall;
}

const failed = (message: string) => ApplicationFailure.retryable(message, 'SERVICE_FUNCTION');
const final = (message: string) => ApplicationFailure.nonRetryable(message, 'SERVICE_FUNCTION');

export function createServiceFunctionActivities(deps: ActivityDeps) {
  return {
    /**
     * One attempt of a webhook function: a 2xx answer with a JSON object (or nothing) is its result;
     * any other answer or a transport failure is a failed attempt (retried per the entry's policy); a
     * refused address or a removed entry is final.
     */
    async callWebhook(input: WebhookCallInput): Promise<Record<string, unknown>> {
      // The secret never travels through workflow history: read here, by entry id, at call time.
      const [row] = await deps.orm.em
        .fork()
        .execute<Array<{ secret: string | null }>>(
          'select secret from service_functions where id = ? and tenant_id = ?',
          [input.functionId, input.tenantId],
        );
      if (!row?.secret) throw final(`${input.functionName} is no longer in the service-function catalogue`);
      // An error text may come from the receiver (an echo of the request): it never carries a
      // credential of the URL (a secret query parameter) into the trail, a log line or the history.
      const redact = (text: string) => redactSecrets(text, urlSecrets(input.url));
      const body = JSON.stringify(input.call);
      // A fresh timestamp per attempt: receivers refuse old ones (replays).
      const timestamp = String(Math.floor(Date.now() / 1000));
      const res = await guardedRequest(
        deps.config,
        {
          url: input.url,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [TIMESTAMP_HEADER]: timestamp,
            [SIGNATURE_HEADER]: `sha256=${signature(row.secret, timestamp, body)}`,
            [CALL_ID_HEADER]: input.call.callId,
          },
          body,
          timeoutMs: input.timeoutMs,
          allowedHosts: null,
        },
        await tenantTrust(deps.orm, input.tenantId),
      ).catch((err) => {
        if (err instanceof RequestRefused) throw final(redact(err.message));
        throw failed(redact(`request failed: ${err?.message ?? err}`));
      });
      if (res.status < 200 || res.status > 299)
        throw failed(redact(`answered ${res.status}${res.text ? `: ${res.text.slice(0, 200)}` : ''}`));
      if (!res.text.trim()) return {};
      let answer: unknown;
      try {
        answer = JSON.parse(res.text);
      } catch {
        throw failed('answered something that is not JSON');
      }
      if (!answer || typeof answer !== 'object' || Array.isArray(answer))
        throw failed('answered JSON that is not an object');
      return answer as Record<string, unknown>;
    },
  };
}
