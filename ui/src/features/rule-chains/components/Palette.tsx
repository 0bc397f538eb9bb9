// The node types of GET /components, grouped by category: a click adds one (with its defaults) to the chain.
import type { ComponentForm } from '../types';
import { t } from '../i18n';
import css from '../rule-chains.module.css';

/** A phone starts with the palette folded: the graph comes first. */
const PHONE = window.matchMedia?.('(max-width: 600px)').matches ?? false;

export function Palette({ forms, onAdd }: { forms: ComponentForm[]; onAdd: (form: ComponentForm) => void }) {
  const groups = new Map<string, ComponentForm[]>();
  for (const f of forms) {
    const key = f.category || 'other';
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  if (!forms.length) return null;
  return (
    <details class={css.palette} data-testid="palette" open={!PHONE}>
      <summary>{t.ruleChains.palette}</summary>
      <div class={css.paletteGroups}>
        {[...groups].map(([category, list]) => (
          <div key={category} class={css.paletteGroup} data-category={category}>
            <h3>{t.ruleChains.categories[category] ?? category}</h3>
            <div class={css.paletteItems}>
              {list.map((f) => (
                <button
                  key={f.type}
                  type="button"
                  data-add={f.type}
                  title={f.desc || f.type}
                  aria-label={t.ruleChains.addNode(f.label || f.type)}
                  onClick={() => onAdd(f)}
                >
                  {f.label || f.type}
                </button>
              ))}
            </div>
          </div>
        ))}
      </div>
    </details>
  );
}
