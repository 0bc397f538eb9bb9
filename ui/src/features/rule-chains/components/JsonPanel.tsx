// The whole chain document as JSON, editable as the fallback for what the panels do not cover
// (triggers, a chain's configuration, …): "Apply" puts it on the graph; Save sends it.
import { useEffect, useState } from 'preact/hooks';
import type { RuleChainDsl } from '@chains/types.js';
import { t } from '../i18n';
import css from '../rule-chains.module.css';

export function JsonPanel({
  dsl,
  canWrite,
  onChange,
}: {
  dsl: RuleChainDsl;
  canWrite: boolean;
  onChange: (dsl: RuleChainDsl) => void;
}) {
  const shown = JSON.stringify(dsl, null, 2);
  const [text, setText] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setText(shown);
    setError(null);
  }, [shown]);
  const apply = () => {
    try {
      const next = JSON.parse(text);
      if (!next || typeof next !== 'object' || !next.ruleChain || !Array.isArray(next.metadata?.nodes))
        return setError(t.ruleChains.notAChain);
      setError(null);
      onChange(next as RuleChainDsl);
    } catch (err) {
      setError(`${t.ruleChains.badJson} ${(err as Error).message}`);
    }
  };
  return (
    <div data-testid="json-panel">
      <label for="chain-json" class={css.panelTitle}>
        {t.ruleChains.jsonTitle}
      </label>
      <textarea
        id="chain-json"
        class={`${css.code} ${css.json}`}
        spellcheck={false}
        readOnly={!canWrite}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {canWrite && (
        <div class="buttons">
          <button type="button" data-action="apply-json" disabled={text === shown} onClick={apply}>
            {t.ruleChains.applyJson}
          </button>
          <button type="button" disabled={text === shown} onClick={() => setText(shown)}>
            {t.ruleChains.resetJson}
          </button>
        </div>
      )}
    </div>
  );
}
