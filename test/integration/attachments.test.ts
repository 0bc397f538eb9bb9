// Attachments (docs/attachments.md) against both back ends with the same tests: the shared stack's
// server runs the disk store (the embedded default), a second server on the same PostgreSQL and
// Temporal runs a real S3 server (SeaweedFS, built from the Go module proxy). Real HTTP throughout.
import { createHash, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createDemoLikeTenant, expectError } from '../helpers/api.js';
import { deploy, eventually, myTask } from '../helpers/flow.js';
import { startS3Server, type S3Server } from '../helpers/seaweedfs.js';
import { cutOffUpload, declaredOnly, PNG, pdfWithText, spawnServer, upload } from '../helpers/attachments.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let s3: S3Server;
let s3Server: { base: string; stop(): Promise<void> };
let db: any;
let tokens: Record<string, string>;
let tenantId: string;

const processKey = `att-${randomUUID().slice(0, 6)}`;
const doc = {
  ruleChain: {
    id: processKey,
    name: 'Expense with receipts',
    root: true,
    additionalInfo: {
      category: 'Test',
      formType: 'design',
      form: {
        fields: [
          { name: 'amount', type: 'number' },
          { name: 'receipts', type: 'attachment', multiple: true, max: 3, accept: ['image/*', '.pdf'] },
          { name: 'contract', type: 'attachment' },
        ],
      },
    },
  },
  metadata: {
    firstNodeIndex: 0,
    nodes: [
      { id: 'start', type: 'startTask', name: 'Start' },
      {
        id: 'approve',
        type: 'userTask',
        name: 'Approve',
        configuration: { approver: { type: 'user', userIds: ['bob'] } },
      },
      { id: 'end', type: 'end', name: 'End' },
    ],
    connections: [
      { fromId: 'start', toId: 'approve', type: 'Success' },
      { fromId: 'approve', toId: 'end', type: 'Success' },
    ],
  },
};

beforeAll(async () => {
  s3 = await startS3Server('attachments');
  s3Server = await spawnServer(s3.env);
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
  ({ tokens, tenantId } = await createDemoLikeTenant('att'));
  await deploy(tokens.admin!, doc);
}, 600_000);

afterAll(async () => {
  await s3Server?.stop();
  await s3?.stop();
  await db?.end();
});

const rows = async (where: string, params: unknown[]) =>
  (await db.query(`select * from attachments where ${where}`, params)).rows;

/** Objects the back end holds now. */
async function objectsIn(kind: 'disk' | 's3'): Promise<string[]> {
  if (kind === 's3') {
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    const out = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    client.destroy();
    return (out.Contents ?? []).map((o) => o.Key!);
  }
  // The shared stack's server keeps its files under its data folder's attachments/.
  const dirs = (await readdir(path.resolve(import.meta.dirname, '../../.data'))).filter((d) => d.startsWith('test-'));
  const found: string[] = [];
  for (const d of dirs) {
    const base = path.resolve(import.meta.dirname, '../../.data', d, 'attachments');
    for (const fan of await readdir(base).catch(() => [] as string[]))
      for (const f of await readdir(path.join(base, fan)).catch(() => [] as string[])) found.push(`${fan}/${f}`);
  }
  return found;
}

