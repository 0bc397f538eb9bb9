// Panels of the steps with a few settings each: copy-to, service function, HTTP call, AI
// pre-review, delay, sub-process, automation, join.
import { t } from '../i18n';
import { PeoplePicker } from '../../../components/PeoplePicker';
import { loadAgents, loadChains, loadFunctions, loadProcessKeys } from '../api';
import type { Node } from '../model/doc';
import type { DesignerStore } from '../store';
import { Check, Num, Select, Text, useChoices } from './controls';

type P = { node: Node; store: DesignerStore };
const cfg = (node: Node): any => node.configuration ?? {};
const setter = (node: Node, store: DesignerStore) => (path: (string | number)[], v: unknown) =>
  store.setField(node.id, ['configuration', ...path], v);

export function CcPanel({ node, store }: P) {
  const c = cfg(node);
  const set = setter(node, store);
  return (
    <>
      <Check
        id={`${node.id}-self`}
        label={t.designer.f.selfSelect}
        checked={!!c.selfSelect}
        onValue={(v) => set(['selfSelect'], v || undefined)}
      />
      {!c.selfSelect && (
        <PeoplePicker
          id={`${node.id}-cc`}
          kind="user"
          multiple
          label={t.designer.f.ccUsers}
          value={c.ccUserIds ?? []}
          onChange={(v) => set(['ccUserIds'], v)}
        />
      )}
    </>
  );
}

export function ServicePanel({ node, store }: P) {
  const f = t.designer.f;
  const c = cfg(node);
  const set = setter(node, store);
  const functions = useChoices(loadFunctions);
  const options = Object.fromEntries([['', f.pickFunction], ...(functions ?? []).map((x) => [x.id, x.label])]);
  return (
    <>
      {functions === null ? (
        <Text
          id={`${node.id}-fn`}
          label={f.functionName}
          value={c.functionName ?? ''}
          onValue={(v) => set(['functionName'], v)}
        />
      ) : (
        <Select
          id={`${node.id}-fn`}
          label={f.functionName}
          value={c.functionName ?? ''}
          options={options}
          onValue={(v) => set(['functionName'], v)}
        />
      )}
      <Text
        id={`${node.id}-param`}
        label={f.param}
        value={c.param ?? ''}
        multiline
        onValue={(v) => set(['param'], v || undefined)}
      />
    </>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** `outputMappings` as the text a panel edits: one "from → to" a line. */
const mappingsText = (list: unknown) =>
  ((list ?? []) as Array<{ from: string; to: string }>).map((m) => `${m.from} → ${m.to}`).join('\n');
const mappingsOf = (text: string) => {
  const list = lines(text)
    .map((l) => l.split(/→|->/).map((x) => x.trim()))
    .filter((p) => p.length === 2 && p[0] && p[1])
    .map(([from, to]) => ({ from: from!, to: to! }));
  return list.length ? list : undefined;
};

export function HttpPanel({ node, store }: P) {
  const f = t.designer.f;
  const c = cfg(node);
  const set = setter(node, store);
  const methods = Object.fromEntries(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map((m) => [m, m]));
  const headers = Object.entries((c.headers ?? {}) as Record<string, string>)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  return (
    <>
      <Text id={`${node.id}-url`} label={f.url} value={c.url ?? ''} onValue={(v) => set(['url'], v)} />
      <Select
        id={`${node.id}-method`}
        label={f.method}
        value={c.method ?? 'GET'}
        options={methods}
        onValue={(v) => set(['method'], v)}
      />
      <Text
        id={`${node.id}-headers`}
        label={f.headers}
        multiline
        value={headers}
        onValue={(v) => {
          const pairs = lines(v)
            .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()])
            .filter(([k]) => k);
          set(['headers'], pairs.length ? Object.fromEntries(pairs) : undefined);
        }}
      />
      <Text
        id={`${node.id}-body`}
        label={f.body}
        multiline
        value={typeof c.body === 'string' ? c.body : c.body === undefined ? '' : JSON.stringify(c.body)}
        onValue={(v) => set(['body'], v || undefined)}
      />
      <Num id={`${node.id}-timeout`} label={f.timeoutMs} value={c.timeoutMs} onValue={(v) => set(['timeoutMs'], v)} />
      <Check
        id={`${node.id}-flatten`}
        label={f.flatten}
        checked={c.flattenOutput !== false}
        onValue={(v) => set(['flattenOutput'], v ? undefined : false)}
      />
      <Text
        id={`${node.id}-reserved`}
        label={f.reservedKey}
        value={c.reservedKey ?? ''}
        onValue={(v) => set(['reservedKey'], v || undefined)}
      />
      <Text
        id={`${node.id}-mappings`}
        label={f.mappings}
        multiline
        value={mappingsText(c.outputMappings)}
        onValue={(v) => set(['outputMappings'], mappingsOf(v))}
      />
      <Text
        id={`${node.id}-hosts`}
        label={f.allowedHosts}
        value={(c.allowedHosts ?? []).join(', ')}
        onValue={(v) => {
          const hosts = v
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean);
          set(['allowedHosts'], hosts.length ? hosts : undefined);
        }}
      />
    </>
  );
}

