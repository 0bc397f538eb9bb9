// The interpreter of one chain run: walks the chain snapshot from its first node (or `fromNodeId`),
// following after each node every connection whose type is the node's relation. Several targets
// are parallel branches (coroutines of the workflow); a join gathers the branches reaching it.
// Deterministic: workflow time, workflow ids, no I/O but activities, timers and child workflows.
import { CancellationScope, condition, isCancellation } from '@temporalio/workflow';
import {
  LOG_BUDGET_CHARS,
  LOG_TAIL_CHARS,
  LOGGED_DATA_CHARS,
  MAX_NODE_VISITS,
  RELATIONS,
  type ChainRunInput,
  type ChainRunResult,
  type NodeRunLog,
  type RuleChainDsl,
  type RuleMsg,
  type RuleNode,
} from '../../chains/types.js';
import { firstNodeIds, joinPredecessors, nextNodeIds, nodeById } from '../../chains/routing.js';
import type { CompiledExpr } from '../../chains/expr.js';
import type { ChainRunState } from './messages.js';
import { failureOf, runNode, type NodeOutcome } from './nodes.js';

interface JoinGate {
  predecessors: string[];
  arrivals: Array<{ from: string | null; msg: RuleMsg }>;
}

export class ChainRun {
  readonly chain: RuleChainDsl;
  readonly logs: NodeRunLog[] = [];
  /** Parsed expressions of this run by their text (a run's own: workflow modules are shared by all runs). */
  readonly exprs = new Map<string, CompiledExpr>();
  failure: { nodeId: string | null; message: string; msg: RuleMsg } | null = null;
  private output: RuleMsg;
  /** Branches walking now, not counting those parked at a join: when none is left, nothing more can arrive. */
  private active = 0;
  private visits = 0;
  /** Nodes reached by the branches (MAX_NODE_VISITS). */
  private walked = 0;
  /** Characters of message data the log holds so far (LOG_BUDGET_CHARS). */
  private logged = 0;
  private readonly running = new Map<string, number>();
  private readonly gates = new Map<string, JoinGate>();
  private readonly timedOutJoins = new Set<string>();
  private readonly scope = new CancellationScope();

  constructor(readonly input: ChainRunInput) {
    this.chain = input.chain;
    this.output = input.msg;
  }

  /** A number per node visit, the same on every replay: names a visit's calls (callId, child run id). */
  nextVisit(): number {
    return ++this.visits;
  }

  async execute(): Promise<void> {
    const { input } = this;
    if (input.onlyNodeId !== undefined) {
      const node = nodeById(this.chain, input.onlyNodeId);
      if (!node) return this.fail(null, `no node ${input.onlyNodeId} in the chain`, input.msg);
      const out = await this.visit(node, input.msg);
      if (out.relations.includes(RELATIONS.FAILURE)) return this.fail(node.id, out.err ?? 'failed', out.msg);
      this.output = out.msg;
      return;
    }
    const starts = firstNodeIds(this.chain, input.fromNodeId);
    if (input.fromNodeId !== undefined && !starts.length)
      return this.fail(null, `no node ${input.fromNodeId} in the chain`, input.msg);
    try {
      await this.scope.run(() => Promise.all(starts.map((id) => this.walk(id, input.msg, null))));
    } catch (err) {
      // Branches cancelled because another one failed the run.
      if (!(this.failure && isCancellation(err))) throw err;
    }
  }

  /** The run was cancelled from outside (Temporal's cancel): it ends failed, with the reason. */
  cancelled(message: string) {
    this.failure ??= { nodeId: null, message, msg: this.output };
  }

  result(): ChainRunResult {
    const f = this.failure;
    return {
      success: !f,
      msg: f ? f.msg : this.output,
      error: f ? { nodeId: f.nodeId, message: f.message } : null,
      logs: this.logs,
    };
  }

  state(done = false): ChainRunState {
    return {
      status: !done ? 'running' : this.failure ? 'failed' : 'succeeded',
      logs: this.logs,
      running: [...this.running.entries()].filter(([, n]) => n > 0).map(([id]) => id),
      error: this.failure ? { nodeId: this.failure.nodeId, message: this.failure.message } : null,
    };
  }

  private fail(nodeId: string | null, message: string, msg: RuleMsg) {
    if (this.failure) return;
    this.failure = { nodeId, message, msg };
    this.scope.cancel();
  }

  /** One branch: node after node while the path is single, forking into coroutines where it splits. */
  private async walk(nodeId: string, msg: RuleMsg, from: string | null): Promise<void> {
    this.active++;
    try {
      let cur = { nodeId, msg, from };
      for (;;) {
        if (this.failure) return;
        const node = nodeById(this.chain, cur.nodeId)!;
        if (++this.walked > MAX_NODE_VISITS)
          return this.fail(node.id, `more than ${MAX_NODE_VISITS} node visits: a cycle with no way out?`, cur.msg);
        const out = node.type === 'join' ? await this.join(node, cur.msg, cur.from) : await this.visit(node, cur.msg);
        if (!out) return; // merged into the branch that waits at the join
        const targets: string[] = [];
        for (const relation of out.relations)
          for (const id of nextNodeIds(this.chain, node.id, relation)) if (!targets.includes(id)) targets.push(id);
        if (!targets.length) {
          // A failure nobody handles fails the run; any other relation without a connection ends the branch.
          if (out.relations.includes(RELATIONS.FAILURE)) this.fail(node.id, out.err ?? 'failed', out.msg);
          else this.output = out.msg;
          return;
        }
        if (targets.length === 1) {
          cur = { nodeId: targets[0], msg: out.msg, from: node.id };
          continue;
        }
        const branches = targets.map((id) => this.walk(id, out.msg, node.id));
        // This coroutine only waits for its branches: not active, or a join below could never be released.
        this.active--;
        try {
          await Promise.all(branches);
        } finally {
          this.active++;
        }
        return;
      }
    } finally {
      this.active--;
    }
  }