describe.each([
  ['disk' as const, () => inject('baseUrl')],
  ['s3' as const, () => s3Server.base],
])('attachments on the %s store', (kind, baseOf) => {
  const call = (p: string, opts: Parameters<typeof api>[1] = {}) =>
    fetch(`${baseOf()}${p}`, {
      method: opts.method ?? (opts.body ? 'POST' : 'GET'),
      headers: {
        ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body ? { 'Content-Type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.body ? JSON.stringify(opts.body) : undefined,
    });
  const json = async (p: string, opts: Parameters<typeof api>[1] = {}) => {
    const res = await call(p, opts);
    return { status: res.status, body: await res.json(), headers: res.headers };
  };

  it('stores a file whole, judges its type from the bytes, and serves it with ranges and safe headers', async () => {
    // A PNG the client calls text/html: the bytes decide.
    const png = await upload(baseOf(), tokens.alice!, PNG, 'receipt.png', { type: 'text/html' });
    expect(png.status, JSON.stringify(png.body)).toBe(201);
    const a = png.body.data;
    expect(a).toMatchObject({
      name: 'receipt.png',
      size: PNG.length,
      contentType: 'image/png',
      sha256: sha(PNG),
      source: 'upload',
      instanceId: null,
    });
    expect((await rows('id = $1', [a.id]))[0]).toMatchObject({
      store: kind,
      uploader_id: 'alice',
      tenant_id: tenantId,
    });
    expect(await objectsIn(kind)).toContain(`${a.id.slice(0, 2)}/${a.id}`);

    const whole = await call(`/api/v1/attachments/${a.id}/content`, { token: tokens.alice });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(PNG)).toBe(true);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('content-disposition')).toMatch(/^inline; filename="receipt.png"/);
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');

    const part = await call(`/api/v1/attachments/${a.id}/content`, {
      token: tokens.alice,
      headers: { Range: 'bytes=8-15' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 8-15/${PNG.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(PNG.subarray(8, 16))).toBe(true);
    const suffix = await call(`/api/v1/attachments/${a.id}/content`, {
      token: tokens.alice,
      headers: { Range: 'bytes=-4' },
    });
    expect(Buffer.from(await suffix.arrayBuffer()).equals(PNG.subarray(PNG.length - 4))).toBe(true);
    const outside = await json(`/api/v1/attachments/${a.id}/content`, {
      token: tokens.alice,
      headers: { Range: `bytes=${PNG.length + 10}-` },
    });
    expectError(outside, 416, 41600);

    // HTML the client calls an image: typed as HTML and only ever a download, in a sandbox.
    const html = await upload(
      baseOf(),
      tokens.alice!,
      Buffer.from('<!DOCTYPE html><script>alert(1)</script>'),
      'x.png',
      { type: 'image/png' },
    );
    expect(html.body.data.contentType).toBe('text/html');
    const served = await call(`/api/v1/attachments/${html.body.data.id}/content`, { token: tokens.alice });
    expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(served.headers.get('content-security-policy')).toMatch(/sandbox/);
    const svg = await upload(
      baseOf(),
      tokens.alice!,
      Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      'a.svg',
    );
    expect(svg.body.data.contentType).toBe('image/svg+xml');
    const svgServed = await call(`/api/v1/attachments/${svg.body.data.id}/content`, { token: tokens.alice });
    expect(svgServed.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('keeps a hostile name safe: no path, no NUL, at most 255 characters', async () => {
    const long = `${'长'.repeat(2000)}.pdf`;
    for (const [raw, check] of [
      ['../../etc/passwd', (n: string) => n === 'passwd'],
      ['a\\b\\evil.txt', (n: string) => n === 'evil.txt'],

      [long, (n: string) => [...n].length === 255 && n.endsWith('.pdf')],
    ] as const) {
      const r = await upload(baseOf(), tokens.alice!, Buffer.from('hello'), raw);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(check(r.body.data.name), r.body.data.name).toBe(true);
      const res = await call(`/api/v1/attachments/${r.body.data.id}/content?download=1`, { token: tokens.alice });
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''/,
      );
      await res.arrayBuffer();
    }
  });

  it('takes a NUL in an encoded name (dropped), and answers a raw one in a part header with a 400', async () => {
    const send = (disposition: string) =>
      fetch(`${baseOf()}/api/v1/attachments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens.alice}`, 'Content-Type': 'multipart/form-data; boundary=b0' },
        body: Buffer.concat([
          Buffer.from(
            `--b0\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\n\r\nhello\r\n--b0--\r\n`,
            'latin1',
          ),
        ]),
      });
    const encoded = await send(`filename*=UTF-8''nul%00byte%2F..%2Fx.txt`);
    const body = await encoded.json();
    expect(encoded.status, JSON.stringify(body)).toBe(201);
    expect(body.data.name).toBe('x.txt');
    const raw = await send('filename="nul\u0000byte.txt"');
    expectError({ status: raw.status, body: await raw.json() }, 400, 40001);
  });

  it('refuses too large a file before reading the body, and past the limit while streaming: nothing stored', async () => {
    const before = (await objectsIn(kind)).length;
    const declared = await declaredOnly(baseOf(), tokens.alice!, 26 * 1024 * 1024 + 100_000);
    expectError(declared, 413, 41310);
    // A tenant limit of 64 KiB, and a body that does not say its size up front (chunked).
    const t = await createDemoLikeTenant('attl');
    const set = await api('/api/v1/tenant-settings', {
      method: 'PUT',
      token: t.tokens.admin,
      body: { defaultLocale: null, attachmentLimits: { maxFileBytes: 65_536 } },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const big = await fetch(`${baseOf()}/api/v1/attachments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.tokens.alice}`, 'Content-Type': 'multipart/form-data; boundary=zzz' },
      body: new ReadableStream({
        start(c) {
          c.enqueue(
            new TextEncoder().encode(
              '--zzz\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n',
            ),
          );
          c.enqueue(new Uint8Array(200_000).fill(1));
          c.enqueue(new TextEncoder().encode('\r\n--zzz--\r\n'));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expectError({ status: big.status, body: await big.json() }, 413, 41310);
    expect(await rows('tenant_id = $1', [t.tenantId])).toHaveLength(0);
    expect((await objectsIn(kind)).length).toBe(before);
  });

  it('leaves nothing of an upload cut off mid-stream', async () => {
    const before = await rows('tenant_id = $1', [tenantId]);
    const objects = (await objectsIn(kind)).length;
    await cutOffUpload(baseOf(), tokens.alice!, 10 * 1024 * 1024, 3 * 1024 * 1024);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await rows('tenant_id = $1', [tenantId])).toHaveLength(before.length);
    expect((await objectsIn(kind)).length).toBe(objects);
  });

  it('takes concurrent uploads of the same file as two whole attachments', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 0x5a);
    const [a, b] = await Promise.all([
      upload(baseOf(), tokens.alice!, bytes, 'same.bin'),
      upload(baseOf(), tokens.alice!, bytes, 'same.bin'),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).not.toBe(b.body.data.id);
    for (const r of [a, b]) {
      expect(r.body.data).toMatchObject({ size: bytes.length, sha256: sha(bytes) });
      const res = await call(`/api/v1/attachments/${r.body.data.id}/content`, { token: tokens.alice });
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(bytes));
    }
  });

  it('attaches at start, in comments and task actions; shows each file to exactly the right people', async () => {
    const receipt = (await upload(baseOf(), tokens.alice!, PNG, 'r.png')).body.data;
    const pdf = pdfWithText('Invoice 42');
    const invoice = (
      await upload(baseOf(), tokens.alice!, pdf, 'invoice.pdf', { query: `processKey=${processKey}&field=receipts` })
    ).body.data;
    expect(invoice.contentType).toBe('application/pdf');
    const contract = (await upload(baseOf(), tokens.alice!, Buffer.from('terms'), 'terms.txt')).body.data;
    // Before it is attached only its uploader sees it.
    expectError(await json(`/api/v1/attachments/${receipt.id}`, { token: tokens.bob }), 404, 40400);

    // The field's accept list, at upload and at start.
    const exe = await upload(baseOf(), tokens.alice!, Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00'), 'x.pdf', {
      query: `processKey=${processKey}&field=receipts`,
    });
    expectError(exe, 422, 42295);
    const refusedStart = await json('/api/v1/workflow/process-instances/start', {
      token: tokens.alice,
      body: { processKey, variables: { amount: 1, receipts: [contract.id] } },
    });
    expectError(refusedStart, 422, 42295);
    expect(refusedStart.body.data.fields[0].path).toBe('variables.receipts');
    const missing = await json('/api/v1/workflow/process-instances/start', {
      token: tokens.alice,
      body: { processKey, variables: { amount: 1, contract: randomUUID() } },
    });
    expectError(missing, 404, 40410);
    expect(missing.body.data.fields[0].path).toBe('variables.contract');
    // Someone else's upload cannot be attached by bob.
    const bobs = await json('/api/v1/workflow/process-instances/start', {
      token: tokens.bob,
      body: { processKey, variables: { amount: 1, contract: contract.id } },
    });
    expectError(bobs, 404, 40410);

    const started = await json('/api/v1/workflow/process-instances/start', {
      token: tokens.alice,
      body: { processKey, variables: { amount: 12, receipts: [receipt.id, invoice.id], contract: contract.id } },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const instanceId = started.body.data.instanceId;
    // Attached once: a second start naming it is refused.
    expectError(
      await json('/api/v1/workflow/process-instances/start', {
        token: tokens.alice,
        body: { processKey, variables: { contract: contract.id } },
      }),
      409,
      40991,
    );
    // Attached: no longer deletable.
    expectError(
      await json(`/api/v1/attachments/${contract.id}`, { method: 'DELETE', token: tokens.alice }),
      409,
      40901,
    );

    // bob (the approver) sees the files; erin (not a participant) and another tenant do not.
    const seen = await json(`/api/v1/workflow/process-instances/${instanceId}/attachments`, { token: tokens.bob });
    expect(seen.status).toBe(200);
    expect(seen.body.data.items.map((f: any) => [f.name, f.source, f.field])).toEqual([
      ['r.png', 'form', 'receipts'],
      ['invoice.pdf', 'form', 'receipts'],
      ['terms.txt', 'form', 'contract'],
    ]);
    const bytes = await call(`/api/v1/attachments/${invoice.id}/content`, { token: tokens.bob });
    expect(Buffer.from(await bytes.arrayBuffer()).equals(pdf)).toBe(true);
    expectError(await json(`/api/v1/attachments/${invoice.id}`, { token: tokens.erin }), 404, 40400);
    expectError(await json(`/api/v1/attachments/${invoice.id}/content`, { token: tokens.erin }), 404, 40400);
    const other = await createDemoLikeTenant('atto');
    expectError(await json(`/api/v1/attachments/${invoice.id}`, { token: other.tokens.admin }), 404, 40400);

    // A signed URL reads without a login; a forged or foreign token does not.
    const signed = await fetch(`${baseOf()}${seen.body.data.items[0].url}`);
    expect(signed.status).toBe(200);
    expect(Buffer.from(await signed.arrayBuffer()).equals(PNG)).toBe(true);
    const forged = seen.body.data.items[0].url.replace(/token=\d+\./, 'token=9999999999.');
    expect((await fetch(`${baseOf()}${forged}`)).status).toBe(401);
    const crossed = seen.body.data.items[0].url.replace(receipt.id, invoice.id);
    expect((await fetch(`${baseOf()}${crossed}`)).status).toBe(401);

    // bob comments with a file and approves with another: the comment and the trail carry them.
    const task = await myTask(tokens.bob!, instanceId);
    const note = (await upload(baseOf(), tokens.bob!, Buffer.from('looks fine'), 'note.txt')).body.data;
    const comment = await json(`/api/v1/workflow/tasks/${task.id}/comments`, {
      token: tokens.bob,
      body: { comment: 'checked', attachments: [note.id] },
    });
    expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    expect(comment.body.data.attachments).toEqual([
      { id: note.id, name: 'note.txt', size: 10, contentType: 'text/plain' },
    ]);
    const listed = await json(`/api/v1/workflow/tasks/${task.id}/comments`, { token: tokens.alice });
    expect(listed.body.data.items[0].attachments[0].id).toBe(note.id);
    // bob's task form replaces the contract with his own upload: attached to the instance's field.
    const v2 = (await upload(baseOf(), tokens.bob!, Buffer.from('terms v2'), 'terms-v2.txt')).body.data;
    const saved = await json(`/api/v1/workflow/tasks/${task.id}/variables`, {
      token: tokens.bob,
      body: { variables: { contract: v2.id } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await rows('id = $1', [v2.id]))[0]).toMatchObject({
      source: 'form',
      field: 'contract',
      instance_id: instanceId,
    });
    // Someone else's upload cannot be written into a field.
    const alicesLoose = (await upload(baseOf(), tokens.alice!, Buffer.from('loose'), 'loose.txt')).body.data;
    expectError(
      await json(`/api/v1/workflow/tasks/${task.id}/variables`, {
        token: tokens.bob,
        body: { variables: { contract: alicesLoose.id } },
      }),
      404,
      40410,
    );
    const stamp = (await upload(baseOf(), tokens.bob!, PNG, 'stamp.png')).body.data;
    // A refused action gives its files back: alice cannot approve bob's task.
    const aliceStamp = (await upload(baseOf(), tokens.alice!, PNG, 'mine.png')).body.data;
    const refusedAction = await json(`/api/v1/workflow/tasks/${task.id}/approve`, {
      token: tokens.alice,
      body: { attachments: [aliceStamp.id] },
    });
    expect(refusedAction.status).toBeGreaterThanOrEqual(400);
    expect((await rows('id = $1', [aliceStamp.id]))[0].source).toBe('upload');
    const approved = await json(`/api/v1/workflow/tasks/${task.id}/approve`, {
      token: tokens.bob,
      body: { comment: 'ok', attachments: [stamp.id] },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const detail = await eventually(
      () => json(`/api/v1/workflow/process-instances/${instanceId}`, { token: tokens.alice }),
      (r) => r.body.data.status === 'completed',
    );
    const approvedEntry = detail.body.data.trail.find((e: any) => e.userId === 'bob' && e.detail?.attachments);
    expect(approvedEntry?.detail.attachments).toEqual([
      { id: stamp.id, name: 'stamp.png', size: PNG.length, contentType: 'image/png' },
    ]);
    // erin still sees nothing; alice (the initiator) sees bob's files too.
    expect((await call(`/api/v1/attachments/${stamp.id}/content`, { token: tokens.alice })).status).toBe(200);
    expectError(await json(`/api/v1/attachments/${stamp.id}`, { token: tokens.erin }), 404, 40400);

    // Deleting the ended instance deletes its files: rows and objects.
    const all = await rows('instance_id = $1', [instanceId]);
    expect(all).toHaveLength(6);
    const del = await json(`/api/v1/workflow/process-instances/${instanceId}`, {
      method: 'DELETE',
      token: tokens.admin,
    });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    await eventually(
      () => rows('instance_id = $1', [instanceId]),
      (r) => r.length === 0,
    );
    const left = await objectsIn(kind);
    for (const r of all) expect(left).not.toContain(r.storage_key);
  });

  it('deletes an unattached upload on request and sweeps orphans past their hours', async () => {
    const mine = (await upload(baseOf(), tokens.alice!, Buffer.from('draft'), 'd.txt')).body.data;
    expectError(await json(`/api/v1/attachments/${mine.id}`, { method: 'DELETE', token: tokens.bob }), 404, 40400);
    const del = await json(`/api/v1/attachments/${mine.id}`, { method: 'DELETE', token: tokens.alice });
    expect(del.body.data).toEqual({ id: mine.id, deleted: true });
    expectError(await json(`/api/v1/attachments/${mine.id}`, { token: tokens.alice }), 404, 40400);
    const orphan = (await upload(baseOf(), tokens.alice!, Buffer.from('forgotten'), 'o.txt')).body.data;
    await db.query(`update attachments set created_at = now() - interval '25 hours' where id = $1`, [orphan.id]);
    await eventually(
      () => rows('id = $1', [orphan.id]),
      (r) => r.length === 0,
    );
    expect(await objectsIn(kind)).not.toContain(`${orphan.id.slice(0, 2)}/${orphan.id}`);
  });
});

describe('the object store down', () => {
  it('answers 503 and records nothing; works again once it is back', async () => {
    const before = (await rows('tenant_id = $1', [tenantId])).length;
    await s3.kill();
    try {
      const r = await upload(s3Server.base, tokens.alice!, PNG, 'down.png');
      expectError(r, 503, 50300);
      expect((await rows('tenant_id = $1', [tenantId])).length).toBe(before);
    } finally {
      await s3.start();
    }
    const again = await eventually(
      () => upload(s3Server.base, tokens.alice!, PNG, 'up.png'),
      (r) => r.status === 201,
      30_000,
    );
    expect(again.body.data.size).toBe(PNG.length);
  });
});
