// The process designer page (/admin/designer/new, /admin/designer/{id}): loaded on demand from
// the router, so the inbox never downloads it. The column editor, or the graph for processes
// that are not a column; the selected step's panel; problems; try it; compare.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { t } from './i18n';
import { ApiError, type Definition } from '../../lib/api';
import { navigate } from '../../lib/router';
import { useStore } from '../../lib/store';
import { ErrorText, Loading, Status } from '../../components/ui';
import {
  loadAgents,
  loadDefinition,
  loadFunctions,
  publishDraft,
  saveDraft,
  validateOnServer,
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
import { DesignerStore, treeOf } from './store';
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
  const canvas = useRef<HTMLDivElement>(null);
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
      const published = await publishDraft(draft.id);
      onSaved(published);
      setOutcome({ ok: true, text: t.designer.published(published.version ?? null) });
    } catch (err) {
      if (err instanceof ApiError && Array.isArray(err.data?.problems)) setServer(err.data.problems);
      setOutcome({ ok: false, text: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && key === 'z') {
      e.preventDefault();
      if (e.shiftKey) store.redo();
      else store.undo();
    } else if (mod && key === 'y') {
      e.preventDefault();
      store.redo();
    } else if (
      e.key === 'Delete' &&
      st.selected &&
      !(e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement)
    ) {
      store.remove(st.selected);
    }
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
            {definition.version !== null && <span>v{definition.version}</span>} <Status value={definition.status} />
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
        dirty={st.saved !== doc}
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
        <aside class={s.side} aria-label={selected ? (selected.name ?? selected.id) : t.designer.processSettings}>
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
      <ProblemList problems={problems} server={server} onSelect={store.select} />
      <SimulatePanel doc={doc} onResult={setSim} />
      {definition && <ComparePanel id={definition.id} processKey={definition.key} doc={doc} />}
    </div>
  );
}
