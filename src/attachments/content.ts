// What a file is and how it may be served (docs/attachments.md#content-rules): the type is judged
// from the bytes (file-type for binary formats, a look at the text for the rest), never from the
// client; only types a browser shows without running anything are served inline.
import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes the sniffing reads (file-type's own sample size). */
export const SNIFF_BYTES = 4100;

export interface Sniffed {
  contentType: string;
  /** The format's usual extension, without the dot ('bin' when unknown). */
  ext: string;
}

const TEXT_KINDS: Array<[RegExp, Sniffed]> = [
  [/^<!doctype\s+html|^<html[\s>]|^<head[\s>]|^<body[\s>]|^<script[\s>]/i, { contentType: 'text/html', ext: 'html' }],
  [
    /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype\s+svg[^>]*>\s*)?<svg[\s>]/i,
    { contentType: 'image/svg+xml', ext: 'svg' },
  ],
  [/^<\?xml/i, { contentType: 'application/xml', ext: 'xml' }],
];

/** Text a browser would not read as anything but text: valid UTF-8 without NUL or most controls. */
function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  // A sample may end inside a multi-byte character: ignore up to 3 trailing bytes.
  for (let cut = 0; cut <= Math.min(3, head.length); cut++) {
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      // eslint-disable-next-line no-control-regex
      return !/[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f]/.test(text);
    } catch {
      // try the next cut
    }
  }
  return false;
}

export async function sniff(head: Buffer): Promise<Sniffed> {
  const found = await fileTypeFromBuffer(head);
  // XML may be SVG (which runs scripts in a browser): looked at like any text.
  if (found && found.mime !== 'application/xml') return { contentType: found.mime, ext: found.ext };
  if (head.length && looksLikeText(head)) {
    const text = head
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    for (const [pattern, kind] of TEXT_KINDS) if (pattern.test(text)) return kind;
    return { contentType: 'text/plain', ext: 'txt' };
  }
  return { contentType: 'application/octet-stream', ext: 'bin' };
}

/** Shown in the browser (previews); everything else is a download (HTML, SVG, scripts, archives…). */
const INLINE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain']);
export const servedInline = (contentType: string) => INLINE.has(contentType);

/**
 * Whether a field's `accept` list takes a file: entries are MIME types (`application/pdf`),
 * wildcards (`image/*`) or extensions (`.pdf`), matched against the sniffed type. No list: all.
 */
export function accepted(accept: readonly string[] | undefined, file: Sniffed): boolean {
  if (!accept?.length) return true;
  return accept.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (!entry) return false;
    if (entry.startsWith('.')) return entry.slice(1) === file.ext || (entry === '.jpeg' && file.ext === 'jpg');
    if (entry.endsWith('/*')) return file.contentType.startsWith(entry.slice(0, -1));
    return entry === file.contentType;
  });
}

const MAX_NAME = 255;

/**
 * A file name fit to keep and show: the last path segment (no `/` or `\`), no control characters
 * (NUL included) or bidi overrides, at most 255 characters with the extension kept.
 */
export function safeName(raw: string | undefined | null): string {
  let name = (raw ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  name = name.replace(/^\.+/, '');
  if ([...name].length > MAX_NAME) {
    const chars = [...name];
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = chars.slice(0, MAX_NAME - [...ext].length).join('') + ext;
  }
  return name || 'file';
}

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(name: string, inline: boolean): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A `Range: bytes=…` header read against a size: one range, or null (serve all), or 'unsatisfiable'. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // several ranges or another unit: the whole file
  if (size === 0) return 'unsatisfiable';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