  private mark(nodeId: string, delta: number) {
    this.running.set(nodeId, (this.running.get(nodeId) ?? 0) + delta);
  }

  private async visit(node: RuleNode, msg: RuleMsg): Promise<NodeOutcome> {
    const startTs = Date.now();
    this.mark(node.id, 1);
    let out: NodeOutcome;
    try {
      out = await runNode(this, node, msg);
    } catch (err) {
      if (isCancellation(err)) throw err;
      const f = failureOf(err);
      out = { relations: [RELATIONS.FAILURE], msg, err: f.message, attempts: f.attempts };
    } finally {
      this.mark(node.id, -1);
    }
    this.log(node.id, msg, out, startTs);
    return out;
  }

  /** A message as the run log keeps it: data past its allowance cut, and said so in its metadata. */
  private clip(msg: RuleMsg): RuleMsg {
    const allowance = this.logged + LOGGED_DATA_CHARS <= LOG_BUDGET_CHARS ? LOGGED_DATA_CHARS : LOG_TAIL_CHARS;
    const kept = Math.min(msg.data.length, allowance);
    this.logged += kept;
    if (kept === msg.data.length) return msg;
    return {
      ...msg,
      data: msg.data.slice(0, kept),
      metadata: { ...msg.metadata, _logTruncated: String(msg.data.length) },
    };
  }

  private log(nodeId: string, inMsg: RuleMsg, out: NodeOutcome, startTs: number) {
    this.logs.push({
      nodeId,
      inMsg: this.clip(inMsg),
      outMsg: this.clip(out.msg),
      relationType: out.relations.join(','),
      err: out.err ?? '',
      startTs,
      endTs: Date.now(),
      ...(out.attempts !== undefined ? { attempts: out.attempts } : {}),
    });
  }

  /**
   * RuleGo's join: waits for a message from each node connected into it (or until no branch that
   * could still arrive is running), then goes on once with their messages as a JSON array and
   * their metadata merged. `timeout` seconds (0 = none) → Failure. The first branch to arrive
   * carries on; the others end here (null).
   */
  private async join(node: RuleNode, msg: RuleMsg, from: string | null): Promise<NodeOutcome | null> {
    const open = this.gates.get(node.id);
    if (open) {
      open.arrivals.push({ from, msg });
      return null;
    }
    if (this.timedOutJoins.has(node.id)) return null;
    const gate: JoinGate = { predecessors: joinPredecessors(this.chain, node.id), arrivals: [{ from, msg }] };
    this.gates.set(node.id, gate);
    const startTs = Date.now();
    this.mark(node.id, 1);
    const timeoutS = Number((node.configuration as { timeout?: unknown } | undefined)?.timeout ?? 0);
    const complete = () => gate.predecessors.every((p) => gate.arrivals.some((a) => a.from === p));
    const released = () => complete() || this.active === 0;
    let inTime = true;
    this.active--;
    try {
      if (Number.isFinite(timeoutS) && timeoutS > 0) inTime = await condition(released, timeoutS * 1000);
      else await condition(released);
    } finally {
      this.active++;
      this.mark(node.id, -1);
      this.gates.delete(node.id);
    }
    const merged = mergeArrivals(msg, gate);
    let out: NodeOutcome;
    if (inTime) out = { relations: [RELATIONS.SUCCESS], msg: merged };
    else {
      this.timedOutJoins.add(node.id);
      const missing = gate.predecessors.filter((p) => !gate.arrivals.some((a) => a.from === p));
      out = {
        relations: [RELATIONS.FAILURE],
        msg: merged,
        err: `join timed out after ${timeoutS} s waiting for ${missing.join(', ')}`,
      };
    }
    this.log(node.id, msg, out, startTs);
    return out;
  }
}

/** RuleGo's merge: data = [{msg (without metadata), err, nodeId}], metadata = every arrival's metadata. */
function mergeArrivals(base: RuleMsg, gate: JoinGate): RuleMsg {
  const order = (from: string | null) => {
    const i = from === null ? -1 : gate.predecessors.indexOf(from);
    return i < 0 ? gate.predecessors.length : i;
  };
  const arrivals = [...gate.arrivals].sort((a, b) => order(a.from) - order(b.from));
  const metadata: Record<string, string> = {};
  for (const a of arrivals) Object.assign(metadata, a.msg.metadata);
  const wrapped = arrivals.map((a) => ({ msg: { ...a.msg, metadata: {} }, err: '', nodeId: a.from ?? '' }));
  return {
    ...base,
    dataType: 'JSON',
    data: JSON.stringify(wrapped),
    metadata: Object.keys(metadata).length ? metadata : { ...base.metadata },
  };
}
