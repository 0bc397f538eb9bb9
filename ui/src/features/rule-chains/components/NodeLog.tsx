// What a run did at one node: each visit's relation, time, error, and the message in and out.
import type { RuleMsg } from '@chains/types.js';
import { t } from '../i18n';
import type { RunDetail } from '../types';
import css from '../rule-chains.module.css';

/** A message's data, pretty when it is JSON. */
function dataOf(msg: RuleMsg): string {
  if (msg.dataType === 'JSON') {
    try {
      return JSON.stringify(JSON.parse(msg.data), null, 2);
    } catch {
      /* shown as it is */
    }
  }
  return msg.data;
}

function Message({ msg, testid }: { msg: RuleMsg | null; testid: string }) {
  if (!msg) return <p class="muted small">{t.ruleChains.noMessage}</p>;
  const meta = Object.entries(msg.metadata ?? {});
  return (
    <div data-testid={testid}>
      <p class="small">
        {t.ruleChains.msgType}
        {t.ruleChains.colon}
        <code>{msg.type}</code> · {t.ruleChains.dataType}
        {t.ruleChains.colon}
        <code>{msg.dataType}</code>
      </p>
      <pre class={css.pre}>{dataOf(msg)}</pre>
      {meta.length > 0 && (
        <>
          <p class="small">{t.ruleChains.metadata(meta.length)}</p>
          <pre class={css.pre}>{meta.map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
        </>
      )}
    </div>
  );
}

export function NodeLog({ run, nodeId, nodeName }: { run: RunDetail; nodeId: string; nodeName: string }) {
  const visits = (run.logs ?? []).filter((l) => l.nodeId === nodeId);
  return (
    <div class={css.nodeLog} data-testid="node-log" data-node-id={nodeId}>
      <h3>{t.ruleChains.nodeLogTitle(nodeName)}</h3>
      {!visits.length && <p class="muted small">{t.ruleChains.notVisited}</p>}
      {visits.map((log, i) => (
        <div key={i} class={css.visit}>
          <p class="small">
            {t.ruleChains.relation}
            {t.ruleChains.colon}
            <span class={css.relation}>{log.relationType || '—'}</span> ·{' '}
            {t.ruleChains.took(Math.max(0, log.endTs - log.startTs))}
          </p>
          {log.err && (
            <p class="error small" data-testid="node-error">
              {log.err}
            </p>
          )}
          <div class={css.inOut}>
            <div>
              <h4>{t.ruleChains.inMsg}</h4>
              <Message msg={log.inMsg} testid="node-in" />
            </div>
            <div>
              <h4>{t.ruleChains.outMsg}</h4>
              <Message msg={log.outMsg} testid="node-out" />
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}
