// The attachment phase of `npm run bench` (docs/attachments.md#figures): files of 5 and 20 MB
// uploaded (multipart, streamed) and downloaded over HTTP with real auth, three times each: MB/s
// up and down, and the server's peak resident memory above its level before — sampled every 20 ms
// from /proc — which must not grow with the file's size (the body is never held whole).
import { residentMb } from './proc.js';

export interface AttachmentPhaseOptions {
  base: string;
  token: string;
  serverPid: () => number | null;
  sizesMb?: number[];
  rounds?: number;
}

/** A body of `bytes` generated as it is sent (the client holds no copy either). */
function generated(bytes: number, boundary: string): ReadableStream<Uint8Array> {
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const chunk = new Uint8Array(256 * 1024).map((_, i) => (i * 31) & 0xff);
  let left = bytes;
  let phase = 0;
  return new ReadableStream({
    pull(c) {
      if (phase === 0) {
        phase = 1;
        return c.enqueue(head);
      }
      if (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        return c.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
      }
      c.enqueue(tail);
      c.close();
    },
  });
}

async function peakDuring<T>(pid: number | null, run: () => Promise<T>): Promise<{ value: T; peakMb: number | null }> {
  let peak = residentMb(pid);
  const timer = setInterval(() => {
    const now = residentMb(pid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, 20);
  try {
    const value = await run();
    return { value, peakMb: peak };
  } finally {
    clearInterval(timer);
  }
}

export async function attachmentPhase(opts: AttachmentPhaseOptions) {
  const sizes = opts.sizesMb ?? [5, 20];
  const rounds = opts.rounds ?? 3;
  const out: Array<{
    sizeMb: number;
    upMbPerS: number[];
    downMbPerS: number[];
    rssBeforeMb: number | null;
    peakUpMb: number | null;
    peakDownMb: number | null;
  }> = [];
  for (const sizeMb of sizes) {
    const bytes = sizeMb * 1024 * 1024;
    const row = {
      sizeMb,
      upMbPerS: [] as number[],
      downMbPerS: [] as number[],
      rssBeforeMb: null as number | null,
      peakUpMb: null as number | null,
      peakDownMb: null as number | null,
    };
    const pid = opts.serverPid();
    global.gc?.();
    row.rssBeforeMb = residentMb(pid);
    for (let r = 0; r < rounds; r++) {
      const boundary = `bench${r}${sizeMb}`;
      let t = performance.now();
      const up = await peakDuring(pid, async () => {
        const res = await fetch(`${opts.base}/api/v1/attachments`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${opts.token}`,
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
          },
          body: generated(bytes, boundary),
          duplex: 'half',
        } as RequestInit);
        const body = (await res.json()) as { data: { id: string; size: number } };
        if (res.status !== 201 || body.data.size !== bytes)
          throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
        return body.data.id;
      });
      row.upMbPerS.push(sizeMb / ((performance.now() - t) / 1000));
      t = performance.now();
      const down = await peakDuring(pid, async () => {
        const res = await fetch(`${opts.base}/api/v1/attachments/${up.value}/content`, {
          headers: { Authorization: `Bearer ${opts.token}` },
        });
        let n = 0;
        for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) n += c.length;
        if (n !== bytes) throw new Error(`download: ${n} of ${bytes} bytes`);
      });
      row.downMbPerS.push(sizeMb / ((performance.now() - t) / 1000));
      row.peakUpMb = Math.max(row.peakUpMb ?? 0, up.peakMb ?? 0);
      row.peakDownMb = Math.max(row.peakDownMb ?? 0, down.peakMb ?? 0);
      await fetch(`${opts.base}/api/v1/attachments/${up.value}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${opts.token}` },
      });
    }
    out.push(row);
  }
  return out;
}
