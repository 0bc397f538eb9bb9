// The "no results" of a filtered list: it names each filter in force, each one a button that clears it.
import { t } from '../i18n';
import css from './ListFilters.module.css';

export interface ActiveFilter {
  /** The URL parameter. */
  key: string;
  /** The filter's label and the value shown, as the filter bar shows them. */
  label: string;
  value: string;
}

/** An empty list: with filters in force, which to clear (one, or all); without, the plain "nothing here". */
export function NoMatch({ filters, onClear }: { filters: ActiveFilter[]; onClear: (key: string | null) => void }) {
  if (!filters.length) return <p class="card muted">{t.common.empty}</p>;
  return (
    <div class={`card ${css.noMatch}`} role="status" data-testid="no-match">
      <p>{t.lists.noMatch}</p>
      <div class={css.chips}>
        {filters.map((f) => (
          <button
            key={f.key}
            type="button"
            class={css.chip}
            data-clear={f.key}
            aria-label={t.lists.clear(`${f.label}: ${f.value}`)}
            onClick={() => onClear(f.key)}
          >
            {f.label}: <strong>{f.value}</strong> <span aria-hidden="true">×</span>
          </button>
        ))}
        {filters.length > 1 && (
          <button type="button" data-clear="all" onClick={() => onClear(null)}>
            {t.lists.clearAll}
          </button>
        )}
      </div>
    </div>
  );
}
