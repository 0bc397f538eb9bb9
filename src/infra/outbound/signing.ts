// How the service signs what it posts to a tenant's webhook (docs/service-functions.md): webhook
// service functions and the generic webhook channel alike, so a receiver checks both one way.
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-gflow-signature';
export const TIMESTAMP_HEADER = 'x-gflow-timestamp';
export const CALL_ID_HEADER = 'x-gflow-call-id';

/** hex HMAC-SHA256 of `${timestamp}.${body}` under the entry's secret. */
export function signature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}
