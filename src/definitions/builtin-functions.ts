// Functions a serviceTask may call by `functionName`. Each gets the node's `param` (the rendered
// template, or all variables when it is empty) and answers variables to merge.

export type ServiceFunction = (
  param: unknown,
  ctx: { variables: Record<string, unknown>; instanceId: string; tenantId: string },
) => Promise<Record<string, unknown>> | Record<string, unknown>;

function asObject(param: unknown, fn: string): Record<string, unknown> {
  if (param && typeof param === 'object' && !Array.isArray(param)) return param as Record<string, unknown>;
  if (typeof param === 'string' && param.trim().startsWith('{')) {
    const parsed = JSON.parse(param);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  }
  throw new Error(`${fn}: param must be an object (or its JSON)`);
}

export const serviceFunctions: Record<string, ServiceFunction> = {
  /** Merges the given object into the variables. */
  setVariables: (param) => asObject(param, 'setVariables'),
  /** `{ "name": "counter", "by": 1 }` → counter + by. */
  increment: (param, { variables }) => {
    const { name, by = 1 } = asObject(param, 'increment') as { name?: unknown; by?: unknown };
    if (typeof name !== 'string' || !name) throw new Error('increment: name is required');
    const current = variables[name] ?? 0;
    if (typeof current !== 'number' || typeof by !== 'number')
      throw new Error(`increment: ${name} and by must be numbers`);
    return { [name]: current + by };
  },
  /** `{ "target": "total", "fields": ["a","b"] }` → total = a + b (numbers). */
  sum: (param, { variables }) => {
    const { target, fields } = asObject(param, 'sum') as { target?: unknown; fields?: unknown };
    if (typeof target !== 'string' || !Array.isArray(fields)) throw new Error('sum: target and fields are required');
    let total = 0;
    for (const f of fields) {
      const v = variables[String(f)];
      if (typeof v !== 'number') throw new Error(`sum: ${String(f)} is not a number`);
      total += v;
    }
    return { [target]: total };
  },
  /** Fails on purpose with the given message: routes to the node's Failure edge (useful in tests and drills). */
  fail: (param) => {
    throw new Error(typeof param === 'string' && param ? param : 'fail: requested failure');
  },
};

export const serviceFunctionNames = Object.keys(serviceFunctions);

/** What each built-in does, as the catalogue listing shows it (GET /api/v1/service-functions). */
export const builtinDescriptions: Record<string, string> = {
  setVariables: 'Merges the param object (or its JSON) into the variables.',
  increment: '{ "name": "counter", "by": 1 } sets counter to counter + by (numbers; by defaults to 1).',
  sum: '{ "target": "total", "fields": ["a", "b"] } sets total to the sum of the named number variables.',
  fail: "Fails on purpose with the param as message: follows the node's Failure edge, else the instance fails.",
};
