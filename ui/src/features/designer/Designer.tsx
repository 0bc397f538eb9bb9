// The process designer page (/admin/designer/new, /admin/designer/{id}): loaded on demand from
// the router, so the inbox never downloads it. The column editor, or the graph for processes
// that are not a column; the selected step's panel; problems; try it; compare.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { t } from './i18n';
import { api, ApiError, call, type Definition } from '../../lib/api';
import { navigate } from '../../lib/router';
import { useStore } from '../../lib/store';
import { ErrorText, Loading } from '../../components/ui';
import { t as tCommon } from '../../i18n';
import {
  loadAgents,
  loadDefinition,
  loadFunctions,
  saveDraft,
  validateOnServer,
  versionsOf,
  type Simulation,
} from './api';
import { ComparePanel } from './components/ComparePanel';
import { FlowEditor } from './components/FlowEditor';
import { GraphView } from './components/GraphView';
import { ProblemList } from './components/ProblemList';
import { SimulatePanel, simMarks } from './components/SimulatePanel';
import { Toolbar } from './components/Toolbar';
import { emptyDoc, type Doc } from './model/doc';
import { byNode, isWarning, type DesignProblem } from './model/problems';
import { NodePanel } from './panels/NodePanel';
import { ProcessPanel } from './panels/ProcessPanel';
import { DesignerStore, sameDocument, treeOf } from './store';
import { useLeaveGuard } from './leaveGuard';
import s from './designer.module.css';

interface Opened {
  store: DesignerStore;
  definition: Definition | null;
}

export function DesignerPage({ id }: { id: string | null }) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    // Saving a new draft moves the URL to its id: the open store stays.
    if (opened && (opened.definition?.id ?? null) === id) return;
    if (!id) {
      const d = t.designer;
      setOpened({ store: new DesignerStore(emptyDoc(d.newKey, d.newName, d.start, d.end)), definition: null });
      return;
    }
    loadDefinition(id).then(
      (definition) => setOpened({ store: new DesignerStore(definition.dsl as Doc), definition }),
      setError,
    );
  }, [id]);
  if (error) return <ErrorText error={error} />;
  if (!opened) return <Loading />;
  return <Editor opened={opened} onSaved={(definition) => setOpened({ ...opened, definition })} />;
}

/**
 * Publishes a saved draft with deploy's duplicate filter (docs/definitions.md "Publishing an unchanged document"):
 * a draft equal to the active version answers that version (another id) and nothing is published.
 */
const publishUnlessUnchanged = (draftId: string) =>
  call(
    api.POST('/api/v1/workflow/process-definitions/deploy', { body: { draftId, skipIfUnchanged: true } as any }),
  ) as Promise<Definition>;

/** The key's active version (its document and number), to tell whether there is anything to publish. */
async function activeVersionOf(definition: Definition): Promise<Definition | null> {
  if (definition.status === 'active') return definition;
  const versions = await versionsOf(definition.key);
  const active = versions.items.find((v) => v.status === 'active');
  return active ? loadDefinition(active.id) : null;
}

/** Text fields keep the browser's own undo: the designer's Ctrl+Z is for the page, not for typing. */
const typingIn = (el: EventTarget | null) =>
  el instanceof HTMLTextAreaElement ||
  (el instanceof HTMLInputElement &&
    !['button', 'checkbox', 'radio', 'range', 'color', 'file', 'submit', 'reset'].includes(el.type)) ||
  (el instanceof HTMLElement && el.isContentEditable);

