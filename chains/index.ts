// The rule-chain package: RuleGo's chain DSL, its expressions, routing, validation, component forms
// and cron conversion. Pure (no Node, ORM or Hono). Workflow code imports the zod-free modules
// directly (expr.ts, msg.ts, routing.ts, template.ts, cron.ts, types.ts), not this index: it
// brings in zod (parse.ts) and the forms.
export * from './types.js';
export * from './expr.js';
export * from './msg.js';
export * from './routing.js';
export * from './template.js';
export { PatternError, patternMatches } from './matches.js';
export * from './catalogue.js';
export * from './cron.js';
export * from './problems.js';
export * from './parse.js';
export * from './validate.js';
export * from './references.js';
export * from './forms.js';
