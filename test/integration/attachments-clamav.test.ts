// The virus scan (docs/attachments.md#virus-scan): a server with CLAMAV_HOST streams every upload
// to a real clamd; the EICAR test file is refused with 422 and nothing is kept; clamd down is a 503.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { createDemoLikeTenant, expectError } from '../helpers/api.js';
import { PNG, spawnServer, upload } from '../helpers/attachments.js';
import { EICAR, startClamd, type Clamd } from '../helpers/clamav.js';

let clamd: Clamd;
let server: { base: string; stop(): Promise<void> };
let db: any;
let tokens: Record<string, string>;
let tenantId: string;

beforeAll(async () => {
  clamd = await startClamd();
  server = await spawnServer({ CLAMAV_HOST: clamd.host });
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
  ({ tokens, tenantId } = await createDemoLikeTenant('clam'));
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await clamd?.stop();
  await db?.end();
});

const count = async () =>
  Number((await db.query('select count(*) from attachments where tenant_id = $1', [tenantId])).rows[0].count);

it('scans each upload: a clean file is kept, EICAR is refused with 422 and leaves nothing', async () => {
  const clean = await upload(server.base, tokens.alice!, PNG, 'clean.png');
  expect(clean.status, JSON.stringify(clean.body)).toBe(201);
  // A large clean file goes through clamd in chunks too.
  const big = await upload(server.base, tokens.alice!, Buffer.alloc(5 * 1024 * 1024, 0x41), 'big.txt');
  expect(big.status, JSON.stringify(big.body)).toBe(201);
  const before = await count();
  const infected = await upload(server.base, tokens.alice!, EICAR, 'invoice.pdf', { type: 'application/pdf' });
  expectError(infected, 422, 42296);
  expect(infected.body.message).toMatch(/Eicar-Test-Signature/);
  expect(await count()).toBe(before);
});

it('answers 503 while clamd is down: nothing is kept unscanned', async () => {
  await clamd.stop();
  const before = await count();
  const r = await upload(server.base, tokens.alice!, PNG, 'unscanned.png');
  expectError(r, 503, 50300);
  expect(await count()).toBe(before);
});
