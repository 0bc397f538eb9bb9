// One chain's page: its graph with the palette beside it, and the panels — the selected node's
// configuration (or the chain's own settings), the whole document as JSON, a test run with its log on
// the graph, and the chain's recent runs. Edits change the loaded document (model.ts), never a model
// rebuilt from it, so what this page does not show comes back unchanged when it is saved.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { RuleChainDsl } from '@chains/types.js';
import { ErrorText, Loading } from '../../../components/ui';
import { ApiError, errorText } from '../../../lib/api';
import { navigate } from '../../../lib/router';
import { loadChain, loadComponents, operateChain, saveChain } from '../api';
import { t } from '../i18n';
import {
  addNode,
  emptyChain,
  nodesOf,
  placeNode,
  problemsByNode,
  problemsOf,
  validChainId,
  type ChainProblem,
} from '../model';
import type { ComponentForm, RunDetail } from '../types';
import { ChainGraph, visitsOf } from './ChainGraph';
import { JsonPanel } from './JsonPanel';
import { NodePanel } from './NodePanel';
import { Palette } from './Palette';
import { RunPanel } from './RunPanel';
import { RunsPanel } from './RunsPanel';
import css from '../rule-chains.module.css';

type Tab = 'node' | 'json' | 'run' | 'runs';
const TABS: Tab[] = ['node', 'json', 'run', 'runs'];