/** What the model reads unless the node says otherwise (GFlow's defaults). */
const contextDefaults: Record<string, boolean> = {
  formData: true,
  processInfo: true,
  prevComments: true,
  initiator: true,
  attachments: false,
};
/** The object without its undefined values; undefined when nothing is left. */
const pruned = <T extends object>(o: T): T | undefined => {
  const kept = Object.entries(o).filter(([, v]) => v !== undefined);
  return kept.length ? (Object.fromEntries(kept) as T) : undefined;
};

/** GFlow's aiAgent keys (docs/ai-review.md): only values that differ from the defaults are written. */
export function AiAgentPanel({ node, store }: P) {
  const f = t.designer.f;
  const c = cfg(node);
  const set = setter(node, store);
  const agents = useChoices(loadAgents);
  const input = (c.inputAssembly ?? {}) as {
    customPrompt?: string;
    contextSources?: Record<string, boolean | undefined>;
  };
  const sources = input.contextSources ?? {};
  const setInput = (next: typeof input) => set(['inputAssembly'], pruned(next));
  const decision = c.decision as { rejectStrategy?: string; unresolved?: string } | null | undefined;
  return (
    <>
      {agents === null ? (
        <Text id={`${node.id}-agent`} label={f.agentId} value={c.agentId ?? ''} onValue={(v) => set(['agentId'], v)} />
      ) : (
        <Select
          id={`${node.id}-agent`}
          label={f.agentId}
          value={c.agentId ?? ''}
          options={Object.fromEntries([['', f.pickAgent], ...(agents ?? []).map((a) => [a.id, a.label])])}
          onValue={(v) => set(['agentId'], v)}
        />
      )}
      <Text
        id={`${node.id}-prompt`}
        label={f.customPrompt}
        multiline
        value={input.customPrompt ?? ''}
        onValue={(v) => setInput({ ...input, customPrompt: v || undefined })}
      />
      <Text
        id={`${node.id}-skills`}
        label={f.skills}
        value={((c.skills ?? []) as string[]).join(', ')}
        onValue={(v) => {
          const names = v
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean);
          set(['skills'], names.length ? names : undefined);
        }}
      />
      <fieldset data-context={node.id}>
        <legend>{f.contextSources}</legend>
        {Object.keys(contextDefaults).map((k) => (
          <Check
            key={k}
            id={`${node.id}-ctx-${k}`}
            label={f.contexts[k] ?? k}
            checked={sources[k] ?? contextDefaults[k]!}
            onValue={(v) =>
              setInput({
                ...input,
                contextSources: pruned({ ...sources, [k]: v === contextDefaults[k] ? undefined : v }),
              })
            }
          />
        ))}
      </fieldset>
      <Num
        id={`${node.id}-timeout`}
        label={f.timeoutSec}
        value={c.timeoutSec}
        onValue={(v) => set(['timeoutSec'], v)}
      />
      <Check
        id={`${node.id}-async`}
        label={f.async}
        checked={!!c.async}
        onValue={(v) => set(['async'], v || undefined)}
      />
      {c.async && <p class="muted small">{f.asyncIgnores}</p>}
      <Check
        id={`${node.id}-decides`}
        label={f.decides}
        checked={!!decision}
        onValue={(v) => set(['decision'], v ? { rejectStrategy: 'terminate', unresolved: 'human' } : undefined)}
      />
      {decision ? (
        <>
          <Select
            id={`${node.id}-reject`}
            label={f.rejectStrategy}
            value={decision.rejectStrategy ?? 'terminate'}
            options={f.rejectStrategies}
            onValue={(v) => set(['decision', 'rejectStrategy'], v)}
          />
          <Select
            id={`${node.id}-unresolved`}
            label={f.unresolved}
            value={decision.unresolved ?? 'human'}
            options={f.unresolvedValues}
            onValue={(v) => set(['decision', 'unresolved'], v)}
          />
        </>
      ) : (
        <p class="muted small">{f.referenceOnly}</p>
      )}
      <PeoplePicker
        id={`${node.id}-failureHandler`}
        kind="user"
        multiple
        label={f.failureHandler}
        value={c.failureHandler ?? []}
        onChange={(v) => set(['failureHandler'], v.length ? v : undefined)}
      />
      <Text
        id={`${node.id}-mappings`}
        label={f.mappings}
        multiline
        value={mappingsText(c.outputMappings)}
        onValue={(v) => set(['outputMappings'], mappingsOf(v))}
      />
      <Check
        id={`${node.id}-flatten`}
        label={f.aiFlatten}
        checked={c.flattenOutput === true}
        onValue={(v) => set(['flattenOutput'], v || undefined)}
      />
      <Text
        id={`${node.id}-reserved`}
        label={f.aiReservedKey}
        value={c.reservedKey ?? ''}
        onValue={(v) => set(['reservedKey'], v || undefined)}
      />
    </>
  );
}

