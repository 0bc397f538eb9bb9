// HTTP triggers (docs/rule-chains.md "HTTP hooks"): a chain's `endpoint/http` (and the older `http`)
// routers become routes under `${RULE_ENGINE_PREFIX}/api/v1/hooks/{tenantId}/{chainId}/{path}`. The
// caller proves itself with the chain's hook secret (the signing scheme of the service's own
// webhooks, src/infra/outbound/signing.ts) or with a JWT of that tenant holding execute permission.
import { timingSafeEqual } from 'node:crypto';
import type { EndpointDsl, RouterDsl, RuleChainDsl } from '../../chains/types.js';
import { AppError } from '../errors.js';
import { signature } from '../infra/outbound/signing.js';

export const HTTP_ENDPOINTS = new Set(['endpoint/http', 'http']);

/** How far a signed request's timestamp may be from the server's clock. */
export const HOOK_TOLERANCE_SECONDS = 300;

export interface MatchedRoute {
  endpoint: EndpointDsl;
  router: RouterDsl;
  /** `:name` segments of the router's path, by name. */
  params: Record<string, string>;
  wait: boolean;
  /** `to.path` of `chainId:nodeId`: the run starts at that node. */
  fromNodeId?: string;
}

const segments = (p: string) => p.split('/').filter(Boolean);

/** `/orders/:id` against `/orders/42` → {id: '42'}; a trailing `*` takes the rest; null when it does not match. */
function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = segments(pattern);
  const got = segments(path);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === '*' && i === want.length - 1) return params;
    const g = got[i];
    if (g === undefined) return null;
    if (w.startsWith(':')) params[w.slice(1)] = g;
    else if (w !== g) return null;
  }
  return got.length === want.length ? params : null;
}

/** The chain's HTTP router for this method and path (the router's `params[0]` is its method, POST by default). */
export function matchHookRoute(chain: RuleChainDsl, method: string, path: string): MatchedRoute | null {
  for (const endpoint of (chain.metadata?.endpoints ?? []) as EndpointDsl[]) {
    if (!HTTP_ENDPOINTS.has(endpoint.type)) continue;
    for (const router of endpoint.routers ?? []) {
      const routerMethod = String(router.params?.[0] ?? 'POST').toUpperCase();
      if (routerMethod !== method.toUpperCase()) continue;
      const params = matchPath(router.from?.path ?? '/', path);
      if (!params) continue;
      const to = router.to?.path ?? '';
      const nodeId = to.includes(':') ? to.slice(to.indexOf(':') + 1) : '';
      const known = nodeId && chain.metadata.nodes.some((n) => n.id === nodeId);
      return { endpoint, router, params, wait: router.to?.wait === true, ...(known ? { fromNodeId: nodeId } : {}) };
    }
  }
  return null;
}

const invalid = (why: string) =>
  new AppError('HOOK_SIGNATURE_INVALID', `The hook request is not signed with this chain’s secret: ${why}`);

/**
 * Checks `x-gflow-signature: sha256=<hex HMAC-SHA256(secret, `${x-gflow-timestamp}.${raw body}`)>`
 * with the timestamp (unix seconds) within ±HOOK_TOLERANCE_SECONDS; 401 otherwise.
 */
export function verifyHookSignature(
  secret: string,
  timestamp: string | undefined,
  header: string | undefined,
  rawBody: string,
  nowMs = Date.now(),
) {
  if (!timestamp || !header) throw invalid('x-gflow-timestamp and x-gflow-signature are required');
  if (!/^\d{1,12}$/.test(timestamp)) throw invalid('x-gflow-timestamp is not unix seconds');
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > HOOK_TOLERANCE_SECONDS)
    throw invalid(`x-gflow-timestamp is more than ${HOOK_TOLERANCE_SECONDS} s from the server’s clock`);
  const given = header.startsWith('sha256=') ? header.slice('sha256='.length) : header;
  const expected = Buffer.from(signature(secret, timestamp, rawBody), 'hex');
  const sent = /^[0-9a-f]{64}$/i.test(given) ? Buffer.from(given, 'hex') : Buffer.alloc(0);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected))
    throw invalid('the signature does not match');
}
