// The tenant's chains (GET /rules): searched by words and state, a page at a time; each row names its
// triggers and state, and starts, stops, opens or deletes the chain.
import { useState } from 'preact/hooks';
import { ListTable, Loading, Pager, Section, useAsync, useRowActions } from '../../../components/ui';
import { errorText } from '../../../lib/api';
import { Link, navigate } from '../../../lib/router';
import { deleteChain, listChains, operateChain, type ChainFilter } from '../api';
import { t } from '../i18n';
import css from '../rule-chains.module.css';

const PAGE_SIZE = 20;
const EMPTY: ChainFilter = { keywords: '', state: '' };

/** A trigger type in words: RuleGo's `endpoint/http` is "HTTP" (the catalogue's name when it has one). */
export const triggerName = (type: string | undefined) =>
  type ? (t.ruleChains.triggers[type] ?? t.ruleChains.triggers[type.replace(/^endpoint\//, '')] ?? type) : '';

export function ChainList({ canWrite }: { canWrite: boolean }) {
  const [draft, setDraft] = useState<ChainFilter>(EMPTY);
  const [filter, setFilter] = useState<ChainFilter>(EMPTY);
  const [page, setPage] = useState(1);
  const list = useAsync(() => listChains(filter, page, PAGE_SIZE), [filter, page]);
  const actions = useRowActions(() => list.reload(true));
  const rows = list.data?.items ?? [];
  const [deleteError, setDeleteError] = useState<string | null>(null);
  return (
    <>
      <h1>{t.ruleChains.title}</h1>
      <Section title={t.ruleChains.listTitle} id="rule-chains" error={list.error}>
        <p class={css.help}>{t.ruleChains.help}</p>
        <form
          class="filters"
          data-testid="chain-filters"
          onSubmit={(e) => {
            e.preventDefault();
            setPage(1);
            setFilter({ ...draft });
          }}
        >
          <label>
            {t.ruleChains.search}
            <input
              name="keywords"
              type="search"
              value={draft.keywords}
              onInput={(e) => setDraft({ ...draft, keywords: e.currentTarget.value })}
            />
          </label>
          <label>
            {t.ruleChains.state}
            <select
              name="state"
              value={draft.state}
              onChange={(e) => setDraft({ ...draft, state: e.currentTarget.value as ChainFilter['state'] })}
            >
              <option value="">{t.ruleChains.anyState}</option>
              <option value="started">{t.ruleChains.started}</option>
              <option value="stopped">{t.ruleChains.stopped}</option>
            </select>
          </label>
          <div class="buttons">
            <button type="submit" class="primary">
              {t.common.search}
            </button>
            {canWrite && (
              <button type="button" data-action="new-chain" onClick={() => navigate('/admin/rule-chains/new')}>
                {t.ruleChains.newChain}
              </button>
            )}
          </div>
        </form>
        {deleteError && (
          <p class="error" role="alert">
            {deleteError}
          </p>
        )}
        {list.loading && !list.data && <Loading />}
        {list.data && !rows.length && <p class="muted">{t.ruleChains.noChains}</p>}
        {rows.length > 0 && (
          <div class={`stack-on-phone ${css.stack}`}>
            <ListTable
              testid="chain-list"
              columns={[
                t.ruleChains.name,
                t.ruleChains.id,
                t.ruleChains.triggersColumn,
                t.ruleChains.state,
                t.ruleChains.updated,
                t.ruleChains.actions,
              ]}
            >
              {rows.map((row) => {
                const head = row.ruleChain;
                const stopped = !!head.disabled;
                const triggers = [...new Set((row.metadata?.endpoints ?? []).map((e) => triggerName(e.type)))];
                const updated = head.additionalInfo?.updateTime ?? (row.updatedAt as string | undefined);
                return (
                  <tr key={head.id} data-chain-id={head.id} data-state={stopped ? 'stopped' : 'started'}>
                    <td>
                      <Link href={`/admin/rule-chains/${encodeURIComponent(head.id)}`}>{head.name || head.id}</Link>
                      {head.additionalInfo?.description && (
                        <div class="muted small">{head.additionalInfo.description}</div>
                      )}
                    </td>
                    <td data-label={t.ruleChains.id}>
                      <code class={css.wrap}>{head.id}</code>
                    </td>
                    <td data-label={t.ruleChains.triggersColumn}>
                      {triggers.length ? triggers.join(', ') : <span class="muted">{t.ruleChains.noTriggers}</span>}
                    </td>
                    <td data-label={t.ruleChains.state}>
                      <span class={stopped ? css.off : css.on}>
                        {stopped ? t.ruleChains.stopped : t.ruleChains.started}
                      </span>
                    </td>
                    <td data-label={t.ruleChains.updated}>{updated ? String(updated) : '—'}</td>
                    <td class={css.rowActions}>
                      <button
                        type="button"
                        data-action="open"
                        onClick={() => navigate(`/admin/rule-chains/${encodeURIComponent(head.id)}`)}
                      >
                        {t.common.open}
                      </button>
                      {canWrite &&
                        actions(head.id, [
                          { label: t.ruleChains.start, when: stopped, run: () => operateChain(head.id, 'start') },
                          { label: t.ruleChains.stop, when: !stopped, run: () => operateChain(head.id, 'stop') },
                        ])}
                      {canWrite && (
                        <button
                          type="button"
                          class="danger"
                          data-action="delete"
                          onClick={() => {
                            if (!window.confirm(t.ruleChains.confirmDelete(head.name || head.id))) return;
                            deleteChain(head.id).then(
                              () => void list.reload(true),
                              (err) => setDeleteError(errorText(err)),
                            );
                          }}
                        >
                          {t.ruleChains.delete}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </ListTable>
          </div>
        )}
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
    </>
  );
}