function download(doc: Doc) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${doc.ruleChain?.id || 'process'}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Editor({ opened, onSaved }: { opened: Opened; onSaved: (d: Definition) => void }) {
  const { store, definition } = opened;
  const st = useStore(store);
  const problems = useStore(store.problems);
  const doc = st.history.doc;
  const tree = treeOf(doc);
  const [zoom, setZoom] = useState(1);
  const [sim, setSim] = useState<Simulation | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [server, setServer] = useState<DesignProblem[] | null>(null);
  const [active, setActive] = useState<Definition | null>(null);
  const canvas = useRef<HTMLDivElement>(null);
  const side = useRef<HTMLElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const grouped = useMemo(() => byNode(problems), [problems]);
  const marks = useMemo(() => simMarks(sim), [sim]);

  // The designer's own figure (npm run bench:ui): navigation start to the first drawn document.
  useLayoutEffect(() => void performance.mark('designer-rendered'), []);
  useEffect(() => {
    void loadFunctions().then(
      (list) => store.setFunctions(list.map((f) => f.id)),
      () => {},
    );
    void loadAgents().then(
      (list) => store.setAgents(list.map((a) => a.id)),
      () => {},
    );
  }, [store]);
  // The active version, once per opened or published definition: Publish has nothing to do while the page equals it.
  useEffect(() => {
    setActive(null);
    if (definition) void activeVersionOf(definition).then(setActive, () => setActive(null));
  }, [definition?.id, definition?.status]);
  const unchanged = useMemo(() => (active ? sameDocument(doc, active.dsl as Doc) : false), [doc, active]);
  const dirty = st.saved !== doc;
  useLeaveGuard(dirty, t.designer.leaveUnsaved);
  // Undo/redo keys anywhere on the page (focus on a button or the page itself too), except while typing.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || typingIn(e.target)) return;
      const key = e.key.toLowerCase();
      if (key === 'z') {
        e.preventDefault();
        if (e.shiftKey) store.redo();
        else store.undo();
      } else if (key === 'y') {
        e.preventDefault();
        store.redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
  // On a narrow screen the panel sits below the column: bring the selected step's panel into view.
  useEffect(() => {
    if (st.selected && window.matchMedia('(max-width: 800px)').matches)
      side.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [st.selected]);
  // The server's verdict a moment after the last edit (the browser's own is instant).
  useEffect(() => {
    setSim(null);
    const timer = setTimeout(() => {
      validateOnServer(doc).then(
        (r) => setServer(r.problems),
        (err) => setServer(err instanceof ApiError && Array.isArray(err.data?.problems) ? err.data.problems : null),
      );
    }, 700);
    return () => clearTimeout(timer);
  }, [doc]);

  const zoomBy = (f: number | 'fit') => {
    if (f !== 'fit') return setZoom((z) => Math.min(2, Math.max(0.2, z * f)));
    const box = canvas.current;
    const content = inner.current;
    if (!box || !content) return;
    // CSS zoom changes the layout size too, so the canvas scrolls over what is drawn.
    const rect = content.getBoundingClientRect();
    const ratio = Math.min(
      (box.clientWidth - 32) / (rect.width / zoom),
      (box.clientHeight - 32) / (rect.height / zoom),
    );
    setZoom(Math.min(1, Math.max(0.2, ratio)));
    box.scrollTo(0, 0);
  };

  const save = async (): Promise<Definition | null> => {
    setBusy(true);
    try {
      const draftId = definition?.status === 'draft' ? definition.id : null;
      const saved = await saveDraft(doc, draftId);
      store.markSaved(doc);
      onSaved(saved);
      if (definition?.id !== saved.id) navigate(`/admin/designer/${encodeURIComponent(saved.id)}`, true);
      setOutcome({ ok: true, text: t.designer.saved });
      return saved;
    } catch (err) {
      setOutcome({ ok: false, text: (err as Error).message });
      return null;
    } finally {
      setBusy(false);
    }
  };
  const publish = async () => {
    const draft = definition?.status === 'draft' && st.saved === doc ? definition : await save();
    if (!draft) return;
    setBusy(true);
    try {
      const published = await publishUnlessUnchanged(draft.id);
      onSaved(published);
      if (published.id !== draft.id) {
        // Nothing changed since the active version: it answered, the draft stays a draft.
        store.markSaved(doc);
        navigate(`/admin/designer/${encodeURIComponent(published.id)}`, true);
        setOutcome({ ok: true, text: t.designer.publishedUnchanged(published.version ?? null) });
      } else setOutcome({ ok: true, text: t.designer.published(published.version ?? null) });
    } catch (err) {
      if (err instanceof ApiError && Array.isArray(err.data?.problems)) setServer(err.data.problems);
      setOutcome({ ok: false, text: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Delete' && st.selected && !typingIn(e.target)) store.remove(st.selected);
  };

  const selected = st.selected ? doc.metadata.nodes.find((n) => n.id === st.selected) : undefined;
  // Warnings (deploy accepts them) do not block Publish: only errors, the browser's or the server's.
  const blocking = problems.some((p) => !isWarning(p)) || (server ?? []).some((p) => !isWarning(p));
  return (
    <div class={s.designer} onKeyDown={onKeyDown}>
      <h1>
        {t.designer.title}: {doc.ruleChain?.name || doc.ruleChain?.id}{' '}
        {definition && (
          <>
            {definition.version !== null && <span>v{definition.version}</span>}{' '}
            <span class={`status status-${definition.status}`} data-testid="definition-status">
              {tCommon.definitionStatus[definition.status] ?? definition.status}
            </span>
          </>
        )}
      </h1>
      <Toolbar
        canUndo={st.history.past.length > 0}
        canRedo={st.history.future.length > 0}
        onUndo={store.undo}
        onRedo={store.redo}
        zoom={zoom}
        onZoom={zoomBy}
        onExport={() => download(doc)}
        onSave={() => void save()}
        onPublish={() => void publish()}
        busy={busy}
        publishable={!blocking}
        unchanged={unchanged ? t.designer.unchanged(active?.version ?? null) : null}
        dirty={dirty}
      />
      {outcome && (
        <p class={outcome.ok ? 'ok' : 'error'} role="status" data-testid="designer-outcome">
          {outcome.text}
        </p>
      )}
      <div class={s.work}>
        <div class={s.canvas} ref={canvas} data-testid="canvas">
          {!tree && (
            <p class="muted small" id="graph-mode">
              {t.designer.graphMode} {t.designer.graphHelp}
            </p>
          )}
          <div class={s.zoom} ref={inner} style={{ zoom }}>
            {tree ? (
              <FlowEditor doc={doc} tree={tree} store={store} problems={grouped} selected={st.selected} sim={marks} />
            ) : (
              <GraphView
                doc={doc}
                problems={grouped}
                selected={st.selected}
                onSelect={store.select}
                sim={marks}
                title={doc.ruleChain?.name ?? ''}
                editor={store}
              />
            )}
          </div>
        </div>
        <aside
          class={s.side}
          ref={side}
          aria-label={selected ? (selected.name ?? selected.id) : t.designer.processSettings}
        >
          <button type="button" onClick={() => store.select(null)} aria-pressed={!selected} data-tool="process">
            {t.designer.processSettings}
          </button>
          {selected ? (
            <NodePanel node={selected} doc={doc} store={store} problems={grouped.get(selected.id)} />
          ) : (
            <ProcessPanel doc={doc} store={store} />
          )}
        </aside>
      </div>
      <ProblemList problems={problems} server={server} onSelect={store.select} doc={doc} />
      <SimulatePanel doc={doc} onResult={setSim} />
      {definition && <ComparePanel id={definition.id} processKey={definition.key} doc={doc} />}
    </div>
  );
}
