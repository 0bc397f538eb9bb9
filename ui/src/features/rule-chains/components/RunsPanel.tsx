// The chain's recent runs (GET /logs/runs?chainId): each opens its log on the graph.
import { useState } from 'preact/hooks';
import { ErrorText, Loading, Pager, useAsync } from '../../../components/ui';
import { fmtTime } from '../../../i18n';
import { errorText } from '../../../lib/api';
import { listRuns, loadRun } from '../api';
import { t } from '../i18n';
import type { RunDetail } from '../types';
import css from '../rule-chains.module.css';

const PAGE_SIZE = 10;
const when = (ts: number) => (ts ? fmtTime(new Date(ts).toISOString()) : '—');

export function RunsPanel({
  chainId,
  current,
  onOpen,
}: {
  chainId: string;
  current: string | null;
  onOpen: (run: RunDetail) => void;
}) {
  const [page, setPage] = useState(1);
  const runs = useAsync(() => listRuns(chainId, page, PAGE_SIZE), [chainId, page]);
  const [error, setError] = useState<string | null>(null);
  const open = async (id: string) => {
    try {
      setError(null);
      onOpen(await loadRun(id));
    } catch (err) {
      setError(errorText(err));
    }
  };
  const items = runs.data?.items ?? [];
  return (
    <div data-testid="runs-panel">
      <div class={css.panelHead}>
        <h2 class={css.panelTitle}>{t.ruleChains.recentRuns}</h2>
        <button type="button" onClick={() => void runs.reload()}>
          {t.ruleChains.refresh}
        </button>
      </div>
      <ErrorText error={runs.error} />
      {error && <p class="error">{error}</p>}
      {runs.loading && !runs.data && <Loading />}
      {runs.data && !items.length && <p class="muted">{t.ruleChains.noRuns}</p>}
      <ul class={css.runs} data-testid="run-list">
        {items.map((r) => (
          <li key={r.id} data-run-id={r.id} class={r.id === current ? css.current : undefined}>
            <span class={r.status === 'running' ? css.off : r.success ? css.on : css.failed}>
              {r.status === 'running'
                ? t.ruleChains.runRunning
                : r.success
                  ? t.ruleChains.runSucceeded
                  : t.ruleChains.runFailed}
            </span>{' '}
            <span class="small">{when(r.startTs)}</span>
            {r.endTs ? <span class="muted small"> · {t.ruleChains.took(r.endTs - r.startTs)}</span> : null}
            {r.errorMsg && <div class="error small">{r.errorMsg}</div>}
            <div>
              <code class={`${css.wrap} small`}>{r.id}</code>{' '}
              <button type="button" data-action="open-run" onClick={() => void open(r.id)}>
                {t.ruleChains.openRun}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {runs.data && <Pager page={page} pageSize={PAGE_SIZE} total={runs.data.total} onPage={setPage} />}
    </div>
  );
}
