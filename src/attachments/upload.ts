// POST /api/v1/attachments (docs/attachments.md#upload): the multipart body is streamed through
// busboy into the store while it is counted, hashed, sniffed and (with CLAMAV_HOST) scanned — never
// held whole in memory. The row is written only after the whole object is stored and judged, so a
// cut-off upload, a file over the limit, a refused type or a store that is down leaves nothing.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import busboy from 'busboy';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps, Principal } from '../context.js';
import { AppError } from '../errors.js';
import { activeForStart } from '../definitions/definitions.js';
import { canonicalType, type FormFieldSpec } from '../../dsl/index.js';
import { accepted, safeName, sniff, SNIFF_BYTES, type Sniffed } from './content.js';
import { ClamScan, clamdAddress } from './clamav.js';
import { attachmentStore, limitsOf, type AttachmentRow } from './attachments.js';
import { storageKeyOf, StoreUnavailable } from './store.js';

/** Room for the multipart framing around the file in a Content-Length check. */
const FRAMING_BYTES = 64 * 1024;

class TooLarge extends Error {}

/** Counts, hashes and keeps the first bytes of what passes; fails past `max` bytes; feeds the scan. */
class Inspect extends Transform {
  size = 0;
  readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headBytes = 0;
  constructor(
    private readonly max: number,
    private readonly scan: ClamScan | null,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.max) return done(new TooLarge());
    this.hash.update(chunk);
    if (this.headBytes < SNIFF_BYTES) {
      this.head.push(chunk.subarray(0, SNIFF_BYTES - this.headBytes));
      this.headBytes += Math.min(chunk.length, SNIFF_BYTES - this.headBytes);
    }
    if (!this.scan) return done(null, chunk);
    this.scan.write(chunk).then(
      () => done(null, chunk),
      (err: Error) => done(err),
    );
  }
  sample() {
    return Buffer.concat(this.head);
  }
}

/** The start-form field an upload is meant for (`?processKey=&field=`): its accept list and size limit. */
async function fieldFor(em: EntityManager, principal: Principal, processKey?: string, field?: string) {
  if (!processKey || !field) return null;
  const def = await activeForStart(em, principal.tenantId, processKey);
  const spec = ((def.form as { fields?: FormFieldSpec[] } | null)?.fields ?? []).find((f) => f?.name === field);
  if (!spec || canonicalType(spec.type) !== 'attachment')
    throw new AppError('VALIDATION_FAILED', `field: ${processKey} has no attachment field ${field}`, {
      fields: [{ path: 'query.field', message: 'not an attachment field of the start form' }],
    });
  return spec as FormFieldSpec & { accept?: string[]; maxFileSize?: number };
}

