// Test helpers for attachments: a spawned server on the shared stack (with another store's env),
// uploads through real multipart requests, and a body cut off mid-stream.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { inject } from 'vitest';
import { freePort } from '../../scripts/stack.js';

const root = path.resolve(import.meta.dirname, '../..');

/** A server process on the shared PostgreSQL and Temporal, with `env` on top (another store, limits). */
export async function spawnServer(env: Record<string, string>): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', './scripts/tsx-main-thread.mjs', 'server.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: inject('taskQueue'),
      JWT_SECRET: inject('jwtSecret'),
      ATTACHMENT_SWEEP_INTERVAL_MS: '300',
      ...env,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    stop: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

export interface Uploaded {
  status: number;
  body: any;
}

/** POST /api/v1/attachments with one `file` part (the declared type is the client's claim only). */
export async function upload(
  base: string,
  token: string,
  bytes: Uint8Array,
  name: string,
  opts: { type?: string; query?: string } = {},
): Promise<Uploaded> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: opts.type ?? 'application/octet-stream' }),
    name,
  );
  const res = await fetch(`${base}/api/v1/attachments${opts.query ? `?${opts.query}` : ''}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

/** Sends a multipart body's first `sendBytes` of a declared `totalBytes` file, then drops the connection. */
export async function cutOffUpload(base: string, token: string, totalBytes: number, sendBytes: number): Promise<void> {
  const boundary = 'cutoffboundary12345';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${base}/api/v1/attachments`);
  await new Promise<void>((resolve) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(head.length + totalBytes + tail.length),
      },
    });
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      resolve();
    });
    req.write(head);
    req.write(Buffer.alloc(sendBytes, 7), () => {
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
  });
}

/** A request whose Content-Length says `declared` bytes, of which only the headers go: the answer comes without the body. */
export async function declaredOnly(
  base: string,
  token: string,
  declared: number,
): Promise<{ status: number; body: any }> {
  const url = new URL(`${base}/api/v1/attachments`);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': String(declared),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString()) });
      });
    });
    req.flushHeaders();
  });
}

// A 1×1 PNG and a one-page PDF with a line of text, as a browser or a scanner makes them.
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export function pdfWithText(
  text: string,
  page: { width: number; height: number; fontSize: number; x: number; y: number } = {
    width: 400,
    height: 200,
    fontSize: 18,
    x: 40,
    y: 100,
  },
): Buffer {
  const stream = `BT /F1 ${page.fontSize} Tf ${page.x} ${page.y} Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${page.width} ${page.height}] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
