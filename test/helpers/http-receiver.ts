import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  port: number;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 (a free port) that hands each request, with its whole body, to `handle`. */
export async function startReceiver(
  handle: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void,
): Promise<Receiver> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handle(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
