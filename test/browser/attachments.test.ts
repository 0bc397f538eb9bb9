// Attachments in the console (issue 47, docs/console.md "Files"): in chromium against the real stack,
// alice uploads a PNG and a PDF through a start form's attachment fields (one request per file, its
// progress, then done), sees a refused type in words, removes a file before sending (DELETE) and
// submits; bob, the approver, sees the instance's files with the image's thumbnail and the PDF's
// preview, downloads one (its bytes checked), and approves with a file of his own, which the trail
// lists. Every step is checked through the API too. Screenshots: test/browser/screenshots/attachments-*.png
// at 1280 and 390 px wide, in English and one in Chinese.
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant } from '../helpers/api.js';
import { ConsoleBrowser, SCREENSHOTS, openForm, screenshots } from '../helpers/console-browser.js';
import { deploy } from '../helpers/flow.js';
import { pdfWithText } from '../helpers/attachments.js';
import { en } from '../../ui/src/i18n/en.js';
import { zhCN } from '../../ui/src/i18n/zh-CN.js';

const browser = new ConsoleBrowser();
const shot = screenshots('attachments-');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const KEY = 'expense_with_receipts';
let tenantId = '';
let tokens: Record<string, string> = {};

/** A real PNG of `w`×`h` pixels: a colour gradient with a dark band, so a thumbnail shows something. */
function png(w: number, h: number, noise = false): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w; x++) {
      const band = y > h * 0.4 && y < h * 0.6;
      raw[row + 1 + x * 3] = band ? 20 : Math.round((x / w) * 255);
      raw[row + 2 + x * 3] = band ? 40 : Math.round((y / h) * 200);
      raw[row + 3 + x * 3] = band ? 90 : 180;
    }
    if (noise) randomBytes(w * 3).copy(raw, row + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG of random pixels: deflate cannot make it smaller than its 3 bytes a pixel. */
const noisyPng = (w: number, h: number) => png(w, h, true);

/** A one-page A4 PDF saying `text`, large enough to read in the preview. */
const pdf = (text: string) => pdfWithText(text, { width: 595, height: 842, fontSize: 28, x: 72, y: 760 });

const receiptPng = png(480, 320);
const receiptPdf = pdf('Taxi receipt 42.50 EUR');
const contractPdf = pdf('Service contract');
const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });

