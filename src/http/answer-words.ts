// The sentences inside 2xx answers, in the caller's language (docs/http.md "Languages"): validation
// problems said again from their code and params, assignment reasons from their kind and fields,
// an instance's end reason from its ending code and params.
// Codes, params and every machine-readable field are left as they are.
import { problemMessageIn } from '../../dsl/problems.zh-CN.js';
import { isEndingCode, type EndingParams } from '../../dsl/ending.js';
import { zhCNEndings } from '../../dsl/ending.zh-CN.js';
import { reasonIn } from '../services/assignment-reason.zh-CN.js';
import type { AssignmentReason } from '../services/assignment-reason.js';
import type { ApiLocale } from './locale.js';

type ProblemLike = { code?: string; params?: Record<string, unknown>; message: string };

/** A validation report (`POST …/validate`): each problem's message in `locale`. */
export function reportIn<T extends { problems: ProblemLike[] }>(locale: ApiLocale, report: T): T {
  if (locale === 'en') return report;
  return { ...report, problems: report.problems.map((p) => ({ ...p, message: problemMessageIn(locale, p) })) };
}

type WithReason = { reason: AssignmentReason | null };

/** A simulation (`POST …/simulate`): every approver's and assignment's reason in `locale`. */
export function simulationIn<
  T extends {
    steps: Array<{ assignment: (WithReason & { approvers: Array<{ reason: AssignmentReason }> }) | null }>;
  },
>(locale: ApiLocale, simulation: T): T {
  if (locale === 'en') return simulation;
  return {
    ...simulation,
    steps: simulation.steps.map((step) =>
      step.assignment
        ? {
            ...step,
            assignment: {
              ...step.assignment,
              reason: reasonIn(locale, step.assignment.reason),
              approvers: step.assignment.approvers.map((a) => ({ ...a, reason: reasonIn(locale, a.reason) })),
            },
          }
        : step,
    ),
  };
}

/** A task view: its assignment reason in `locale`. */
export function taskIn<T extends { assignmentReason: AssignmentReason | null }>(locale: ApiLocale, task: T): T {
  return locale === 'en' ? task : { ...task, assignmentReason: reasonIn(locale, task.assignmentReason) };
}

type WithEnding = { endReason: string | null; endCode?: string | null; endParams?: Record<string, unknown> | null };

/**
 * An instance: its `endReason` in `locale`, said from `endCode` and `endParams`. English keeps the
 * words the engine recorded (the same sentence); an instance that ended before codes keeps its words.
 */
export function instanceIn<T extends WithEnding>(locale: ApiLocale, instance: T): T {
  if (locale === 'en' || !isEndingCode(instance.endCode)) return instance;
  const say = zhCNEndings[instance.endCode] as (p: EndingParams[keyof EndingParams]) => string;
  return { ...instance, endReason: say((instance.endParams ?? {}) as EndingParams[keyof EndingParams]) };
}
