// The instance's files (GET /process-instances/{id}/attachments: those the caller may see): name,
// size, who uploaded it and where it came from (a form field, a comment, a decision), a thumbnail for
// images, a PDF preview opened on demand, and a download link. The signed URLs are the API's.
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import { fmtSize, previewKind, type Attachment } from '../../lib/upload';
import { Section, fmtTime } from '../../components/ui';
import type { Field } from '../../components/FormFields';
import s from './files.module.css';

function sourceText(f: Attachment, fields: Field[]): string {
  switch (f.source) {
    case 'form': {
      const field = fields.find((x) => x.name === f.field);
      return t.files.source.form(field?.label ?? f.field ?? '');
    }
    case 'comment':
      return t.files.source.comment;
    case 'action':
      return t.files.source.action;
    default:
      return t.files.source.upload;
  }
}

/** The type mark of a file without a thumbnail: its extension (PDF, DOCX, …), or a blank page. */
const extension = (name: string) => /\.([a-z0-9]{1,5})$/i.exec(name)?.[1]?.toUpperCase() ?? '';

function FileRow({ f, fields }: { f: Attachment; fields: Field[] }) {
  const [open, setOpen] = useState(false);
  const kind = previewKind(f.contentType);
  return (
    <li class={s.row} data-file-id={f.id} data-file-name={f.name} data-kind={kind ?? 'other'}>
      {kind === 'image' ? (
        <a href={f.url} target="_blank" rel="noopener" class={s.thumb}>
          <img src={f.url} alt={t.files.previewOf(f.name)} />
        </a>
      ) : (
        <span class={`${s.icon} ${kind === 'pdf' ? s.pdfIcon : ''}`} aria-hidden="true">
          {extension(f.name)}
        </span>
      )}
      <div class={s.info}>
        <a class={s.name} href={f.url} target="_blank" rel="noopener">
          {f.name}
        </a>
        <span class="muted small">
          {fmtSize(f.size)} · {t.files.who}: {f.uploaderId} · {t.files.from}: {sourceText(f, fields)} ·{' '}
          {fmtTime(f.createdAt)}
        </span>
        <span class={s.links}>
          {kind === 'pdf' && (
            <button type="button" class="small-button" aria-expanded={open} onClick={() => setOpen(!open)}>
              {open ? t.files.hidePreview : t.files.preview}
            </button>
          )}
          <a href={f.downloadUrl} download={f.name} data-testid="download" aria-label={t.files.downloadOf(f.name)}>
            ⬇ {t.files.download}
          </a>
        </span>
      </div>
      {open && <iframe class={s.pdf} src={f.url} title={t.files.previewOf(f.name)} data-testid="pdf-preview" />}
    </li>
  );
}

export function AttachmentsSection({ files, fields }: { files: Attachment[] | undefined; fields: Field[] }) {
  // A request without files has no card for them.
  if (!files?.length) return null;
  return (
    <Section title={t.files.title} id="files">
      <ul class={s.list} data-testid="instance-files">
        {files.map((f) => (
          <FileRow key={f.id} f={f} fields={fields} />
        ))}
      </ul>
    </Section>
  );
}
