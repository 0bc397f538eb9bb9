// Where attachment bytes live (docs/attachments.md#storage): one interface, two back ends. The
// disk store is the embedded default of `npm start` (one host); production runs S3-compatible
// object storage (AWS S3, MinIO, Ceph, SeaweedFS) shared by every server and worker.
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { DiskStore } from './disk-store.js';
import { S3Store } from './s3-store.js';

export interface StoredObject {
  body: Readable;
  /** Bytes in `body` (the range's length when a range was asked for). */
  length: number;
}

export interface AttachmentStore {
  readonly kind: 'disk' | 's3';
  /**
   * Stores `body` under `key` whole or not at all: a stream that fails or is cut off leaves no
   * object (the disk store writes a temporary file and renames it; S3 aborts the multipart upload).
   */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** The bytes `[start, end]` (inclusive) or all of them. */
  get(key: string, range?: { start: number; end: number }): Promise<StoredObject>;
  /** Idempotent: a missing object is fine. */
  delete(key: string): Promise<void>;
  /** Throws when the store cannot be reached (readiness, tests). */
  check(): Promise<void>;
}

/** Thrown by a store whose back end is down or refuses: the HTTP layer answers 503. */
export class StoreUnavailable extends Error {}

/** An object's key: the attachment id, fanned out by its first two characters. */
export const storageKeyOf = (id: string) => `${id.slice(0, 2)}/${id}`;

export function createStore(config: Config): AttachmentStore {
  if (config.ATTACHMENT_STORE === 's3') {
    if (!config.S3_BUCKET) throw new Error('ATTACHMENT_STORE=s3 needs S3_BUCKET');
    return new S3Store({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
          : undefined,
    });
  }
  return new DiskStore(config.ATTACHMENT_DIR ?? path.join(config.DATA_DIR, 'attachments'));
}