const expenseProcess = {
  ruleChain: {
    id: KEY,
    name: 'Expense with receipts',
    root: true,
    additionalInfo: {
      category: 'Browser tests',
      form: {
        fields: [
          { name: 'amount', type: 'money', label: 'Amount', required: true },
          {
            name: 'receipts',
            type: 'attachment',
            label: 'Receipts',
            multiple: true,
            required: true,
            accept: ['image/*', '.pdf'],
            maxFileSize: 5 * 1024 * 1024,
            max: 5,
          },
          { name: 'contract', type: 'attachment', label: 'Contract', accept: ['application/pdf'] },
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
        name: 'Manager approval',
        configuration: { approver: { type: 'user', userIds: ['bob'] }, approveMode: 'single' },
        // The approver reads the receipts; the contract stays editable (the upload control, its file listed).
        additionalInfo: { formPermissions: { receipts: 'r', amount: 'r' } },
      },
      { id: 'end', type: 'end', name: 'End' },
    ],
    connections: [
      { fromId: 'start', toId: 'approve', type: 'Success' },
      { fromId: 'approve', toId: 'end', type: 'Success' },
    ],
  },
};

const as = (user: string, options: Record<string, unknown> = {}): Promise<Page> =>
  browser.as(user, { tenant: tenantId, password: `pw-${user}`, ...options });

/** Chooses files in the upload control `selector` (the file input) as a person would. */
const choose = (page: Page, selector: string, ...files: ReturnType<typeof file>[]) =>
  page.setInputFiles(selector, files);

/** The row of `name` in the upload control of field `field` once it has the state `state`. */
const fileRow = (page: Page, field: string, name: string, state: string) =>
  page.waitForSelector(`[data-field=${field}] li[data-file-name="${name}"][data-state=${state}]`, { timeout: 30_000 });

let instanceId = '';

beforeAll(async () => {
  await browser.launch();
  ({ tenantId, tokens } = await createDemoLikeTenant('att'));
  await deploy(tokens.admin!, expenseProcess);
});

afterAll(() => browser.close());

describe('attachments in the console', () => {
  it('alice uploads a PNG and PDFs with progress, sees a refused type in words, removes one, and submits', async () => {
    const alice = await as('alice');
    await alice.goto(`${baseUrl()}/start/${KEY}`);
    await alice.waitForSelector('#start-receipts');
    // The field's accept list and size limit are on the input and in the hint.
    expect(await alice.getAttribute('#start-receipts', 'accept')).toBe('image/*,.pdf');
    expect(await alice.getAttribute('#start-receipts', 'multiple')).not.toBeNull();
    const hint = await alice.textContent('#start-receipts-hint');
    expect(hint).toContain('image/*, .pdf');
    expect(hint).toContain('5 MB');

    // The upload goes slowly (CDP throttling), so its progress bar can be seen.
    const cdp = await alice.context().newCDPSession(alice);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 50,
      downloadThroughput: -1,
      uploadThroughput: 64 * 1024,
    });
    const big = noisyPng(400, 300); // ~360 KB that deflate cannot shrink: a few seconds at 64 KB/s
    const posts: string[] = [];
    alice.on('response', (r) => {
      if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/attachments') posts.push(r.url());
    });
    await choose(alice, '#start-receipts', file('receipt-photo.png', 'image/png', big));
    await alice.waitForSelector('[data-field=receipts] li[data-state=uploading] progress', { timeout: 10_000 });
    // The bar moves as the bytes leave (a picture mid-way when the throttled upload reports it).
    const moved = await alice
      .waitForFunction(
        () => {
          const bar = document.querySelector<HTMLProgressElement>(
            '[data-field=receipts] li[data-state=uploading] progress',
          );
          return !!bar && bar.value > 0 && bar.value < 100;
        },
        null,
        { timeout: 8_000 },
      )
      .then(() => true)
      .catch(() => false);
    expect(moved, 'the progress bar between 0 and 100 %').toBe(true);
    await shot(alice, 'progress-en');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await fileRow(alice, 'receipts', 'receipt-photo.png', 'done');
    // The upload named the process and the field, so the server checked it against the field at once.
    expect(posts[0]).toContain(`processKey=${KEY}`);
    expect(posts[0]).toContain('field=receipts');

    // Removing a file before sending deletes it on the server.
    const del = alice.waitForResponse(
      (r) => r.request().method() === 'DELETE' && /\/api\/v1\/attachments\//.test(r.url()),
    );
    await alice.click('[data-field=receipts] li[data-file-name="receipt-photo.png"] button');
    const deleted = await del;
    expect(deleted.status()).toBe(200);
    const deletedId = new URL(deleted.url()).pathname.split('/').pop()!;
    expect((await api(`/api/v1/attachments/${deletedId}`, { token: tokens.alice })).status).toBe(404);
    expect(await alice.$('[data-field=receipts] li[data-file-name="receipt-photo.png"]')).toBeNull();

    // Two receipts at once, one request each; the contract in its own (single) field.
    await choose(
      alice,
      '#start-receipts',
      file('taxi.png', 'image/png', receiptPng),
      file('taxi-receipt.pdf', 'application/pdf', receiptPdf),
    );
    await choose(alice, '#start-contract', file('contract.pdf', 'application/pdf', contractPdf));
    await fileRow(alice, 'receipts', 'taxi.png', 'done');
    await fileRow(alice, 'receipts', 'taxi-receipt.pdf', 'done');
    await fileRow(alice, 'contract', 'contract.pdf', 'done');
    expect(await alice.textContent('[data-field=receipts] li[data-file-name="taxi.png"]')).toContain(en.files.uploaded);

    // A type the field refuses (an HTML page): the server's answer, in words.
    await choose(
      alice,
      '#start-receipts',
      file('invoice.html', 'text/html', Buffer.from('<html><body><script>alert(1)</script></body></html>')),
    );
    const refused = await fileRow(alice, 'receipts', 'invoice.html', 'error');
    expect(await refused.textContent()).toContain(en.errors.byCode[42295]);
    await alice.fill('#start-amount', '42.5');
    await alice.fill('#businessKey', 'EXP-ATT-1');
    await shot(alice, 'refused-en');
    await refused.$('button').then((b) => b!.click());
    await shot(alice, 'start-en');

    await alice.click('button[type=submit]');
    await alice.waitForSelector('[data-testid=instance-header]');
    instanceId = decodeURIComponent(new URL(alice.url()).pathname.split('/').pop()!);

    // Through the API: the ids went into the variables, attached to the instance as form files.
    const inst = await api(`/api/v1/workflow/process-instances/${instanceId}`, { token: tokens.alice });
    expect(inst.body.data.variables.receipts).toHaveLength(2);
    expect(typeof inst.body.data.variables.contract).toBe('string');
    const files = await api(`/api/v1/workflow/process-instances/${instanceId}/attachments`, { token: tokens.alice });
    expect(files.status).toBe(200);
    const names = (files.body.data.items as any[]).map((f) => `${f.name}:${f.source}:${f.field}`).sort();
    expect(names).toEqual(['contract.pdf:form:contract', 'taxi-receipt.pdf:form:receipts', 'taxi.png:form:receipts']);
  });

  it('bob sees the files with previews, downloads one, and approves with a file the trail lists', async () => {
    expect(instanceId).not.toBe('');
    const bob = await as('bob');
    await bob.goto(`${baseUrl()}/instances/${encodeURIComponent(instanceId)}`);
    await bob.waitForSelector('[data-testid=instance-files]');
    const list = bob.locator('[data-testid=instance-files]');
    // The image's thumbnail loads (the signed URL, no bearer token needed).
    const img = list.locator('li[data-file-name="taxi.png"] img');
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(480);
    const pdfRow = list.locator('li[data-file-name="taxi-receipt.pdf"]');
    expect(await pdfRow.getAttribute('data-kind')).toBe('pdf');
    const facts = await pdfRow.textContent();
    expect(facts).toContain('alice');
    expect(facts).toContain(en.files.source.form('Receipts'));
    // The form shows the fields' files as chips, not ids.
    expect(await bob.textContent('[data-testid=field-files-receipts]')).toContain('taxi.png');
    await bob.waitForSelector('#var-contract');
    await bob.waitForSelector('[data-field=contract] li[data-file-name="contract.pdf"][data-state=done] a');
    // The PDF's preview opens on demand, in a frame of the inline URL.
    await pdfRow.locator('button[aria-expanded]').click();
    const frame = pdfRow.locator('[data-testid=pdf-preview]');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toMatch(/^\/api\/v1\/attachments\/[^/]+\/content\?/);
    // The console's policy lets it frame its own origin (frame-src 'self'): the frame holds the PDF,
    // not Chromium's error page.
    const policy = (await fetch(`${baseUrl()}/`)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-src 'self'");
    const framed = await (await frame.elementHandle())!.contentFrame();
    await expect.poll(() => framed!.url()).toContain('/content?');
    expect(framed!.url()).not.toMatch(/^chrome-error:/);
    await bob.waitForTimeout(1500); // let the viewer draw before the picture
    await shot(bob, 'instance-en');

    // Download: the event's file has exactly the uploaded bytes.
    const [download] = await Promise.all([
      bob.waitForEvent('download'),
      list.locator('li[data-file-name="taxi.png"] [data-testid=download]').click(),
    ]);
    expect(download.suggestedFilename()).toBe('taxi.png');
    const saved = await download.path();
    expect(readFileSync(saved).equals(receiptPng)).toBe(true);
    // The same through the page's own fetch of the PDF's download link.
    const href = await pdfRow.locator('[data-testid=download]').getAttribute('href');
    const fetched = await bob.evaluate(async (url) => {
      const r = await fetch(url!);
      return {
        status: r.status,
        disposition: r.headers.get('content-disposition'),
        b64: btoa(String.fromCharCode(...new Uint8Array(await r.arrayBuffer()))),
      };
    }, href);
    expect(fetched.status).toBe(200);
    expect(fetched.disposition).toMatch(/^attachment/);
    expect(Buffer.from(fetched.b64, 'base64').equals(receiptPdf)).toBe(true);

    // A comment with a file: posted with its id, shown with the file as a link.
    await bob.fill('#new-comment', 'The stamp is on the back');
    await choose(bob, '#comment-files', file('stamp.png', 'image/png', png(200, 120)));
    await bob.waitForSelector('#comments li[data-file-name="stamp.png"][data-state=done]', { timeout: 30_000 });
    await bob.click('#comments button[type=submit]');
    const commentFiles = bob.locator('#comments [data-testid=comment-files]');
    await commentFiles.waitFor({ timeout: 20_000 });
    expect(await commentFiles.textContent()).toContain('stamp.png');
    await expect.poll(() => commentFiles.locator('a').count(), { timeout: 20_000 }).toBe(1);
    expect(await bob.$('#comments li[data-file-name="stamp.png"]')).toBeNull(); // a fresh control
    await bob.locator('#comments').screenshot({ path: path.join(SCREENSHOTS, 'attachments-comment-en.png') });

    // Approve with a comment and a file of bob's own: the trail lists it as a link.
    await openForm(bob, 'approve');
    await bob.fill('#approve-comment', 'Receipts match the amount');
    await choose(bob, '#approve-files', file('signed-off.png', 'image/png', png(120, 80)));
    await bob.waitForSelector('[data-form=approve] li[data-file-name="signed-off.png"][data-state=done]', {
      timeout: 30_000,
    });
    await bob.click('button[data-confirm=approve]');
    await bob.waitForSelector('[data-testid=action-ok]');
    const trailFiles = bob.locator('[data-testid=trail] li[data-type=approve] [data-testid=trail-files]');
    await trailFiles.waitFor({ timeout: 20_000 });
    expect(await trailFiles.textContent()).toContain('signed-off.png');
    await expect.poll(() => trailFiles.locator('a').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await shot(bob, 'trail-en');

    const detail = await api(`/api/v1/workflow/process-instances/${instanceId}/detail`, { token: tokens.bob });
    const approve = (detail.body.data.trail as any[]).find((e) => e.type === 'approve');
    expect(approve.detail.attachments.map((a: any) => a.name)).toEqual(['signed-off.png']);

    const phone = await as('bob', PHONE);
    await phone.goto(`${baseUrl()}/instances/${encodeURIComponent(instanceId)}`);
    await phone.waitForSelector('[data-testid=instance-files] img');
    await shot(phone, 'instance-phone');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('on a phone and in Chinese: the start form with files and a refused type', async () => {
    const phone = await as('alice', PHONE);
    await phone.goto(`${baseUrl()}/start/${KEY}`);
    await phone.waitForSelector('#start-receipts');
    await choose(phone, '#start-receipts', file('taxi.png', 'image/png', receiptPng));
    await fileRow(phone, 'receipts', 'taxi.png', 'done');
    await choose(
      phone,
      '#start-receipts',
      file('setup.exe', 'application/octet-stream', Buffer.from('MZ\x90\x00\x03\x00')),
    );
    const refused = await fileRow(phone, 'receipts', 'setup.exe', 'error');
    expect(await refused.textContent()).toContain(en.errors.byCode[42295]);
    // Dropped on the contract's zone (a drag from the desktop): uploaded like a chosen file.
    await phone.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'dropped-contract.pdf', { type: 'application/pdf' }));
      const zone = document.querySelector('[data-field=contract] [data-testid=dropzone]')!;
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, contractPdf.toString('base64'));
    await fileRow(phone, 'contract', 'dropped-contract.pdf', 'done');
    await shot(phone, 'start-phone');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    const zh = await as('alice', { locale: 'zh-CN' });
    await zh.goto(`${baseUrl()}/start/${KEY}`);
    await zh.waitForSelector('#start-receipts');
    expect(await zh.getAttribute('html', 'lang')).toBe('zh-CN');
    const zhField = await zh.textContent('[data-field=receipts]');
    expect(zhField).toContain(zhCN.files.choose(true));
    expect(zhField).toContain(zhCN.files.maxSize('5 MB'));
    expect(zhField).not.toContain(en.files.drop(true));
    await choose(zh, '#start-receipts', file('出租车发票.png', 'image/png', receiptPng));
    await fileRow(zh, 'receipts', '出租车发票.png', 'done');
    await choose(zh, '#start-receipts', file('invoice.html', 'text/html', Buffer.from('<html></html>')));
    const zhRefused = await fileRow(zh, 'receipts', 'invoice.html', 'error');
    expect(await zhRefused.textContent()).toContain(zhCN.errors.byCode[42295]);
    await shot(zh, 'start-zh-CN');
  });

  it("the designer's form editor offers the attachment field with multiple, accept, a size limit and most files", async () => {
    const admin = await as('admin', { password: 'secret-admin' });
    await admin.goto(`${baseUrl()}/admin/designer/new`);
    await admin.waitForSelector('[data-testid=flow]');
    await admin.fill('#p-name', 'Designed with receipts');
    await admin.fill('#p-key', 'designed_receipts');
    await admin.click('[data-testid=add-field]');
    await admin.fill('#p-field-0-name', 'receipts');
    await admin.fill('#p-field-0-label', 'Receipts');
    await admin.selectOption('#p-field-0-type', 'attachment');
    await admin.waitForSelector('[data-testid=attachment-options]');
    expect(await admin.$('#p-field-0-max')).toBeNull(); // most files: only with several
    await admin.check('#p-field-0-multiple');
    await admin.fill('#p-field-0-accept', 'image/*, .pdf');
    await admin.fill('#p-field-0-max-size', '5');
    await admin.fill('#p-field-0-max', '3');
    // The panel scrolls on its own: the picture is of the form's fields.
    await admin
      .locator('[data-testid=form-fields]')
      .screenshot({ path: path.join(SCREENSHOTS, 'attachments-designer-en.png') });
    await admin.click('[data-tool=save]');
    await admin.waitForSelector('[data-testid=designer-outcome]:has-text("saved")');
    const draftId = decodeURIComponent(new URL(admin.url()).pathname.split('/').pop()!);
    const saved = await api(`/api/v1/workflow/process-definitions/${draftId}`, { token: tokens.admin });
    expect(saved.body.data.dsl.ruleChain.additionalInfo.form.fields).toEqual([
      {
        name: 'receipts',
        type: 'attachment',
        label: 'Receipts',
        multiple: true,
        accept: ['image/*', '.pdf'],
        maxFileSize: 5 * 1024 * 1024,
        max: 3,
      },
    ]);
  });
});
