// The httpCall node's request: host allow-list, no loopback / link-local / private / metadata
// addresses unless configured, a timeout and a response size limit.
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from './index.js';

export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  allowedHosts: string[] | null;
}

function privateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number);
    return a === 127 || a === 10 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  const v6 = ip.toLowerCase();
  if (v6.startsWith('::ffff:')) return privateAddress(v6.slice(7));
  return v6 === '::1' || v6 === '::' || v6.startsWith('fe80') || v6.startsWith('fc') || v6.startsWith('fd');
}

const refuse = (message: string) => ApplicationFailure.nonRetryable(message, 'HTTP_CALL_REFUSED');

export function createHttpActivities(deps: ActivityDeps) {
  const allowPrivate = new Set(deps.config.HTTP_CALL_ALLOW_PRIVATE_HOSTS.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean));
  return {
    async httpCall(req: HttpRequest): Promise<{ status: number; body: unknown }> {
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        throw refuse(`invalid URL: ${req.url}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`only http and https are allowed, not ${url.protocol}`);
      const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      if (req.allowedHosts?.length && !req.allowedHosts.map((h) => h.toLowerCase()).includes(host)) {
        throw refuse(`host ${host} is not in the node's allowedHosts`);
      }
      if (host === 'metadata.google.internal') throw refuse('metadata addresses are refused');
      const addresses = net.isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
      if (!deps.config.HTTP_CALL_ALLOW_PRIVATE && !allowPrivate.has(host)) {
        const bad = addresses.find(privateAddress);
        if (bad) throw refuse(`${host} resolves to ${bad}, a loopback, private, link-local or metadata address`);
      }
      const res = await fetch(url, {
        method: req.method,
        headers: req.headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
        signal: AbortSignal.timeout(req.timeoutMs),
        redirect: 'manual',
      }).catch((err) => {
        throw ApplicationFailure.nonRetryable(`request failed: ${err?.cause?.message ?? err?.message ?? err}`, 'HTTP_CALL_FAILED');
      });
      const max = deps.config.HTTP_CALL_MAX_RESPONSE_BYTES;
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of res.body ?? []) {
        size += chunk.length;
        if (size > max) throw ApplicationFailure.nonRetryable(`response larger than ${max} bytes`, 'HTTP_CALL_FAILED');
        chunks.push(chunk);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      if ((res.headers.get('content-type') ?? '').includes('json') && text) {
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
