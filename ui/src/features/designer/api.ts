// The designer's server calls: definitions (drafts, publish, versions), the catalogues its
// pickers offer (functions, agents, forms, chains, processes), and the server's verdicts
// (validate, simulate, compare).
import { api, ApiError, call, type Definition, type Schemas } from '../../lib/api';
import { session } from '../../lib/session';
import type { Doc } from './model/doc';
import type { DesignProblem } from './model/problems';

const DEFS = '/api/v1/workflow/process-definitions';
const page = { query: { page: 1, pageSize: 200 } };

export const loadDefinition = (id: string) => call(api.GET(`${DEFS}/{id}`, { params: { path: { id } } }));

/** A new draft, or the same draft updated. */
export const saveDraft = (dsl: Doc, draftId: string | null): Promise<Definition> =>
  draftId
    ? call(api.PUT(`${DEFS}/{id}`, { params: { path: { id: draftId } }, body: { dsl } as any }))
    : call(api.POST(DEFS, { body: { dsl } as any }));

export const publishDraft = (id: string) => call(api.POST(`${DEFS}/{id}/activate`, { params: { path: { id } } }));

export const versionsOf = (processKey: string) =>
  call(api.GET(`${DEFS}/key/{processKey}/versions`, { params: { path: { processKey }, query: { pageSize: 100 } } }));

export interface Choice {
  id: string;
  label: string;
}

// People, roles and departments are not loaded here: the pickers search the server as one types
// (components/PeoplePicker.tsx), whatever the directory's size.
export const loadFunctions = (): Promise<Choice[]> =>
  call(api.GET('/api/v1/service-functions', { params: page })).then((p) =>
    p.items.map((f) => ({ id: f.name, label: f.description ? `${f.name} — ${f.description}` : f.name })),
  );
export const loadAgents = (): Promise<Choice[]> =>
  call(api.GET('/api/v1/ai-agents', { params: page })).then((p) =>
    p.items.map((a) => ({ id: a.agentId, label: a.name ? `${a.agentId} — ${a.name}` : a.agentId })),
  );
export const loadForms = (): Promise<Choice[]> =>
  call(api.GET('/api/v1/forms', { params: page })).then((p) => [
    ...new Map(p.items.map((f: any) => [f.key as string, { id: f.key as string, label: f.name as string }])).values(),
  ]);
/**
 * The tenant's rule chains, for the automation node's picker: the rule engine's list (RuleGo's
 * `{items: [{ruleChain: {id, name}}]}`, not the envelope, so not in the typed client).
 */
export async function loadChains(): Promise<Choice[]> {
  const token = session.get()?.token;
  const res = await fetch('/rulego/api/v1/rules?size=200', {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) throw new ApiError(res.status, 0, res.statusText, null);
  const body = (await res.json()) as { items?: Array<{ ruleChain?: { id?: string; name?: string } }> };
  return (body.items ?? [])
    .map((i) => i.ruleChain)
    .filter((c): c is { id: string; name?: string } => typeof c?.id === 'string')
    .map((c) => ({ id: c.id, label: c.name ? `${c.id} — ${c.name}` : c.id }));
}

export const loadProcessKeys = (): Promise<Choice[]> =>
  call(api.GET(`${DEFS}/categories`)).then((groups) =>
    groups.flatMap((g) => g.definitions.map((d) => ({ id: d.key, label: d.name }))),
  );

export const checkConditions = (dsl: Doc) => call(api.POST(`${DEFS}/validate-conditions`, { body: { dsl } as any }));

// The server's verdicts: it knows the tenant's catalogue, stored forms and directory.
export const validateOnServer = (dsl: Doc): Promise<{ valid: boolean; problems: DesignProblem[] }> =>
  call(api.POST(`${DEFS}/validate`, { body: { dsl } as any }));

export type Simulation = Schemas['DefinitionSimulation'];
export type SimStep = Simulation['steps'][number];
export const simulate = (dsl: Doc, initiatorId: string, variables: Record<string, unknown>) =>
  call(api.POST(`${DEFS}/simulate`, { body: { dsl, initiatorId, variables } as any }));

export type Comparison = Schemas['DefinitionComparison'];
export const compare = (id: string, otherId: string): Promise<Comparison> =>
  call(api.GET(`${DEFS}/{id}/compare/{otherId}`, { params: { path: { id, otherId } } }));
