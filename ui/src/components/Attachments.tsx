// Files in the console: the upload control (drag and drop or choose; one request per file with its
// progress; the server's refusal in words; remove before sending) used by attachment form fields,
// comments and task actions, and the chips that show attached files as links.
import { createContext } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n';
import { api, call, errorText } from '../lib/api';
import { fmtSize, uploadFile, type Attachment, type FileRef } from '../lib/upload';
import s from './Attachments.module.css';

/** A file as far as the page knows it: always id, name, size and type; the signed URLs when listed. */
export type KnownFile = FileRef & Partial<Pick<Attachment, 'url' | 'downloadUrl'>>;

/**
 * What the page knows about files: the instance's files by id (their names and signed URLs), and the
 * process whose start form a field belongs to (uploads are then checked against the field at once).
 */
export const FilesContext = createContext<{ files: Record<string, KnownFile>; processKey?: string }>({ files: {} });

let pending = 0;
/** Uploads still on their way: a form is not sent before they are done. */
export const uploadsInProgress = () => pending;

interface Item {
  key: string;
  name: string;
  size: number;
  percent: number;
  state: 'uploading' | 'done' | 'error';
  error?: string;
  file?: KnownFile;
  /** Uploaded here (so still deletable); files already attached are only left out. */
  mine?: boolean;
  abort?: () => void;
}

let seq = 0;

