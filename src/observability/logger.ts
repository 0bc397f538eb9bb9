import { pino, type DestinationStream, type Logger } from 'pino';
import { traceFields, tracing } from './tracing.js';

// Paths that may carry secrets; pino replaces them before anything is written.
const redact = [
  'password',
  '*.password',
  '*.*.password',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'authorization',
  '*.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'req.query.token',
  'JWT_SECRET',
  '*.JWT_SECRET',
  'DATABASE_URL',
  '*.DATABASE_URL',
];

export function createLogger(
  level = process.env.LOG_LEVEL ?? 'info',
  name = 'approvals',
  destination?: DestinationStream,
): Logger {
  // With tracing on, every line written inside a span carries its trace and span ids.
  const mixin = tracing() ? traceFields : undefined;
  const options = { name, level, redact: { paths: redact, censor: '[redacted]' }, mixin };
  return destination ? pino(options, destination) : pino(options);
}

/** Strips a `token=...` query parameter from a URL before it is logged. */
export function safeUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token)=)[^&]*/gi, '$1[redacted]');
}

export type { Logger };
