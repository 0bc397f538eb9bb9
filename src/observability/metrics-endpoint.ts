// Where Prometheus scrapes a process: a listener of its own (METRICS_PORT, loopback unless
// METRICS_HOST says otherwise), optionally behind a bearer token (METRICS_TOKEN). The exposition is
// this process's registry followed by any extra sources (the worker appends the Temporal SDK's own
// metrics, which its Rust core serves on a loopback port of its own).
import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from './logger.js';
import type { Config } from '../config.js';
import { registry } from './metrics.js';

export type ExtraSource = () => Promise<string>;

/** The whole exposition in Prometheus text format 0.0.4. */
export async function exposition(extra: ExtraSource[] = []): Promise<string> {
  const parts = [await registry.metrics()];
  for (const source of extra) parts.push(await source());
  return parts.map((p) => (p.endsWith('\n') ? p : `${p}\n`)).join('');
}

export const METRICS_CONTENT_TYPE = registry.contentType;

/** True when the request may read the metrics: no token configured, or the right bearer token. */
export function scrapeAllowed(token: string | undefined, authorization: string | undefined | null): boolean {
  if (!token) return true;
  const given = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Fetches another exporter's exposition (the Temporal core's); an unreachable one adds nothing. */
export function fetchedSource(url: string, logger: Logger): ExtraSource {
  let warned = false;
  return async () => {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (!res.ok) throw new Error(`answered ${res.status}`);
      return await res.text();
    } catch (err) {
      if (!warned) logger.warn({ url, err: (err as Error).message }, 'could not read the Temporal SDK metrics');
      warned = true;
      return '';
    }
  };
}

export async function startMetricsListener(opts: {
  port: number;
  host: string;
  token?: string;
  logger: Logger;
  extra?: ExtraSource[];
}): Promise<{ port: number; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    if (!scrapeAllowed(opts.token, req.headers.authorization)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('bearer token required\n');
      return;
    }
    exposition(opts.extra).then(
      (text) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
      (err) => {
        opts.logger.error({ err }, 'metrics exposition failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  opts.logger.info({ port, host: opts.host, token: Boolean(opts.token) }, 'metrics listening');
  return {
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The metrics listener a process's configuration asks for (METRICS_PORT, _HOST, _TOKEN), or null. */
export function metricsListenerOf(
  config: Pick<Config, 'METRICS_PORT' | 'METRICS_HOST' | 'METRICS_TOKEN'>,
  logger: Logger,
  extra: ExtraSource[] = [],
): Promise<{ port: number; stop(): Promise<void> } | null> {
  if (config.METRICS_PORT === undefined) return Promise.resolve(null);
  return startMetricsListener({
    port: config.METRICS_PORT,
    host: config.METRICS_HOST,
    token: config.METRICS_TOKEN,
    logger,
    extra,
  });
}
