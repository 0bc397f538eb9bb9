// Small process documents for the workflow tests (the builders the HTTP suites use).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { linear } from '../../helpers/dsl.js';

export { linear, steps, users, type StepNode } from '../../helpers/dsl.js';

export const example = (name: string) =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../examples', name), 'utf8'));

/** One userTask between start and end. */
export const oneStep = (
  key: string,
  configuration: Record<string, unknown>,
  additionalInfo?: Record<string, unknown>,
) => linear(key, [{ id: 'approve', configuration, ...(additionalInfo ? { additionalInfo } : {}) }]);
