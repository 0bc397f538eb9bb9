// "Run": a test message (type and JSON data) sent with execute; the output, then the run's log on the
// graph. A node picked on the graph shows what went in, what came out, the relation and the error.
import { useState } from 'preact/hooks';
import { errorText } from '../../../lib/api';
import { executeChain, loadRun } from '../api';
import { t } from '../i18n';
import type { RunDetail } from '../types';
import { NodeLog } from './NodeLog';
import css from '../rule-chains.module.css';

const pretty = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** The run's log once its workflow has written it (the end of a run and its row may be a moment apart). */
async function finishedRun(runId: string): Promise<RunDetail> {
  let run = await loadRun(runId);
  for (let i = 0; i < 10 && (run.status === 'running' || !run.endTs); i++) {
    await new Promise((r) => setTimeout(r, 300));
    run = await loadRun(runId);
  }
  return run;
}

export function RunPanel({
  chainId,
  disabled,
  dirty,
  run,
  selected,
  nodeName,
  onRun,
  onSelect,
}: {
  chainId: string;
  /** A new chain (not saved yet) or a stopped one cannot run. */
  disabled: boolean;
  dirty: boolean;
  run: RunDetail | null;
  selected: string | null;
  nodeName: (id: string) => string;
  onRun: (run: RunDetail | null) => void;
  onSelect: (id: string) => void;
}) {
  const [msgType, setMsgType] = useState('TEST');
  const [body, setBody] = useState('{\n  "amount": 120\n}');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; output?: string } | null>(null);

  const send = async () => {
    try {
      JSON.parse(body);
    } catch {
      setOutcome({ ok: false, text: t.ruleChains.badJson });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const res = await executeChain(chainId, msgType.trim() || 'TEST', body);
      setOutcome(
        res.ok
          ? { ok: true, text: t.ruleChains.runOk, output: pretty(res.output) }
          : { ok: false, text: res.error ? errorText(res.error) : t.ruleChains.runFailed },
      );
      onRun(res.runId ? await finishedRun(res.runId) : null);
    } catch (err) {
      setOutcome({ ok: false, text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  const visited = run?.logs ?? [];
  return (
    <div data-testid="run-panel">
      <form
        class={css.runForm}
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <h2 class={css.panelTitle}>{t.ruleChains.testMessage}</h2>
        {disabled && <p class="muted small">{t.ruleChains.cannotRun}</p>}
        {dirty && !disabled && <p class="warn small">{t.ruleChains.unsavedNotRun}</p>}
        <div class="field">
          <label for="run-msg-type">{t.ruleChains.msgType}</label>
          <input id="run-msg-type" name="msgType" value={msgType} onInput={(e) => setMsgType(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="run-body">{t.ruleChains.msgData}</label>
          <textarea
            id="run-body"
            name="body"
            class={css.code}
            rows={5}
            spellcheck={false}
            value={body}
            onInput={(e) => setBody(e.currentTarget.value)}
          />
        </div>
        <div class="buttons">
          <button type="submit" class="primary" data-action="run-chain" disabled={busy || disabled}>
            {busy ? t.ruleChains.running : t.ruleChains.run}
          </button>
        </div>
      </form>
      {outcome && (
        <div class={css.result} data-testid="run-result" data-ok={String(outcome.ok)}>
          <p class={outcome.ok ? 'ok' : 'error'} role={outcome.ok ? 'status' : 'alert'}>
            {outcome.text}
          </p>
          {outcome.output !== undefined && (
            <>
              <h3>{t.ruleChains.output}</h3>
              <pre class={css.pre} data-testid="run-output">
                {outcome.output}
              </pre>
            </>
          )}
        </div>
      )}
      {run && (
        <section class={css.result} data-testid="run-log" aria-labelledby="run-log-h">
          <h3 id="run-log-h">{t.ruleChains.runLog(run.id)}</h3>
          {run.errorMsg && <p class="error small">{run.errorMsg}</p>}
          <ol class={css.steps} data-testid="run-steps">
            {visited.map((log, i) => (
              <li key={`${i}:${log.nodeId}`} data-node-id={log.nodeId} data-relation={log.relationType}>
                <button
                  type="button"
                  class={`${css.linkish} ${selected === log.nodeId ? css.current : ''}`}
                  onClick={() => onSelect(log.nodeId)}
                >
                  {nodeName(log.nodeId)}
                </button>{' '}
                <span class={log.err ? css.failed : css.relation}>
                  {log.err ? t.ruleChains.failedWith : log.relationType}
                </span>
                {log.attempts && log.attempts > 1 ? (
                  <span class="muted small"> {t.ruleChains.attempts(log.attempts)}</span>
                ) : null}
              </li>
            ))}
          </ol>
          {!visited.length && <p class="muted small">{t.ruleChains.noSteps}</p>}
          {selected ? (
            <NodeLog run={run} nodeId={selected} nodeName={nodeName(selected)} />
          ) : (
            <p class="muted small">{t.ruleChains.pickNode}</p>
          )}
        </section>
      )}
    </div>
  );
}
