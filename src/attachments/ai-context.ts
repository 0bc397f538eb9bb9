// An instance's files as context for the aiAgent node (docs/ai-review.md#attachments), read in the
// activity — never in workflow code: images as OpenAI-style image parts, the text of PDFs and
// plain-text documents as sections naming each file. Bounded: at most AI_MAX_IMAGES images of
// AI_MAX_IMAGE_BYTES each, AI_MAX_DOCUMENT_CHARS characters of document text in all, documents of
// at most AI_MAX_DOCUMENT_BYTES read; a file past a bound is named in the list, not sent.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Readable } from 'node:stream';
import { extractText } from 'unpdf';
import type { Config } from '../config.js';
import { attachmentStore, type AttachmentRow } from './attachments.js';
import { StoreUnavailable } from './store.js';

/** At most this many images go to the model (the first ones, in the order they were attached). */
export const AI_MAX_IMAGES = 5;
/** An image larger than this is named, not sent (4 MB: what hosted vision models take per image). */
export const AI_MAX_IMAGE_BYTES = 4 * 1024 * 1024;
/** Characters of document text sent in all (PDFs and text files together); a longer text is cut. */
export const AI_MAX_DOCUMENT_CHARS = 20_000;
/** A document larger than this is named, not read (its text would be cut anyway). */
export const AI_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export const AI_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
export const AI_DOCUMENT_TYPES: ReadonlySet<string> = new Set(['application/pdf', 'text/plain']);

/** An OpenAI-style image part of a user message. */
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string };
}

export interface AiAttachmentContext {
  /** `## Attachments`: every file named with what was done with it, then each document's text. */
  text: string;
  images: ImagePart[];
}

/** The instance's files (form fields, comments, task actions), in the order they were uploaded. */
export async function instanceFileRows(em: EntityManager, tenantId: string, instanceId: string) {
  return em.execute<AttachmentRow[]>(
    `select * from attachments where tenant_id = ? and instance_id = ? and source <> 'upload' and not deleting
      order by created_at, id`,
    [tenantId, instanceId],
  );
}

/** What of the files goes into the answer's fingerprint: a changed or added file is a new question. */
export const filesFingerprint = (rows: AttachmentRow[]) => rows.map((r) => `${r.id}:${r.sha256}`).join(',');

const sizeText = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

/** A file's name on one line (names are made safe at upload; a line break would break the list). */
const nameOf = (r: AttachmentRow) => r.name.replace(/[\r\n]+/g, ' ');

async function readAll(body: Readable, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const chunk of body) {
    n += (chunk as Buffer).length;
    if (n > max) {
      body.destroy();
      throw new Error(`larger than ${max} bytes`);
    }
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

/** The text of a document: a PDF's pages (unpdf), a text file's UTF-8. */
async function documentText(contentType: string, bytes: Buffer): Promise<string> {
  if (contentType === 'application/pdf') {
    const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
    return text;
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Reads the files and builds the context. A store that cannot be reached throws StoreUnavailable
 * (the activity retries); a single file that cannot be read or parsed is named with the reason.
 */
export async function aiAttachmentContext(config: Config, rows: AttachmentRow[]): Promise<AiAttachmentContext> {
  if (!rows.length) return { text: '', images: [] };
  const store = attachmentStore(config);
  const lines: string[] = [];
  const documents: string[] = [];
  const images: ImagePart[] = [];
  let charsLeft = AI_MAX_DOCUMENT_CHARS;
  const read = async (r: AttachmentRow, max: number) => {
    if (r.store !== store.kind) throw new Error(`kept in the ${r.store} store, not this worker's ${store.kind} store`);
    const object = await store.get(r.storage_key);
    return readAll(object.body, max);
  };
  for (const r of rows) {
    const size = Number(r.size);
    const head = `- ${nameOf(r)} (${r.content_type}, ${sizeText(size)})`;
    const notSent = (why: string) => lines.push(`${head}: not sent (${why})`);
    try {
      if (AI_IMAGE_TYPES.has(r.content_type)) {
        if (images.length >= AI_MAX_IMAGES) notSent(`only the first ${AI_MAX_IMAGES} images are sent`);
        else if (size > AI_MAX_IMAGE_BYTES) notSent(`larger than ${sizeText(AI_MAX_IMAGE_BYTES)}`);
        else {
          const bytes = await read(r, AI_MAX_IMAGE_BYTES);
          images.push({
            type: 'image_url',
            image_url: { url: `data:${r.content_type};base64,${bytes.toString('base64')}` },
          });
          lines.push(`${head}: image ${images.length} below`);
        }
      } else if (AI_DOCUMENT_TYPES.has(r.content_type)) {
        if (charsLeft <= 0)
          notSent(`the ${AI_MAX_DOCUMENT_CHARS.toLocaleString('en')} characters of document text are used up`);
        else if (size > AI_MAX_DOCUMENT_BYTES) notSent(`larger than ${sizeText(AI_MAX_DOCUMENT_BYTES)}`);
        else {
          const text = (await documentText(r.content_type, await read(r, AI_MAX_DOCUMENT_BYTES))).trim();
          if (!text) notSent('no text in it');
          else {
            const sent = text.slice(0, charsLeft);
            charsLeft -= sent.length;
            const cut = sent.length < text.length ? ` (the first ${sent.length} of ${text.length} characters)` : '';
            lines.push(`${head}: text below${cut}`);
            documents.push(`### ${nameOf(r)}${cut}\n${sent}`);
          }
        }
      } else notSent('not an image, a PDF or a text document');
    } catch (err) {
      if (err instanceof StoreUnavailable) throw err;
      // No error text in the prompt: a store's error may name its paths.
      notSent(AI_DOCUMENT_TYPES.has(r.content_type) ? 'its text could not be read' : 'it could not be read');
    }
  }
  return { text: ['## Attachments', lines.join('\n'), ...documents].join('\n\n'), images };
}
