// The S3-compatible back end (AWS S3, MinIO, Ceph, SeaweedFS): multipart upload from the request's
// stream (lib-storage's Upload: parts of 8 MiB, never the whole file in memory), ranged reads.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { StoreUnavailable, type AttachmentStore, type StoredObject } from './store.js';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** A network failure or a 5xx of the store: the caller answers 503, not 500. */
function unavailable(err: unknown): Error {
  if (err instanceof S3ServiceException) {
    if (err.name === 'NoSuchKey') return new StoreUnavailable('object missing from the bucket');
    if (err.$metadata.httpStatusCode && err.$metadata.httpStatusCode < 500) return err;
    return new StoreUnavailable(`object store: ${err.name}`);
  }
  const code = (err as { code?: string; name?: string }).code ?? (err as { name?: string }).name ?? '';
  if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|TimeoutError|socket hang up/i.test(code))
    return new StoreUnavailable(`object store unreachable: ${code}`);
  return err as Error;
}

export class S3Store implements AttachmentStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(opts: S3StoreOptions) {
    this.bucket = opts.bucket;
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials: opts.credentials,
      // A store that is down answers 503 within seconds instead of the SDK's long retries.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 3000, requestTimeout: 60_000 },
      // Checksums of every part would need the part buffered twice; SHA-256 is ours already.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType },
      queueSize: 2,
      partSize: 8 * 1024 * 1024,
      // A failed part aborts the whole multipart upload: nothing half-stored.
      leavePartsOnError: false,
    });
    // A body that errors (the client cut the request off) must stop the upload, not hang it.
    const cut = new Promise<never>((_, reject) => body.once('error', reject));
    cut.catch(() => undefined);
    try {
      await Promise.race([upload.done(), cut]);
    } catch (err) {
      await upload.abort().catch(() => undefined);
      // A single-part upload that finished before the abort: remove it.
      await this.delete(key).catch(() => undefined);
      throw unavailable(err);
    }
  }

  async get(key: string, range?: { start: number; end: number }): Promise<StoredObject> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return { body: out.Body as Readable, length: Number(out.ContentLength ?? 0) };
    } catch (err) {
      throw unavailable(err);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      throw unavailable(err);
    }
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      throw unavailable(err);
    }
  }
}
