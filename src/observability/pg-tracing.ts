// A span per PostgreSQL statement run inside a traced operation: pg's Client.prototype.query
// wrapped once. (@opentelemetry/instrumentation-pg does the same but brings @types/pg into the
// tree, which retypes every `import pg from 'pg'` of the project; the wrapper is this short.)
import { createRequire } from 'node:module';
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';

const WRAPPED = Symbol.for('approval-service.pg-traced');

type Query = (this: { database?: string }, ...args: unknown[]) => unknown;

/** The statement's first keyword (SELECT, INSERT, WITH …) as the span name, after a leading comment (src/db/prepared.ts). */
export const operationOf = (sql: string) => /^\s*(?:\/\*.*?\*\/\s*)?([a-z]+)/is.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';

export function tracePg(tracer: Tracer) {
  const pg = createRequire(import.meta.url)('pg') as { Client: { prototype: Record<string | symbol, unknown> } };
  const proto = pg.Client.prototype;
  if (proto[WRAPPED]) return;
  const original = proto.query as Query;
  proto.query = function query(this: { database?: string }, ...args: unknown[]) {
    const first = args[0] as string | { text?: unknown } | undefined;
    const sql = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : null;
    // Outside a traced operation (LISTEN, background polls) and for cursors: untouched.
    if (sql === null || !trace.getSpan(context.active()) || typeof args[args.length - 1] === 'function')
      return original.apply(this, args);
    const span = tracer.startSpan(operationOf(sql), {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system': 'postgresql', 'db.name': this.database ?? '', 'db.statement': sql.slice(0, 2000) },
    });
    let result: unknown;
    try {
      result = original.apply(this, args);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      span.end();
      throw err;
    }
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (value) => {
        span.end();
        return value;
      },
      (err: Error) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
        span.end();
        throw err;
      },
    );
  };
  proto[WRAPPED] = true;
}
