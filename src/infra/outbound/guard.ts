// The guard of every outbound connection the service makes for a tenant (docs/http.md "Outbound
// network rules"): httpCall, webhook functions, AI agents, notification channels. Host allow-list,
// no loopback / link-local / private / metadata address unless configured, DNS resolved once and
// pinned, a timeout and a response size limit.
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Config } from '../../config.js';
import { addressClass, type NetworkTrust } from './network-trust.js';

export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  allowedHosts: string[] | null;
  /** Whose private-address allowlist applies (absent in calls scheduled before it existed). */
  tenantId?: string;
}

export class ResponseTooLarge extends Error {}

/** One request to the checked addresses only; the body is read up to `max` bytes. Redirects are not followed. */
function send(
  url: URL,
  req: HttpRequest,
  pinned: Array<{ address: string; family: number }>,
  max: number,
): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: req.method,
        headers: req.headers,
        signal: AbortSignal.timeout(req.timeoutMs),
        lookup: ((_host, options, done) =>
          options?.all ? done(null, pinned) : done(null, pinned[0].address, pinned[0].family)) as LookupFunction,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > max) request.destroy(new ResponseTooLarge(`response larger than ${max} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    if (req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD') request.write(req.body);
    request.end();
  });
}

/** A request refused by the network rules (the host, the scheme or the address): never worth retrying. */
export class RequestRefused extends Error {}

/**
 * Sends `req` under the network rules every outbound call of the service follows (httpCall and
 * webhook service functions): http(s) only, the allowed hosts, no loopback / private / link-local /
 * metadata address unless configured, DNS resolved once and pinned, a timeout and a response cap.
 * Throws RequestRefused before anything is sent; other errors are transport failures.
 */
export async function guardedRequest(
  config: Config,
  req: HttpRequest,
  trust: NetworkTrust | null = null,
): Promise<{ status: number; contentType: string; text: string }> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new RequestRefused(`invalid URL: ${req.url}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RequestRefused(`only http and https are allowed, not ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (req.allowedHosts?.length && !req.allowedHosts.map((h) => h.toLowerCase()).includes(host)) {
    throw new RequestRefused(`host ${host} is not in the node's allowedHosts`);
  }
  const addresses = await allowedAddresses(config, host, trust);
  return send(url, req, addresses, config.HTTP_CALL_MAX_RESPONSE_BYTES);
}

/**
 * The addresses `host` resolves to, once, each checked: loopback / private / link-local / metadata
 * addresses are refused (RequestRefused) unless HTTP_CALL_ALLOW_PRIVATE(_HOSTS) allows them; a
 * private one also when the tenant's allowlist (`trust`) names the host or the address. The
 * caller connects to exactly these, so no second DNS answer (rebinding) sends it elsewhere. Used by
 * every outbound connection of the service: httpCall, webhook functions, AI agents, notification channels.
 */
export async function allowedAddresses(
  config: Config,
  hostname: string,
  trust: NetworkTrust | null = null,
): Promise<Array<{ address: string; family: number }>> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowPrivate = new Set(
    config.HTTP_CALL_ALLOW_PRIVATE_HOSTS.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  if (host === 'metadata.google.internal') throw new RequestRefused('metadata addresses are refused');
  const family = net.isIP(host);
  // A lookup failure is a transport error (retried), not a refusal.
  const addresses = family ? [{ address: host, family }] : await lookup(host, { all: true });
  if (!config.HTTP_CALL_ALLOW_PRIVATE && !allowPrivate.has(host)) {
    const bad = addresses.find((a) => {
      const kind = addressClass(a.address);
      return kind === 'forbidden' || (kind === 'private' && !trust?.allows(host, a.address));
    });
    if (bad)
      throw new RequestRefused(
        `${host} resolves to ${bad.address}, a loopback, private, link-local or metadata address (a private one is reachable once the tenant's network allowlist names it)`,
      );
  }
  return addresses;
}
