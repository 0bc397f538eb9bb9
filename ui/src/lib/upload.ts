// Uploads one file to POST /api/v1/attachments with an XMLHttpRequest (fetch reports no upload
// progress): multipart with one part `file`, the session's bearer token and the console's language,
// as the typed client sends them (lib/api.ts). The answer is the usual envelope; an error answer
// becomes the same ApiError, so the words are the catalogue's (413 too large, 422 refused or infected).
import { locale, t } from '../i18n';
import { ApiError, type Schemas } from './api';
import { session } from './session';

export type Attachment = Schemas['Attachment'];

/** A file as comments and trail entries name it. */
export interface FileRef {
  id: string;
  name: string;
  size: number;
  contentType: string;
}

export interface Upload {
  /** Settles with the stored attachment, or rejects with an ApiError; never settles once the session ended. */
  done: Promise<Attachment>;
  abort: () => void;
}

/** `onProgress` gets 0–100 as the bytes leave the browser. */
export function uploadFile(
  file: File,
  where: { processKey?: string; field?: string },
  onProgress: (percent: number) => void,
): Upload {
  const xhr = new XMLHttpRequest();
  const token = session.get()?.token;
  const done = new Promise<Attachment>((resolve, reject) => {
    if (session.ended) return; // the page is being replaced: nothing is sent for an ended session
    const query = new URLSearchParams();
    if (where.processKey && where.field) {
      query.set('processKey', where.processKey);
      query.set('field', where.field);
    }
    xhr.open('POST', `/api/v1/attachments${query.size ? `?${query}` : ''}`);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept-Language', locale);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      // An answer for a session that has ended never reaches the page (as in lib/api.ts).
      if (token && !session.owns(token)) return;
      if (xhr.status === 401) return session.expire();
      let body: any = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // A proxy's page, or nothing: the status says enough.
      }
      if (xhr.status >= 200 && xhr.status < 300 && body?.data) {
        onProgress(100);
        return resolve(body.data as Attachment);
      }
      const code = body?.code ?? (xhr.status === 413 ? 41310 : 0);
      // The message names the field and the type already: its field list would only repeat it.
      reject(new ApiError(xhr.status, code, body?.message ?? '', null));
    };
    xhr.onerror = () => reject(new ApiError(0, 0, t.errors.network, null));
    xhr.onabort = () => reject(new ApiError(0, 0, '', null));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

/** Bytes in B, KB, MB or GB (1024 each), one decimal under 10. */
export function fmtSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  const shown = u === 0 || n >= 10 ? Math.round(n) : Math.round(n * 10) / 10;
  return `${new Intl.NumberFormat(locale).format(shown)} ${units[u]}`;
}

/** How a browser can show the file inline (the server serves only these inline). */
export function previewKind(contentType: string): 'image' | 'pdf' | null {
  if (/^image\/(png|jpeg|gif|webp)$/.test(contentType)) return 'image';
  if (contentType === 'application/pdf') return 'pdf';
  return null;
}