export function DelayPanel({ node, store }: P) {
  const c = cfg(node);
  return (
    <Text
      id={`${node.id}-delay`}
      label={t.designer.f.delayMs}
      value={String(c.delayMs ?? '')}
      onValue={(v) => setter(node, store)(['delayMs'], /^\d+$/.test(v.trim()) ? Number(v) : v)}
    />
  );
}

export function SubProcessPanel({ node, store }: P) {
  const keys = useChoices(loadProcessKeys);
  const listId = `${node.id}-keys`;
  return (
    <>
      <Text
        id={`${node.id}-target`}
        label={t.designer.f.targetId}
        value={cfg(node).targetId ?? ''}
        list={listId}
        onValue={(v) => setter(node, store)(['targetId'], v)}
      />
      <datalist id={listId}>
        {(keys ?? []).map((k) => (
          <option key={k.id} value={k.id}>
            {k.label}
          </option>
        ))}
      </datalist>
    </>
  );
}

/** GFlow's automation: the chain to run, whether the path waits for its output, and how it merges. */
export function AutomationPanel({ node, store }: P) {
  const f = t.designer.f;
  const c = cfg(node);
  const set = setter(node, store);
  const chains = useChoices(loadChains);
  const listId = `${node.id}-chains`;
  const wait = c.wait !== false;
  return (
    <>
      <Text
        id={`${node.id}-target`}
        label={f.chainId}
        value={c.targetId ?? ''}
        list={listId}
        onValue={(v) => set(['targetId'], v)}
      />
      <datalist id={listId}>
        {(chains ?? []).map((k) => (
          <option key={k.id} value={k.id}>
            {k.label}
          </option>
        ))}
      </datalist>
      <Check
        id={`${node.id}-wait`}
        label={f.wait}
        checked={wait}
        onValue={(v) => set(['wait'], v ? undefined : false)}
      />
      <Num
        id={`${node.id}-timeout`}
        label={f.chainTimeout}
        value={c.timeoutMs}
        onValue={(v) => set(['timeoutMs'], v || undefined)}
      />
      {wait && (
        <>
          <Check
            id={`${node.id}-flatten`}
            label={f.flatten}
            checked={c.flattenOutput !== false}
            onValue={(v) => set(['flattenOutput'], v ? undefined : false)}
          />
          <Text
            id={`${node.id}-reserved`}
            label={f.chainReservedKey}
            value={c.reservedKey ?? ''}
            onValue={(v) => set(['reservedKey'], v || undefined)}
          />
          <Text
            id={`${node.id}-mappings`}
            label={f.mappings}
            multiline
            value={mappingsText(c.outputMappings)}
            onValue={(v) => set(['outputMappings'], mappingsOf(v))}
          />
        </>
      )}
    </>
  );
}

export function JoinPanel({ node, store }: P) {
  return (
    <Num
      id={`${node.id}-join`}
      label={t.designer.f.joinTimeout}
      value={cfg(node).timeout}
      onValue={(v) => setter(node, store)(['timeout'], v)}
    />
  );
}
