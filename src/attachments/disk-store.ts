// The disk back end: one file per object under a folder; written to a temporary name and renamed,
// so a reader never sees half an object and a cut-off upload leaves nothing.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StoreUnavailable, type AttachmentStore, type StoredObject } from './store.js';

/** Keys are `ab/<uuid>` (storageKeyOf); anything else is refused (no path tricks). */
const KEY = /^[0-9a-f]{2}\/[0-9a-f-]{36}$/;

export class DiskStore implements AttachmentStore {
  readonly kind = 'disk' as const;
  constructor(private readonly dir: string) {}

  private file(key: string) {
    if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`);
    return path.join(this.dir, key);
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.file(key);
    const temp = `${target}.${randomUUID()}.part`;
    try {
      await mkdir(path.dirname(target), { recursive: true });
    } catch (err) {
      throw new StoreUnavailable(`attachment folder not writable: ${(err as Error).message}`);
    }
    try {
      await pipeline(body, createWriteStream(temp, { flags: 'wx' }));
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: { start: number; end: number }): Promise<StoredObject> {
    const file = this.file(key);
    const size = await stat(file).then(
      (st) => st.size,
      (err: NodeJS.ErrnoException) => {
        // A row whose bytes are gone (a store not restored with the database): the operator's to fix.
        throw new StoreUnavailable(`object ${key} is missing from the disk store (${err.code})`);
      },
    );
    const body = createReadStream(file, range ? { start: range.start, end: range.end } : {});
    return { body, length: range ? range.end - range.start + 1 : size };
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async check(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }
}
