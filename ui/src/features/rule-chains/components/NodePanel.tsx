// The selected node's panel: its name, its configuration from its component form (the keys the form
// does not name stay, editable as JSON), its connections (add one with a relation, remove one), and
// making it the first node or deleting it. With no node selected: the chain's own settings.
import { useState } from 'preact/hooks';
import type { RuleChainDsl, RuleNode } from '@chains/types.js';
import { Field } from '../../../components/ui';
import {
  connect,
  connsOf,
  disconnect,
  nodesOf,
  relationText,
  relationsOf,
  removeNode,
  setConfig,
  setFirst,
  updateNode,
} from '../model';
import type { ChainProblem } from '../model';
import type { ComponentForm } from '../types';
import { t } from '../i18n';
import { ConfigField } from './ConfigField';
import css from '../rule-chains.module.css';

/** The problems of a save that name `field` (`jsScript` or `configuration.jsScript`). */
const onField = (problems: readonly ChainProblem[], field: string) =>
  problems.filter((p) => p.field && (p.field === field || p.field.endsWith(`.${field}`))).map((p) => p.message);

export function NodePanel({
  dsl,
  nodeId,
  isNew,
  canWrite,
  forms,
  problems,
  onChange,
  onSelect,
}: {
  dsl: RuleChainDsl;
  nodeId: string | null;
  isNew: boolean;
  canWrite: boolean;
  forms: ReadonlyMap<string, ComponentForm>;
  problems: ChainProblem[];
  onChange: (dsl: RuleChainDsl) => void;
  onSelect: (id: string | null) => void;
}) {
  const node = nodeId ? nodesOf(dsl).find((n) => n.id === nodeId) : undefined;
  if (!node)
    return <ChainSettings dsl={dsl} isNew={isNew} canWrite={canWrite} problems={problems} onChange={onChange} />;
  const form = forms.get(node.type);
  const fields = form?.fields ?? [];
  const named = new Set(fields.map((f) => f.name));
  const config = node.configuration ?? {};
  const rest = Object.fromEntries(Object.entries(config).filter(([k]) => !named.has(k)));
  const first = nodesOf(dsl)[dsl.metadata.firstNodeIndex ?? 0]?.id === node.id;
  const unplaced = problems.filter(
    (p) => !p.field || !(named.has(p.field) || [...named].some((n) => p.field!.endsWith(`.${n}`))),
  );
  return (
    <div data-testid="node-panel" data-node-id={node.id}>
      <h2 class={css.panelTitle}>
        {node.name || node.id} <span class="muted small">{form?.label || node.type}</span>
      </h2>
      {form?.desc && <p class="muted small">{form.desc}</p>}
      {first && <p class={css.firstMark}>{t.ruleChains.firstNode}</p>}
      {unplaced.length > 0 && (
        <ul class={css.problems} data-testid="node-problems">
          {unplaced.map((p, i) => (
            <li key={i}>
              {p.field ? <code>{p.field}: </code> : null}
              {p.message}
            </li>
          ))}
        </ul>
      )}
      <Field id="node-name" label={t.ruleChains.nodeName}>
        <input
          id="node-name"
          value={node.name ?? ''}
          disabled={!canWrite}
          onInput={(e) => onChange(updateNode(dsl, node.id, (n) => ({ ...n, name: e.currentTarget.value })))}
        />
      </Field>
      <p class="small">
        {t.ruleChains.nodeId}
        {t.ruleChains.colon}
        <code>{node.id}</code>
      </p>
      {fields.map((f) => (
        <ConfigField
          key={`${node.id}:${f.name}`}
          field={f}
          value={config[f.name]}
          problems={onField(problems, f.name)}
          readOnly={!canWrite}
          onValue={(v) => onChange(setConfig(dsl, node.id, f.name, v))}
        />
      ))}
      {(!form || Object.keys(rest).length > 0) && (
        <ConfigField
          key={`${node.id}:*`}
          field={{ name: '*', type: 'map', label: form ? t.ruleChains.otherKeys : t.ruleChains.configuration }}
          value={rest}
          problems={[]}
          readOnly={!canWrite}
          onValue={(v) => {
            if (!v || typeof v !== 'object' || Array.isArray(v)) return;
            const own = Object.fromEntries(Object.entries(config).filter(([k]) => named.has(k)));
            onChange(updateNode(dsl, node.id, (n) => ({ ...n, configuration: { ...own, ...(v as object) } })));
          }}
        />
      )}
      <Connections
        key={node.id}
        dsl={dsl}
        node={node}
        form={form}
        canWrite={canWrite}
        onChange={onChange}
        onSelect={onSelect}
      />
      {canWrite && (
        <div class="buttons">
          {!first && (
            <button type="button" data-action="make-first" onClick={() => onChange(setFirst(dsl, node.id))}>
              {t.ruleChains.makeFirst}
            </button>
          )}
          <button
            type="button"
            class="danger"
            data-action="delete-node"
            onClick={() => {
              if (!window.confirm(t.ruleChains.confirmDeleteNode(node.name || node.id))) return;
              onSelect(null);
              onChange(removeNode(dsl, node.id));
            }}
          >
            {t.ruleChains.deleteNode}
          </button>
        </div>
      )}
    </div>
  );
}

