// An OTLP/HTTP trace receiver for tests: POST /v1/traces with an ExportTraceServiceRequest in
// protobuf (what @opentelemetry/exporter-trace-otlp-proto sends), decoded with OpenTelemetry's own
// generated OTLP messages (@opentelemetry/otlp-transformer), answered as a collector answers.
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  service: string;
  role: string;
  attributes: Record<string, unknown>;
}

const require = createRequire(import.meta.url);
// The transformer's package root loads its generated protobuf root; reach it by file.
const root = require(
  require.resolve('@opentelemetry/otlp-transformer').replace(/index\.js$/, 'generated/root.js'),
) as any;
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const Response = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;

const hex = (b: Uint8Array | undefined) => (b && b.length ? Buffer.from(b).toString('hex') : '');
function valueOf(v: any): unknown {
  if (!v) return null;
  for (const k of ['stringValue', 'boolValue', 'intValue', 'doubleValue'])
    if (v[k] != null) return k === 'intValue' ? Number(v[k]) : v[k];
  return null;
}
const attrs = (list: any[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));

export async function startOtlpReceiver(): Promise<{
  url: string;
  spans: ReceivedSpan[];
  requests: () => number;
  stop(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  let requests = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !/protobuf/.test(req.headers['content-type'] ?? '')) {
        res.writeHead(404).end();
        return;
      }
      try {
        const message = Request.decode(Buffer.concat(chunks));
        requests++;
        for (const rs of message.resourceSpans ?? []) {
          const resource = attrs(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                traceId: hex(s.traceId),
                spanId: hex(s.spanId),
                parentSpanId: hex(s.parentSpanId),
                name: s.name,
                kind: s.kind,
                service: String(resource['service.name'] ?? ''),
                role: String(resource['service.instance.role'] ?? ''),
                attributes: attrs(s.attributes),
              });
        }
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Response.encode({}).finish());
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests: () => requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