/** The hint under a control: accepted types, the size limit, the most files. */
function hintOf(accept?: string[], maxFileSize?: number, max?: number): string {
  return [
    accept?.length ? t.files.accept(accept.join(', ')) : '',
    maxFileSize ? t.files.maxSize(fmtSize(maxFileSize)) : '',
    max ? t.files.maxFiles(max) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

export function FileUpload({
  id,
  value,
  onChange,
  multiple = false,
  accept,
  maxFileSize,
  max,
  field,
  disabled,
  describedBy,
  invalid,
}: {
  id: string;
  /** The ids of the files uploaded (or attached) so far. */
  value: string[];
  onChange: (ids: string[]) => void;
  multiple?: boolean;
  accept?: string[];
  maxFileSize?: number;
  max?: number;
  /** The start form's field: the upload is checked against its `accept` and `maxFileSize` at once. */
  field?: string;
  disabled?: boolean;
  describedBy?: string;
  invalid?: boolean;
}) {
  const ctx = useContext(FilesContext);
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const [note, setNote] = useState('');
  const ref = useRef<Item[]>([]);
  // The latest onChange: an upload that ends later must not write an older form's values back.
  const changed = useRef(onChange);
  changed.current = onChange;
  const idsOf = (list: Item[]) => list.filter((x) => x.state === 'done' && x.file).map((x) => x.file!.id);
  const update = (fn: (list: Item[]) => Item[]) => {
    const before = idsOf(ref.current).join();
    ref.current = fn(ref.current);
    setItems(ref.current);
    const ids = idsOf(ref.current);
    if (ids.join() !== before) changed.current(ids);
  };
  const patch = (key: string, p: Partial<Item>) => update((l) => l.map((x) => (x.key === key ? { ...x, ...p } : x)));

  // Ids given from outside (a draft, the saved form) are shown as done files.
  useEffect(() => {
    const have = new Set(idsOf(ref.current));
    const missing = value.filter((v) => !have.has(v));
    const gone = new Set(idsOf(ref.current).filter((v) => !value.includes(v)));
    // Files named by id only until the page's list arrived get their names and links from it.
    const named = ref.current.some((x) => !x.mine && x.file && !x.file.url && ctx.files[x.file.id]);
    if (!missing.length && !gone.size && !named) return;
    ref.current = [
      ...ref.current
        .filter((x) => !(x.state === 'done' && x.file && gone.has(x.file.id)))
        .map((x) => {
          const known = !x.mine && x.file && !x.file.url ? ctx.files[x.file.id] : undefined;
          return known ? { ...x, name: known.name, size: known.size, file: known } : x;
        }),
      ...missing.map((v) => {
        const known = ctx.files[v];
        return {
          key: `v${v}`,
          name: known?.name ?? v,
          size: known?.size ?? 0,
          percent: 100,
          state: 'done' as const,
          file: known ?? { id: v, name: v, size: 0, contentType: '' },
        };
      }),
    ];
    setItems(ref.current);
  }, [value.join(), ctx.files]);

  const remove = (item: Item) => {
    item.abort?.();
    if (item.mine && item.file)
      void call(api.DELETE('/api/v1/attachments/{id}', { params: { path: { id: item.file.id } } })).catch(() => {});
    update((l) => l.filter((x) => x.key !== item.key));
  };

  const add = (files: File[]) => {
    setNote('');
    if (!files.length || disabled) return;
    let chosen = multiple ? files : files.slice(0, 1);
    if (!multiple) for (const x of ref.current) remove(x);
    const kept = ref.current.filter((x) => x.state !== 'error').length;
    if (multiple && max && kept + chosen.length > max) {
      chosen = chosen.slice(0, Math.max(0, max - kept));
      setNote(t.files.tooMany(max));
    }
    for (const file of chosen) {
      const key = `u${++seq}`;
      const base = { key, name: file.name, size: file.size, percent: 0 };
      if (maxFileSize && file.size > maxFileSize) {
        update((l) => [...l, { ...base, state: 'error', error: t.files.tooLarge(file.name, fmtSize(maxFileSize)) }]);
        continue;
      }
      const where = field && ctx.processKey ? { processKey: ctx.processKey, field } : {};
      const up = uploadFile(file, where, (percent) => patch(key, { percent }));
      update((l) => [...l, { ...base, state: 'uploading', abort: up.abort }]);
      pending++;
      up.done
        .then((a) => patch(key, { state: 'done', percent: 100, file: a, mine: true, abort: undefined }))
        .catch((err) => patch(key, { state: 'error', error: errorText(err), abort: undefined }))
        .finally(() => pending--);
    }
  };

  const hint = hintOf(accept, maxFileSize, multiple ? max : undefined);
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div class={s.upload} data-upload={id}>
      <div
        class={`${s.drop} ${over ? s.over : ''} ${disabled ? s.disabled : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          add([...(e.dataTransfer?.files ?? [])]);
        }}
      >
        <input
          type="file"
          id={id}
          class={s.input}
          multiple={multiple}
          accept={accept?.length ? accept.join(',') : undefined}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={[hintId, describedBy].filter(Boolean).join(' ') || undefined}
          onChange={(e) => {
            add([...(e.currentTarget.files ?? [])]);
            e.currentTarget.value = '';
          }}
        />
        <label for={id} class={s.choose}>
          {t.files.choose(multiple)}
        </label>
        <span class="muted">{t.files.drop(multiple)}</span>
      </div>
      {hint && (
        <small class="muted" id={hintId}>
          {hint}
        </small>
      )}
      {note && (
        <span class="error" role="alert">
          {note}
        </span>
      )}
      {items.length > 0 && (
        <ul class={s.list} aria-live="polite">
          {items.map((x) => (
            <li key={x.key} class={s.item} data-file-name={x.name} data-state={x.state}>
              <span class={s.name}>
                {x.file?.url ? (
                  <a href={x.file.url} target="_blank" rel="noopener">
                    {x.name}
                  </a>
                ) : (
                  x.name
                )}
              </span>
              <span class={s.meta}>
                {x.size > 0 && <span class="muted">{fmtSize(x.size)}</span>}
                {x.state === 'uploading' && (
                  <>
                    <progress class={s.bar} max={100} value={x.percent} aria-label={t.files.progress(x.name)} />
                    <span>{t.files.uploading(x.percent)}</span>
                  </>
                )}
                {x.state === 'done' && x.mine && <span class={s.done}>✓ {t.files.uploaded}</span>}
                {x.state === 'error' && (
                  <span class="error" role="alert" data-testid="upload-error">
                    {x.error}
                  </span>
                )}
              </span>
              {!disabled && (
                <button
                  type="button"
                  class={`small-button ${s.remove}`}
                  aria-label={t.files.remove(x.name)}
                  onClick={() => remove(x)}
                >
                  {t.files.removeButton}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Attached files as links (the signed URL when the page knows it; a file the caller may not open by name only). */
export function FileChips({ files, testid }: { files: FileRef[]; testid?: string }) {
  const ctx = useContext(FilesContext);
  if (!files.length) return null;
  return (
    <ul class={s.chips} data-testid={testid ?? 'file-chips'}>
      {files.map((f) => {
        const known: KnownFile = { ...f, ...ctx.files[f.id] };
        return (
          <li key={f.id} class={s.chip} data-file-id={f.id}>
            {known.url ? (
              <a href={known.url} target="_blank" rel="noopener">
                {known.name}
              </a>
            ) : (
              <span>{known.name}</span>
            )}
            {known.size > 0 && <span class="muted small">{fmtSize(known.size)}</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** An attachment form field: the upload control while editable, its files as chips when read-only. */
export function AttachmentField({
  id,
  name,
  value,
  set,
  readOnly,
  multiple,
  accept,
  maxFileSize,
  max,
  describedBy,
  invalid,
}: {
  id: string;
  name: string;
  value: unknown;
  set: (v: unknown) => void;
  readOnly: boolean;
  multiple?: boolean;
  accept?: string[];
  maxFileSize?: number;
  max?: number;
  describedBy?: string;
  invalid?: boolean;
}) {
  const ctx = useContext(FilesContext);
  const ids = (Array.isArray(value) ? value : value ? [value] : []).filter((v): v is string => typeof v === 'string');
  if (readOnly)
    return ids.length ? (
      <FileChips
        files={ids.map((v) => ctx.files[v] ?? { id: v, name: v, size: 0, contentType: '' })}
        testid={`field-files-${name}`}
      />
    ) : (
      <p class="muted">{t.common.none}</p>
    );
  return (
    <FileUpload
      id={id}
      value={ids}
      onChange={(next) => set(next.length ? (multiple ? next : next[0]) : undefined)}
      multiple={multiple}
      accept={accept}
      maxFileSize={maxFileSize}
      max={typeof max === 'number' ? max : undefined}
      field={name}
      describedBy={describedBy}
      invalid={invalid}
    />
  );
}