function Connections({
  dsl,
  node,
  form,
  canWrite,
  onChange,
  onSelect,
}: {
  dsl: RuleChainDsl;
  node: RuleNode;
  form: ComponentForm | undefined;
  canWrite: boolean;
  onChange: (dsl: RuleChainDsl) => void;
  onSelect: (id: string) => void;
}) {
  const others = nodesOf(dsl).filter((n) => n.id !== node.id);
  const relations = relationsOf(form, dsl, node.id);
  const [to, setTo] = useState('');
  const [relation, setRelation] = useState(relations[0] ?? 'Success');
  const names = new Map(nodesOf(dsl).map((n) => [n.id, n.name || n.id]));
  const out = connsOf(dsl)
    .map((c, index) => ({ c, index }))
    .filter(({ c }) => c.fromId === node.id);
  const into = connsOf(dsl).filter((c) => c.toId === node.id);
  const target = to && others.some((n) => n.id === to) ? to : (others[0]?.id ?? '');
  return (
    <section class={css.connections} aria-labelledby="conn-h">
      <h3 id="conn-h">{t.ruleChains.connections}</h3>
      {!out.length && !into.length && <p class="muted small">{t.ruleChains.noConnections}</p>}
      <ul data-testid="connections">
        {into.map((c, i) => (
          <li key={`in${i}`} data-direction="in">
            <button type="button" class={css.linkish} onClick={() => onSelect(c.fromId)}>
              {names.get(c.fromId) ?? c.fromId}
            </button>{' '}
            → <span class={css.relation}>{relationText(c)}</span> → {t.ruleChains.thisNode}
          </li>
        ))}
        {out.map(({ c, index }) => (
          <li key={`out${index}`} data-direction="out" data-to={c.toId} data-type={c.type}>
            {t.ruleChains.thisNode} → <span class={css.relation}>{relationText(c)}</span> →{' '}
            <button type="button" class={css.linkish} onClick={() => onSelect(c.toId)}>
              {names.get(c.toId) ?? c.toId}
            </button>
            {canWrite && (
              <button
                type="button"
                class={css.remove}
                aria-label={t.ruleChains.removeConnection(c.type, names.get(c.toId) ?? c.toId)}
                onClick={() => onChange(disconnect(dsl, index))}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {canWrite && others.length > 0 && (
        <form
          class={css.connectForm}
          data-testid="connect-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (target && relation.trim()) onChange(connect(dsl, node.id, target, relation.trim()));
          }}
        >
          <label>
            {t.ruleChains.relation}
            <input
              name="relation"
              list="rc-relations"
              value={relation}
              onInput={(e) => setRelation(e.currentTarget.value)}
            />
            <datalist id="rc-relations">
              {relations.map((r) => (
                <option key={r} value={r} />
              ))}
            </datalist>
          </label>
          <label>
            {t.ruleChains.connectTo}
            <select name="to" value={target} onChange={(e) => setTo(e.currentTarget.value)}>
              {others.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.name || n.id}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" data-action="connect">
            {t.ruleChains.connect}
          </button>
        </form>
      )}
    </section>
  );
}

function ChainSettings({
  dsl,
  isNew,
  canWrite,
  problems,
  onChange,
}: {
  dsl: RuleChainDsl;
  isNew: boolean;
  canWrite: boolean;
  problems: ChainProblem[];
  onChange: (dsl: RuleChainDsl) => void;
}) {
  const head = dsl.ruleChain;
  const set = (fields: Partial<RuleChainDsl['ruleChain']>) => onChange({ ...dsl, ruleChain: { ...head, ...fields } });
  const description = typeof head.additionalInfo?.description === 'string' ? head.additionalInfo.description : '';
  return (
    <div data-testid="chain-settings">
      <h2 class={css.panelTitle}>{t.ruleChains.chainSettings}</h2>
      <p class="muted small">{t.ruleChains.selectHint}</p>
      {problems.length > 0 && (
        <ul class={css.problems}>
          {problems.map((p, i) => (
            <li key={i}>{p.message}</li>
          ))}
        </ul>
      )}
      <Field id="chain-id" label={t.ruleChains.id}>
        <input
          id="chain-id"
          value={head.id}
          disabled={!isNew || !canWrite}
          pattern="[A-Za-z0-9_-]{1,64}"
          aria-describedby="chain-id-help"
          onInput={(e) => set({ id: e.currentTarget.value })}
        />
        {isNew && (
          <p id="chain-id-help" class="muted small">
            {t.ruleChains.idHelp}
          </p>
        )}
      </Field>
      <Field id="chain-name" label={t.ruleChains.name}>
        <input
          id="chain-name"
          value={head.name}
          disabled={!canWrite}
          onInput={(e) => set({ name: e.currentTarget.value })}
        />
      </Field>
      <Field id="chain-description" label={t.ruleChains.description}>
        <textarea
          id="chain-description"
          rows={2}
          value={description}
          disabled={!canWrite}
          onInput={(e) => set({ additionalInfo: { ...head.additionalInfo, description: e.currentTarget.value } })}
        />
      </Field>
      <label class={css.checkLine}>
        <input
          type="checkbox"
          checked={!!head.debugMode}
          disabled={!canWrite}
          onChange={(e) => set({ debugMode: e.currentTarget.checked })}
        />{' '}
        {t.ruleChains.debugMode}
      </label>
    </div>
  );
}
