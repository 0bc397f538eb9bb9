// CEL environments: one for evaluation (msg and metadata as maps) and cached typed ones for
// checking conditions against a form's field types. Built on first use, then kept: a workflow
// evaluates its modules anew for every instance, and most definitions have no condition.
import { Environment } from '@marcbachmann/cel-js';
import { patternMatches } from './matches.js';

function coreEnvironment(): Environment {
  const env = new Environment({
    homogeneousAggregateLiterals: false,
    limits: { maxAstNodes: 1000, maxDepth: 32, maxListElements: 500, maxMapEntries: 200, maxCallArguments: 8 },
  });
  // JSON numbers arrive as doubles while literals like 3 are ints; mix them like JSON would.
  const arithmetic: Record<string, (a: number, b: number) => number> = {
    '+': (a, b) => a + b,
    '-': (a, b) => a - b,
    '*': (a, b) => a * b,
    '/': (a, b) => a / b,
    '%': (a, b) => a % b,
  };
  for (const [op, fn] of Object.entries(arithmetic)) {
    env.registerOperator(`int ${op} double: double`, (a: bigint, b: number) => fn(Number(a), b));
    env.registerOperator(`double ${op} int: double`, (a: number, b: bigint) => fn(a, Number(b)));
  }
  env.registerOperator('double % double: double', (a: number, b: number) => a % b);
  env.registerOperator('int == double', (a: bigint, b: number) => Number(a) === b);
  // `matches` goes to RE2 (linear time) instead of JavaScript's backtracking RegExp.
  env.registerFunction('string.safeMatches(string): bool', (text: string, pattern: string) =>
    patternMatches(text, pattern),
  );
  return env;
}

let built: { runtime: Environment; checking: Environment } | undefined;
function environments(): { runtime: Environment; checking: Environment } {
  if (built) return built;
  const core = coreEnvironment();
  const checking = core.clone();
  // Typed form fields may still be absent: allow comparing them with null while checking.
  for (const type of ['double', 'int', 'string', 'bool', 'list', 'map']) {
    checking.registerOperator(`${type} == null`, (a: unknown) => a === null);
  }
  built = { runtime: core.clone().registerVariable('msg', 'map').registerVariable('metadata', 'map'), checking };
  return built;
}

/** The environment conditions are evaluated in: msg and metadata as maps. */
export function runtimeEnvironment(): Environment {
  return environments().runtime;
}

const typedEnvironments = new Map<string, Environment>();

const CEL_TYPES = new Set([
  'double',
  'int',
  'uint',
  'string',
  'bool',
  'bytes',
  'list',
  'map',
  'dyn',
  'timestamp',
  'duration',
]);
const FORM_TYPES: Record<string, string> = {
  number: 'double',
  integer: 'double',
  int: 'double', // JSON numbers are doubles at run time
  float: 'double',
  money: 'double',
  amount: 'double',
  text: 'string',
  textarea: 'string',
  select: 'string',
  radio: 'string',
  date: 'string',
  datetime: 'string',
  email: 'string',
  boolean: 'bool',
  switch: 'bool',
  checkbox: 'list',
  multiselect: 'list',
  array: 'list',
  object: 'map',
};

/** Form field type (number, string, boolean...) or CEL type → the CEL type used for checking. */
export function celTypeOf(fieldType: string | undefined): string {
  if (!fieldType) return 'dyn';
  if (Object.hasOwn(FORM_TYPES, fieldType)) return FORM_TYPES[fieldType];
  return CEL_TYPES.has(fieldType) ? fieldType : 'dyn';
}

export function typedEnvironment(schema: Record<string, string>): Environment {
  const key = JSON.stringify(Object.entries(schema).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let env = typedEnvironments.get(key);
  if (!env) {
    env = environments().checking.clone().registerVariable({ name: 'msg', schema }).registerVariable('metadata', 'map');
    if (typedEnvironments.size >= 50) typedEnvironments.delete(typedEnvironments.keys().next().value!);
    typedEnvironments.set(key, env);
  }
  return env;
}
