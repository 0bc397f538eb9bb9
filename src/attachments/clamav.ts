// clamd's INSTREAM protocol (docs/attachments.md#virus-scan): the upload's bytes are sent to clamd
// as they arrive (4-byte big-endian chunk lengths, a zero length ends), and its verdict is read
// before the attachment is recorded. Small enough to speak directly; no client library needed.
import net from 'node:net';
import { StoreUnavailable } from './store.js';

export interface ScanVerdict {
  clean: boolean;
  /** The signature clamd named (`Eicar-Test-Signature`). */
  signature?: string;
}

export function clamdAddress(host: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(host.trim());
  if (!m) throw new Error(`CLAMAV_HOST is not host[:port]: ${host}`);
  return { host: m[1]!, port: m[2] ? Number(m[2]) : 3310 };
}

/** One scan: `write` every chunk (waits while clamd's socket is full), then `verdict`. */
export class ClamScan {
  private readonly socket: net.Socket;
  private readonly answer: Promise<string>;
  private failure: Error | null = null;

  constructor(address: { host: string; port: number }, timeoutMs: number) {
    this.socket = net.connect(address);
    this.socket.setTimeout(timeoutMs);
    this.answer = new Promise((resolve, reject) => {
      const parts: Buffer[] = [];
      this.socket.on('data', (d) => parts.push(d));
      this.socket.on('end', () => resolve(Buffer.concat(parts).toString('utf8').replace(/\0+$/, '').trim()));
      this.socket.on('timeout', () => this.socket.destroy(new Error('clamd timed out')));
      this.socket.on('error', (err) => {
        this.failure = new StoreUnavailable(`virus scanner unavailable: ${err.message}`);
        reject(this.failure);
      });
    });
    this.answer.catch(() => undefined);
    this.socket.write('zINSTREAM\0');
  }

  async write(chunk: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    const head = Buffer.alloc(4);
    head.writeUInt32BE(chunk.length);
    this.socket.write(head);
    if (!this.socket.write(chunk)) await new Promise<void>((r) => this.socket.once('drain', r));
  }

  async verdict(): Promise<ScanVerdict> {
    if (this.failure) throw this.failure;
    this.socket.write(Buffer.alloc(4));
    const line = await this.answer;
    this.socket.destroy();
    // "stream: OK" | "stream: <signature> FOUND" | "<reason> ERROR"
    if (/:\s*OK$/.test(line)) return { clean: true };
    const found = /:\s*(.+)\s+FOUND$/.exec(line);
    if (found) return { clean: false, signature: found[1] };
    throw new StoreUnavailable(`virus scanner answered: ${line || 'nothing'}`);
  }

  abort() {
    this.socket.destroy();
  }
}