export async function upload(
  deps: AppDeps,
  principal: Principal,
  req: IncomingMessage,
  query: { processKey?: string; field?: string },
): Promise<AttachmentRow> {
  const em = deps.orm.em.fork();
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType))
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data with one part named "file"');
  const [limits, spec] = await Promise.all([
    limitsOf(em, deps.config, principal.tenantId),
    fieldFor(em, principal, query.processKey, query.field),
  ]);
  const max = Math.min(limits.maxFileBytes, spec?.maxFileSize ?? Infinity);
  const tooLarge = () =>
    new AppError('ATTACHMENT_TOO_LARGE', `The file is larger than ${max} bytes`, { maxFileBytes: max });
  // Known from the headers: refused before a byte of the body is read.
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > max + FRAMING_BYTES) throw tooLarge();
  const [{ used }] = await em.execute(
    'select coalesce(sum(size), 0)::bigint as used from attachments where tenant_id = ?',
    [principal.tenantId],
  );
  const room = limits.maxTotalBytes - Number(used);
  if (room <= 0 || (Number.isFinite(declared) && declared > room + FRAMING_BYTES))
    throw new AppError('ATTACHMENT_REFUSED', "The tenant's attachment storage is full", { reason: 'quota' });

  const id = randomUUID();
  const key = storageKeyOf(id);
  const store = attachmentStore(deps.config);
  const scan = deps.config.CLAMAV_HOST
    ? new ClamScan(clamdAddress(deps.config.CLAMAV_HOST), deps.config.CLAMAV_TIMEOUT_MS)
    : null;
  const inspect = new Inspect(Math.min(max, room), scan);
  // Its failures reach the answer through the promises below, never as an unhandled event.
  inspect.on('error', () => undefined);
  let name: string | null = null;
  let stored: Promise<void> | null = null;

  const parsed = new Promise<void>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10, parts: 11, fileSize: max + 1 } });
    } catch {
      return reject(new AppError('VALIDATION_FAILED', 'A multipart body needs its boundary'));
    }
    parser.on('file', (field, file, info) => {
      if (field !== 'file' || stored) {
        file.resume();
        return;
      }
      name = safeName(info.filename);
      file.on('error', (err) => inspect.destroy(err));
      // Over the limit or the store failed: stop reading; the answer goes out at once.
      inspect.once('error', (err) => {
        file.unpipe(inspect);
        req.unpipe(parser);
        reject(err);
      });
      file.pipe(inspect);
      stored = store.put(key, inspect, 'application/octet-stream');
      stored.catch(() => undefined);
    });
    parser.on('error', (err) => {
      inspect.destroy(err as Error);
      reject(
        new AppError('VALIDATION_FAILED', `The multipart body is malformed or cut off: ${(err as Error).message}`),
      );
    });
    parser.on('close', resolve);
    // The client went away mid-body: busboy never finishes.
    req.on('aborted', () => {
      const err = new Error('the upload was cut off');
      inspect.destroy(err);
      reject(new AppError('VALIDATION_FAILED', err.message));
    });
    req.pipe(parser);
  });

  let judged: Sniffed;
  try {
    await parsed;
    if (!stored)
      throw new AppError('VALIDATION_FAILED', 'Send one part named "file"', {
        fields: [{ path: 'file', message: 'required' }],
      });
    await stored;
    judged = await sniff(inspect.sample());
    if (spec && !accepted(spec.accept, judged))
      throw new AppError(
        'ATTACHMENT_REFUSED',
        `field ${spec.name} takes ${spec.accept!.join(', ')}; this file is ${judged.contentType}`,
        {
          fields: [{ path: `variables.${spec.name}`, message: `${judged.contentType} is not accepted` }],
        },
      );
    if (scan) {
      const verdict = await scan.verdict();
      if (!verdict.clean)
        throw new AppError('ATTACHMENT_INFECTED', `The virus scan found ${verdict.signature} in the file`, {
          signature: verdict.signature,
        });
    }
  } catch (err) {
    scan?.abort();
    if (stored) await store.delete(key).catch(() => undefined);
    if (err instanceof TooLarge || (err instanceof AppError && inspect.errored instanceof TooLarge)) throw tooLarge();
    if (inspect.errored instanceof TooLarge) throw tooLarge();
    if (err instanceof StoreUnavailable)
      throw new AppError('UNAVAILABLE', `Attachment store unavailable: ${err.message}`);
    if (err instanceof AppError) throw err;
    throw new AppError('UNAVAILABLE', `Attachment store unavailable: ${(err as Error).message}`);
  }
  try {
    const [row] = await em.execute<AttachmentRow[]>(
      `insert into attachments (id, tenant_id, name, size, content_type, ext, sha256, uploader_id, store, storage_key)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`,
      [
        id,
        principal.tenantId,
        name ?? 'file',
        inspect.size,
        judged.contentType,
        judged.ext,
        inspect.hash.digest('hex'),
        principal.userId,
        store.kind,
        key,
      ],
    );
    return row!;
  } catch (err) {
    await store.delete(key).catch(() => undefined);
    throw err;
  }
}
