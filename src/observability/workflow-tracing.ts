// Workflow code (bundled into dist/workflow-bundle-traced.js, scripts/bundle-workflows.ts): Temporal's
// OpenTelemetry workflow interceptors, made so that a workflow does exactly the same with tracing
// on as off — live or replayed, on either bundle (test/workflow/tracing-replay.test.ts).
//
// The package's own interceptors change what the workflow does in two ways:
// - Their spans' ids come from OpenTelemetry's default generator, which calls Math.random: inside a
//   workflow that is the workflow's own seeded sequence, the one uuid4() draws task ids from. Each
//   span shifted the ids made after it, and spans are not made alike on replay (Update validators,
//   and their spans, do not run then): a task made after an Update got another id on replay than the
//   one its approve names, and the replay failed — on the plain bundle always, on the traced one
//   after a setVariables or re-drive. Here the ids come from a named random stream (getRandomStream),
//   derived from the workflow's seed without drawing on Math.random.
// - They await the calls they wrap (`return await instrument(...)`), so an activity's result, the
//   workflow's end or an Update's answer reaches the workflow a few microtasks later than without
//   them, and in another order against the rest of the activation: a plain worker's history did not
//   replay on the traced bundle (an Update completed before the activity it had scheduled), which is
//   what switching tracing on would do to running instances. Here each span is started and ended
//   beside the wrapped call, whose own promise is handed back untouched.
// Span names and the trace header are the package's, so the server's and the activities' spans
// (Temporal's client and activity interceptors) join the same traces.
// First: the isolate's globals OpenTelemetry wants (performance, window), as the package's own module does.
import '@temporalio/interceptors-opentelemetry/lib/workflow/runtime.js';
import { BasicTracerProvider, SimpleSpanProcessor, type IdGenerator } from '@opentelemetry/sdk-trace-base';
import { context, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import {
  ContinueAsNew,
  getRandomStream,
  workflowInfo,
  type ActivityInput,
  type ContinueAsNewInput,
  type LocalActivityInput,
  type Next,
  type QueryInput,
  type SignalInput,
  type SignalWorkflowInput,
  type StartChildWorkflowExecutionInput,
  type UpdateInput,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptorsFactory,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import { SpanName, SPAN_DELIMITER } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';
import {
  extractContextFromHeaders,
  headersWithContext,
  UPDATE_ID_ATTR_KEY,
} from '@temporalio/interceptors-opentelemetry/lib/instrumentation.js';
import { SpanExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/span-exporter.js';

/** The stream's name: stable, so a replay draws the same ids. */
export const SPAN_ID_STREAM = 'approval-service/opentelemetry-ids';

function hexId(bytes: number): string {
  const stream = getRandomStream(SPAN_ID_STREAM);
  let hex = '';
  for (let i = 0; i < bytes; i++)
    hex += Math.floor(stream.random() * 256)
      .toString(16)
      .padStart(2, '0');
  // An all-zero id is invalid in W3C trace context.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

const idGenerator: IdGenerator = {
  generateTraceId: () => hexId(16),
  generateSpanId: () => hexId(8),
};

let tracer: Tracer | undefined;

const workflowTypeOf = () => workflowInfo().workflowType;

/** One tracer for the isolate, as the package keeps one; its spans leave through the `exporter` sink. */
function workflowTracer(): Tracer {
  tracer ??= new BasicTracerProvider({
    idGenerator,
    spanProcessors: [new SimpleSpanProcessor(new SpanExporter())],
  }).getTracer('@temporalio/interceptor-workflow');
  return tracer;
}

/** Marks a failed span as the package does: benign application failures leave the status unset. */
function failed(span: Span, err: unknown) {
  const benign = err instanceof ApplicationFailure && err.category === ApplicationFailureCategory.BENIGN;
  span.setStatus({
    code: benign ? SpanStatusCode.UNSET : SpanStatusCode.ERROR,
    message: err instanceof Error ? err.message : String(err),
  });
  span.recordException(err as Error);
}

const continuedAsNew = (err: unknown) => err instanceof ContinueAsNew;

/**
 * Runs `fn` under a new span (a child of `parent`, else of the active span) and answers fn's own
 * promise: the span ends beside it, adding no step between the call and whoever awaits it.
 */
function spanned<T>(
  name: string,
  parent: Context | undefined,
  fn: (span: Span) => Promise<T>,
  acceptable?: (err: unknown) => boolean,
): Promise<T> {
  const base = parent ?? context.active();
  const span = workflowTracer().startSpan(name, undefined, base);
  let result: Promise<T>;
  try {
    result = context.with(trace.setSpan(base, span), () => fn(span));
  } catch (err) {
    failed(span, err);
    span.end();
    throw err;
  }
  result.then(
    () => {
      span.setStatus({ code: SpanStatusCode.OK });
      span.end();
    },
    (err: unknown) => {
      if (acceptable?.(err)) span.setStatus({ code: SpanStatusCode.OK });
      else failed(span, err);
      span.end();
    },
  );
  return result;
}

/** The synchronous kind (Update validators). */
function spannedSync<T>(name: string, parent: Context | undefined, fn: (span: Span) => T): T {
  const base = parent ?? context.active();
  const span = workflowTracer().startSpan(name, undefined, base);
  try {
    const result = context.with(trace.setSpan(base, span), () => fn(span));
    span.setStatus({ code: SpanStatusCode.OK });
    return result;
  } catch (err) {
    failed(span, err);
    throw err;
  } finally {
    span.end();
  }
}

const nameOf = (kind: SpanName, what: string) => `${kind}${SPAN_DELIMITER}${what}`;

// Subclasses for the context manager and the W3C propagator the package's constructors register
// (and its internals interceptor releases); every call they wrap is overridden.
class Inbound extends OpenTelemetryInboundInterceptor implements WorkflowInboundCallsInterceptor {
  override execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>) {
    return spanned(
      nameOf(SpanName.WORKFLOW_EXECUTE, workflowTypeOf()),
      extractContextFromHeaders(input.headers),
      () => next(input),
      continuedAsNew,
    );
  }

  override handleSignal(input: SignalInput, next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>) {
    return spanned(
      nameOf(SpanName.WORKFLOW_HANDLE_SIGNAL, input.signalName),
      extractContextFromHeaders(input.headers),
      () => next(input),
    );
  }

  override handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>) {
    return spanned(
      nameOf(SpanName.WORKFLOW_HANDLE_UPDATE, input.name),
      extractContextFromHeaders(input.headers),
      (span) => {
        span.setAttribute(UPDATE_ID_ATTR_KEY, input.updateId);
        return next(input);
      },
    );
  }

  override validateUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'validateUpdate'>) {
    spannedSync(
      nameOf(SpanName.WORKFLOW_VALIDATE_UPDATE, input.name),
      extractContextFromHeaders(input.headers),
      (span) => {
        span.setAttribute(UPDATE_ID_ATTR_KEY, input.updateId);
        next(input);
      },
    );
  }

  override handleQuery(input: QueryInput, next: Next<WorkflowInboundCallsInterceptor, 'handleQuery'>) {
    return spanned(
      nameOf(SpanName.WORKFLOW_HANDLE_QUERY, input.queryName),
      extractContextFromHeaders(input.headers),
      () => next(input),
    );
  }
}

class Outbound extends OpenTelemetryOutboundInterceptor implements WorkflowOutboundCallsInterceptor {
  override scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>) {
    return spanned(nameOf(SpanName.ACTIVITY_START, input.activityType), undefined, () =>
      next({ ...input, headers: headersWithContext(input.headers) }),
    );
  }

  override scheduleLocalActivity(
    input: LocalActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>,
  ) {
    return spanned(nameOf(SpanName.ACTIVITY_START, input.activityType), undefined, () =>
      next({ ...input, headers: headersWithContext(input.headers) }),
    );
  }

  override startChildWorkflowExecution(
    input: StartChildWorkflowExecutionInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
  ) {
    return spanned(nameOf(SpanName.CHILD_WORKFLOW_START, input.workflowType), undefined, () =>
      next({ ...input, headers: headersWithContext(input.headers) }),
    );
  }

  override continueAsNew(input: ContinueAsNewInput, next: Next<WorkflowOutboundCallsInterceptor, 'continueAsNew'>) {
    return spanned(
      nameOf(SpanName.CONTINUE_AS_NEW, input.options.workflowType ?? workflowTypeOf()),
      undefined,
      () => next({ ...input, headers: headersWithContext(input.headers) }),
      continuedAsNew,
    );
  }

  override signalWorkflow(input: SignalWorkflowInput, next: Next<WorkflowOutboundCallsInterceptor, 'signalWorkflow'>) {
    return spanned(nameOf(SpanName.WORKFLOW_SIGNAL, input.signalName), undefined, () =>
      next({ ...input, headers: headersWithContext(input.headers) }),
    );
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [new Inbound()],
  outbound: [new Outbound()],
  internals: [new OpenTelemetryInternalsInterceptor()],
});
