// Message templates: pick a message and a language, edit its Liquid parts, preview it rendered for a
// request of the tenant (or a sample), save it, or reset it to the default. A template with an error
// is refused by the API (422 TEMPLATE_INVALID); its problems are shown under the parts they are in.
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { LOCALE_NAMES, fmtTime, locale as consoleLocale } from '../../i18n';
import { t } from './i18n';
import { ApiError, errorText } from '../../lib/api';
import { ErrorText, FormFooter, Loading, Section, useAsync } from '../../components/ui';
import {
  MESSAGE_KINDS,
  MESSAGE_LOCALES,
  PARTS,
  loadTemplate,
  previewTemplate,
  recentInstances,
  resetTemplate,
  saveTemplate,
  type MessageKind,
  type MessageLocale,
  type PartName,
  type Preview,
  type Template,
  type TemplateParts,
} from './api';
import { kindName } from './labels';
import css from './notification-admin.module.css';

type Parts = Record<PartName, string>;
type Problem = { field: string; line: number | null; column: number | null; message: string };

const ROWS: Record<PartName, number> = { title: 2, intro: 3, facts: 6, actions: 4, subject: 2, text: 8, html: 12 };

/** The 422 TEMPLATE_INVALID's problems (data.problems), or none for any other error. */
function problemsOf(err: unknown): Problem[] {
  if (!(err instanceof ApiError) || err.code !== 42260) return [];
  const list: unknown = err.data?.problems;
  return Array.isArray(list) ? (list as Problem[]) : [];
}

/** The parts that differ from the default: what a save overrides (`{}` is the default again). */
function overridesOf(parts: Parts, defaults: Parts): TemplateParts {
  const out: TemplateParts = {};
  for (const p of PARTS) if (parts[p] !== defaults[p]) out[p] = parts[p];
  return out;
}

const sameParts = (a: Parts, b: Parts) => PARTS.every((p) => a[p] === b[p]);