export function ChainEditor({ id, canWrite }: { id: string; canWrite: boolean }) {
  const isNew = id === 'new';
  const [dsl, setDsl] = useState<RuleChainDsl | null>(isNew ? emptyChain('', t.ruleChains.untitled) : null);
  const [saved, setSaved] = useState<string>(isNew ? '' : 'unloaded');
  const [loadError, setLoadError] = useState<unknown>(null);
  const [forms, setForms] = useState<ComponentForm[]>([]);
  const [endpointForms, setEndpointForms] = useState<ComponentForm[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('node');
  const [problems, setProblems] = useState<ChainProblem[]>([]);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [run, setRun] = useState<RunDetail | null>(null);

  useEffect(() => {
    if (isNew) return;
    loadChain(id).then(
      (d) => {
        setDsl(d);
        setSaved(JSON.stringify(d));
      },
      (err) => setLoadError(err),
    );
  }, [id]);
  useEffect(() => {
    loadComponents().then(
      (c) => {
        setForms(c.nodes);
        setEndpointForms(c.endpoints);
      },
      () => {},
    );
  }, []);

  const byType = useMemo(() => new Map([...forms, ...endpointForms].map((f) => [f.type, f])), [forms, endpointForms]);
  const typeLabel = (type: string) => byType.get(type)?.label || type;
  const byNode = useMemo(() => problemsByNode(problems), [problems]);
  const visits = useMemo(() => visitsOf(run), [run]);

  if (loadError) return <ErrorText error={loadError} />;
  if (!dsl) return <Loading />;

  const dirty = JSON.stringify(dsl) !== saved;
  const stopped = !!dsl.ruleChain.disabled;
  const chainId = isNew ? dsl.ruleChain.id : id;
  const edit = (next: RuleChainDsl) => {
    setDsl(next);
    setNote(null);
  };

  const save = async () => {
    if (!validChainId(chainId)) {
      setTab('node');
      setSelected(null);
      setNote({ ok: false, text: t.ruleChains.badId });
      return;
    }
    setBusy(true);
    setNote(null);
    try {
      const body = { ...dsl, ruleChain: { ...dsl.ruleChain, id: chainId } };
      await saveChain(chainId, body);
      setProblems([]);
      setSaved(JSON.stringify(body));
      setDsl(body);
      setNote({ ok: true, text: t.ruleChains.saved });
      if (isNew) navigate(`/admin/rule-chains/${encodeURIComponent(chainId)}`, true);
    } catch (err) {
      const found = err instanceof ApiError ? problemsOf(err.data) : [];
      setProblems(found);
      setNote({ ok: false, text: found.length ? t.ruleChains.notSaved(found.length) : errorText(err) });
      const first = found.find((p) => p.nodeId);
      if (first?.nodeId) {
        setSelected(first.nodeId);
        setTab('node');
      }
    } finally {
      setBusy(false);
    }
  };

  const operate = async (op: 'start' | 'stop') => {
    setBusy(true);
    try {
      await operateChain(chainId, op);
      // The state is the chain's, not an edit: the saved copy follows it too.
      const head = { ...dsl.ruleChain, disabled: op === 'stop' };
      setDsl({ ...dsl, ruleChain: head });
      setSaved((s) => {
        try {
          const d = JSON.parse(s) as RuleChainDsl;
          return JSON.stringify({ ...d, ruleChain: { ...d.ruleChain, disabled: op === 'stop' } });
        } catch {
          return s;
        }
      });
      setNote({ ok: true, text: op === 'start' ? t.ruleChains.startedNote : t.ruleChains.stoppedNote });
    } catch (err) {
      setNote({ ok: false, text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  const select = (nodeId: string) => {
    setSelected(nodeId);
    // With a run on the graph, a node shows what the run did there; else its configuration.
    if (!(run && (tab === 'run' || tab === 'runs'))) setTab('node');
    else setTab('run');
  };

  const add = (form: ComponentForm) => {
    const out = addNode(dsl, form, form.label || form.type);
    edit(out.dsl);
    setSelected(out.id);
    setTab('node');
  };

  const showRun = (r: RunDetail | null) => {
    setRun(r);
    if (r) setTab('run');
  };

  const chainProblems = byNode.get('') ?? [];
  const nodeNames = new Map(nodesOf(dsl).map((n) => [n.id, n.name || n.id]));

  return (
    <>
      <div class={css.editorHead}>
        <h1>
          {dsl.ruleChain.name || t.ruleChains.untitled}
          {!isNew && (
            <span class={stopped ? css.off : css.on} data-testid="chain-state">
              {stopped ? t.ruleChains.stopped : t.ruleChains.started}
            </span>
          )}
        </h1>
        <div class="buttons">
          <button type="button" onClick={() => navigate('/admin/rule-chains')}>
            {t.ruleChains.backToList}
          </button>
          {canWrite && (
            <button
              type="button"
              class="primary"
              data-action="save-chain"
              disabled={busy || (!dirty && !isNew)}
              onClick={() => void save()}
            >
              {dirty || isNew ? t.ruleChains.saveDeploy : t.ruleChains.savedButton}
            </button>
          )}
          {canWrite && !isNew && (
            <button
              type="button"
              data-action={stopped ? 'start-chain' : 'stop-chain'}
              disabled={busy}
              onClick={() => void operate(stopped ? 'start' : 'stop')}
            >
              {stopped ? t.ruleChains.start : t.ruleChains.stop}
            </button>
          )}
        </div>
      </div>
      {note && (
        <p class={note.ok ? 'ok' : 'error'} role={note.ok ? 'status' : 'alert'} data-testid="editor-note">
          {note.text}
        </p>
      )}
      {problems.length > 0 && (
        <ul class={css.problems} data-testid="chain-problems">
          {problems.map((p, i) => (
            <li key={i} data-node={p.nodeId ?? ''} data-field={p.field ?? ''}>
              {p.nodeId ? (
                <button type="button" class={css.linkish} onClick={() => select(p.nodeId!)}>
                  {nodeNames.get(p.nodeId) ?? p.nodeId}
                </button>
              ) : (
                <strong>{t.ruleChains.chainItself}</strong>
              )}
              {p.field ? <code> {p.field}</code> : null}: {p.message}
            </li>
          ))}
        </ul>
      )}
      <div class={css.editor}>
        <div class={css.canvas}>
          {canWrite && !run && <Palette forms={forms} onAdd={add} />}
          {run && (
            <p class={css.runBar} data-testid="run-bar" data-run-id={run.id}>
              <span class={run.success ? css.on : css.failed}>
                {run.success ? t.ruleChains.runSucceeded : t.ruleChains.runFailed}
              </span>{' '}
              {t.ruleChains.runOnGraph(run.id)}{' '}
              <button type="button" class={css.linkish} onClick={() => setRun(null)}>
                {t.ruleChains.clearRun}
              </button>
            </p>
          )}
          <ChainGraph
            dsl={dsl}
            title={t.ruleChains.graphTitle(dsl.ruleChain.name || chainId)}
            selected={selected}
            onSelect={select}
            problems={byNode}
            visits={run ? visits : undefined}
            typeLabel={typeLabel}
            onMove={
              canWrite
                ? (nodeId, to, drawn) => {
                    // Drawn automatically so far: every node is pinned where it is, so only the moved one moves.
                    let next = dsl;
                    for (const [key, c] of drawn) {
                      const n = nodesOf(next).find((x) => x.id === key);
                      if (
                        n &&
                        (typeof n.additionalInfo?.layoutX !== 'number' || typeof n.additionalInfo?.layoutY !== 'number')
                      )
                        next = placeNode(next, key, c.x, c.y);
                    }
                    edit(placeNode(next, nodeId, to.x, to.y));
                  }
                : undefined
            }
          />
        </div>
        <div class={css.side}>
          <div class={css.tabs} role="tablist" aria-label={t.ruleChains.panels}>
            {TABS.map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                aria-selected={tab === name}
                class={tab === name ? css.tabOn : undefined}
                data-tab={name}
                onClick={() => setTab(name)}
              >
                {t.ruleChains.tab[name]}
              </button>
            ))}
          </div>
          <div role="tabpanel" class={css.panel}>
            {tab === 'node' && (
              <NodePanel
                dsl={dsl}
                nodeId={selected}
                isNew={isNew}
                canWrite={canWrite}
                forms={byType}
                problems={selected ? (byNode.get(selected) ?? []) : chainProblems}
                onChange={edit}
                onSelect={setSelected}
              />
            )}
            {tab === 'json' && <JsonPanel dsl={dsl} canWrite={canWrite} onChange={edit} />}
            {tab === 'run' && (
              <RunPanel
                chainId={chainId}
                disabled={isNew || stopped}
                dirty={dirty}
                run={run}
                selected={selected}
                nodeName={(nid) => nodeNames.get(nid) ?? nid}
                onRun={showRun}
                onSelect={setSelected}
              />
            )}
            {tab === 'runs' && !isNew && <RunsPanel chainId={chainId} current={run?.id ?? null} onOpen={showRun} />}
            {tab === 'runs' && isNew && <p class="muted">{t.ruleChains.saveFirst}</p>}
          </div>
        </div>
      </div>
    </>
  );
}
