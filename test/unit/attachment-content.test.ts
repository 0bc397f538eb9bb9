// The pure rules of attachments (src/attachments/content.ts): what a file is, how it may be served,
// what a field accepts, names made safe, ranges read.
import { describe, expect, it } from 'vitest';
import {
  accepted,
  contentDisposition,
  parseRange,
  safeName,
  servedInline,
  sniff,
} from '../../src/attachments/content.js';
import { PNG, pdfWithText } from '../helpers/attachments.js';

describe('sniff', () => {
  it.each([
    [PNG, 'image/png', 'png'],
    [pdfWithText('x'), 'application/pdf', 'pdf'],
    [Buffer.from('plain words\nand lines'), 'text/plain', 'txt'],
    [Buffer.from('\uFEFF  <!DOCTYPE html><p>x'), 'text/html', 'html'],
    [Buffer.from('<html><script>1</script>'), 'text/html', 'html'],
    [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', 'svg'],
    [Buffer.from('<?xml version="1.0"?>\n<!-- c -->\n<svg onload="x"/>'), 'image/svg+xml', 'svg'],
    [Buffer.from('<?xml version="1.0"?><note/>'), 'application/xml', 'xml'],
    [Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]), 'application/x-msdownload', 'exe'],
    [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]), 'image/jpeg', 'jpg'],
    [Buffer.alloc(0), 'application/octet-stream', 'bin'],
  ])('%#: judged %s', async (bytes, contentType, ext) => {
    expect(await sniff(bytes)).toEqual({ contentType, ext });
  });

  it('reads text cut inside a multi-byte character as text', async () => {
    const text = Buffer.from('发票'.repeat(2000));
    expect((await sniff(text.subarray(0, 4100))).contentType).toBe('text/plain');
  });
});

describe('serving', () => {
  it('shows only what a browser cannot run', () => {
    for (const t of ['image/png', 'image/jpeg', 'application/pdf', 'text/plain']) expect(servedInline(t)).toBe(true);
    for (const t of [
      'text/html',
      'image/svg+xml',
      'application/xml',
      'application/octet-stream',
      'application/javascript',
    ])
      expect(servedInline(t)).toBe(false);
  });

  it('names the file in ASCII and in UTF-8', () => {
    expect(contentDisposition('发票 "1".pdf', false)).toBe(
      `attachment; filename="__ _1_.pdf"; filename*=UTF-8''%E5%8F%91%E7%A5%A8%20%221%22.pdf`,
    );
    expect(contentDisposition("a'(b).txt", true)).toBe(
      `inline; filename="a'(b).txt"; filename*=UTF-8''a%27%28b%29.txt`,
    );
  });

  it.each([
    [undefined, 10, null],
    ['bytes=0-3', 10, { start: 0, end: 3 }],
    ['bytes=5-', 10, { start: 5, end: 9 }],
    ['bytes=-3', 10, { start: 7, end: 9 }],
    ['bytes=-30', 10, { start: 0, end: 9 }],
    ['bytes=4-100', 10, { start: 4, end: 9 }],
    ['bytes=10-', 10, 'unsatisfiable'],
    ['bytes=5-2', 10, 'unsatisfiable'],
    ['bytes=-0', 10, 'unsatisfiable'],
    ['bytes=0-1,4-5', 10, null],
    ['items=0-1', 10, null],
  ] as const)('range %s of %d', (header, size, want) => {
    expect(parseRange(header, size)).toEqual(want);
  });
});

describe('accept lists', () => {
  const png = { contentType: 'image/png', ext: 'png' };
  const pdf = { contentType: 'application/pdf', ext: 'pdf' };
  const jpg = { contentType: 'image/jpeg', ext: 'jpg' };
  it('takes MIME types, wildcards and extensions against the sniffed type', () => {
    expect(accepted(undefined, png)).toBe(true);
    expect(accepted([], png)).toBe(true);
    expect(accepted(['image/*'], png)).toBe(true);
    expect(accepted(['image/*'], pdf)).toBe(false);
    expect(accepted(['.pdf', 'image/png'], pdf)).toBe(true);
    expect(accepted([' .PDF '], pdf)).toBe(true);
    expect(accepted(['.jpeg'], jpg)).toBe(true);
    expect(accepted(['application/pdf'], png)).toBe(false);
    expect(accepted([''], png)).toBe(false);
  });
});

describe('safeName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\doc.txt', 'doc.txt'],
    ['a\u0000b\u0007c.txt', 'abc.txt'],
    ['evil\u202Etxt.exe', 'eviltxt.exe'],
    ['...hidden', 'hidden'],
    ['', 'file'],
    [null, 'file'],
    ['dir/', 'file'],
  ])('%j → %j', (raw, want) => {
    expect(safeName(raw)).toBe(want);
  });

  it('keeps at most 255 characters and the extension', () => {
    const name = safeName(`${'长'.repeat(2000)}.pdf`);
    expect([...name]).toHaveLength(255);
    expect(name.endsWith('长.pdf')).toBe(true);
  });
});