/** The HTML part in a frame without scripts, as tall as its content. */
function HtmlFrame({ html }: { html: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const fit = () => {
    const doc = frame.current?.contentDocument;
    if (doc?.documentElement) frame.current!.style.height = `${Math.min(1200, doc.documentElement.scrollHeight + 4)}px`;
  };
  return (
    <iframe
      ref={frame}
      class={css.frame}
      title={t.notifyAdmin.previewHtml}
      // No scripts run in it; same origin only so the console can measure its height.
      sandbox="allow-same-origin"
      srcdoc={html}
      onLoad={fit}
      data-testid="preview-html"
    />
  );
}

function PreviewView({ preview }: { preview: Preview }) {
  const m = preview.message;
  return (
    <div class={css.preview} data-testid="template-preview" aria-live="polite">
      <h3>{t.notifyAdmin.previewTitle}</h3>
      <p class="muted small">
        {t.notifyAdmin.previewTo(preview.recipient.name)} · {t.notifyAdmin.previewLinks}
      </p>
      <dl class="facts">
        <dt>{t.notifyAdmin.previewSubject}</dt>
        <dd data-testid="preview-subject">{m.subject}</dd>
      </dl>
      <h4>{t.notifyAdmin.previewCard}</h4>
      <div class={css.chatCard}>
        <strong data-testid="preview-title">{m.title}</strong>
        <p>{m.intro}</p>
        {m.facts.length > 0 && (
          <dl class="facts">
            {m.facts.map((f, i) => (
              <Fragment key={i}>
                <dt>{f.label}</dt>
                <dd>{f.value}</dd>
              </Fragment>
            ))}
          </dl>
        )}
        {m.actions.length > 0 && (
          <div class={css.cardButtons}>
            {m.actions.map((a, i) => (
              <span key={i} class={`${css.cardButton} ${css[a.style] ?? ''}`} title={a.url}>
                {a.label}
              </span>
            ))}
          </div>
        )}
      </div>
      <h4>{t.notifyAdmin.previewHtml}</h4>
      <HtmlFrame html={m.html} />
      <h4>{t.notifyAdmin.previewText}</h4>
      <pre class={css.text}>{m.text}</pre>
    </div>
  );
}

export function Templates() {
  const [kind, setKind] = useState<MessageKind>('task_assigned');
  const [lang, setLang] = useState<MessageLocale>(
    (MESSAGE_LOCALES as string[]).includes(consoleLocale) ? consoleLocale : 'en',
  );
  const loaded = useAsync(() => loadTemplate(kind, lang), [kind, lang]);
  const instances = useAsync(recentInstances, []);
  const [template, setTemplate] = useState<Template | null>(null);
  const [draft, setDraft] = useState<Parts | null>(null);
  const [instanceId, setInstanceId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ err: unknown; saving: boolean } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);

  useEffect(() => {
    if (!loaded.data) return;
    setTemplate(loaded.data);
    setDraft({ ...loaded.data.parts });
    setError(null);
    setPreview(null);
  }, [loaded.data]);

  const current = template && template.kind === kind && template.locale === lang ? template : null;
  const problems = error ? problemsOf(error.err) : [];
  const showPreview = !!preview && preview.kind === kind && preview.locale === lang;
  const dirty = !!current && !!draft && !sameParts(draft, current.parts);

  async function act(what: 'save' | 'preview' | 'reset') {
    if (!current || !draft) return;
    if (what === 'reset' && !window.confirm(t.notifyAdmin.confirmReset)) return;
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      if (what === 'preview') {
        setPreview(await previewTemplate(kind, lang, { ...(instanceId ? { instanceId } : {}), parts: draft }));
      } else {
        let next: Template;
        if (what === 'save') next = await saveTemplate(kind, lang, overridesOf(draft, current.defaults));
        else {
          await resetTemplate(kind, lang);
          next = await loadTemplate(kind, lang);
        }
        setTemplate(next);
        setDraft({ ...next.parts });
        setNote(what === 'save' ? t.notifyAdmin.templateSaved : t.notifyAdmin.resetDone);
      }
    } catch (err) {
      setError({ err, saving: what !== 'preview' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title={t.notifyAdmin.tab.templates} id="templates">
      <p class={css.help}>{t.notifyAdmin.templatesHelp}</p>
      <div class={css.pickers}>
        <div class="field">
          <label for="template-kind">{t.notifyAdmin.message}</label>
          <select
            id="template-kind"
            data-testid="template-kind"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as MessageKind)}
          >
            {MESSAGE_KINDS.map((k) => (
              <option key={k} value={k}>
                {kindName(k)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="template-locale">{t.notifyAdmin.locale}</label>
          <select
            id="template-locale"
            data-testid="template-locale"
            value={lang}
            onChange={(e) => setLang(e.currentTarget.value as MessageLocale)}
          >
            {MESSAGE_LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorText error={loaded.error} />
      {!current || !draft ? (
        !loaded.error && <Loading />
      ) : (
        <div class={`${css.templateGrid} ${showPreview ? css.withPreview : ''}`}>
          <form
            class={css.templateForm}
            data-testid="template-editor"
            data-kind={kind}
            data-locale={lang}
            onSubmit={(e) => {
              e.preventDefault();
              void act('save');
            }}
          >
            <p class="muted small" data-testid="template-state">
              {current.overridden.length
                ? t.notifyAdmin.customisedBy(current.updatedBy ?? '—', fmtTime(current.updatedAt))
                : t.notifyAdmin.isDefault}
            </p>
            {PARTS.map((p) => {
              const mine = problems.filter((x) => x.field === p);
              return (
                <div key={p} class="field" data-part={p}>
                  <label for={`part-${p}`}>
                    {t.notifyAdmin.parts[p]}
                    {current.overridden.includes(p) && <span class="tag">{t.notifyAdmin.customised}</span>}
                  </label>
                  <textarea
                    id={`part-${p}`}
                    name={p}
                    class={css.code}
                    rows={ROWS[p]}
                    spellcheck={false}
                    aria-invalid={mine.length ? 'true' : undefined}
                    aria-describedby={mine.length ? `problem-${p}` : undefined}
                    value={draft[p]}
                    onInput={(e) => {
                      setDraft({ ...draft, [p]: e.currentTarget.value });
                      setNote(null);
                    }}
                  />
                  {p === 'actions' && (
                    <span class="muted small">{t.notifyAdmin.styles('primary, danger, default')}</span>
                  )}
                  {mine.length > 0 && (
                    <ul class={`error small ${css.problems}`} id={`problem-${p}`} data-testid={`problem-${p}`}>
                      {mine.map((x, i) => (
                        <li key={i}>
                          {x.line === null ? x.message : t.notifyAdmin.problem(x.line, x.column ?? 1, x.message)}
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              );
            })}
            {error && (
              <div class="error" role="alert" data-testid="template-error">
                {error.saving && problems.length > 0 ? (
                  <>
                    <strong>{t.notifyAdmin.invalid}</strong> {(error.err as ApiError).apiMessage}
                  </>
                ) : (
                  errorText(error.err)
                )}
              </div>
            )}
            {note && (
              <p class="ok" role="status" data-testid="template-note">
                {note}
              </p>
            )}
            {dirty && !note && <p class="muted small">{t.notifyAdmin.unsaved}</p>}
            <div class={css.pickers}>
              <div class="field">
                <label for="preview-instance">{t.notifyAdmin.previewFor}</label>
                <select
                  id="preview-instance"
                  data-testid="preview-instance"
                  value={instanceId}
                  onChange={(e) => setInstanceId(e.currentTarget.value)}
                >
                  <option value="">{t.notifyAdmin.sample}</option>
                  {instances.data?.items.map((i) => (
                    <option key={i.id} value={i.id}>
                      {i.processName} {i.businessKey ?? ''} · {fmtTime(i.startTime)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <FormFooter busy={busy} label={t.notifyAdmin.saveTemplate} action="save-template">
              <button type="button" disabled={busy} data-action="preview" onClick={() => void act('preview')}>
                {t.notifyAdmin.preview}
              </button>
              <button
                type="button"
                class="danger"
                data-action="reset-template"
                disabled={busy || !current.overridden.length}
                onClick={() => void act('reset')}
              >
                {t.notifyAdmin.reset}
              </button>
            </FormFooter>
          </form>
          {showPreview && <PreviewView preview={preview} />}
        </div>
      )}
    </Section>
  );
}
