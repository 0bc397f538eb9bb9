// The aiAgent node's call (docs/ai-review.md): one chat completion on the tenant's catalogue agent,
// an OpenAI-compatible endpoint (a hosted model, Ollama, vLLM), under the network rules of
// httpCall. The API key is read here by agent id and never leaves this function: not in the
// activity's input or result (workflow history), not in an error or a log line; nor do the
// credentials of its base URL (docs/http.md "Credentials in URLs").
import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { redactSecrets, urlSecrets } from '../src/shapes.js';
import { guardedRequest, RequestRefused } from '../src/infra/outbound/guard.js';
import type { ActivityDeps } from './deps.js';
import { tenantTrust } from '../src/infra/outbound/network-trust.js';
import { skillContents } from '../src/definitions/ai-agents.js';
import { AppError } from '../src/errors.js';
import {
  aiAttachmentContext,
  filesFingerprint,
  instanceFileRows,
  type ImagePart,
} from '../src/attachments/ai-context.js';
import { StoreUnavailable } from '../src/attachments/store.js';
import { DECISION_PROTOCOL } from '../workflows/engine/ai-verdict.js';

export interface AgentCallInput {
  tenantId: string;
  agentId: string;
  workflowId: string;
  nodeId: string;
  /** The assembled user message (context, custom prompt, verdict protocol). */
  prompt: string;
  /** The node's timeoutSec in ms; null: the agent's own timeout. */
  timeoutMs: number | null;
  /** Skills whose contents follow the agent's system prompt, in this order (absent in older calls). */
  skills?: string[];
  /** `contextSources.attachments`: the instance's files go along (absent in older calls). */
  attachments?: { instanceId: string };
}

export interface AgentAnswer {
  content: string;
  model: string;
  /** Answered from an earlier call with the same input at this node (no model call). */
  reused: boolean;
}

/** Long enough for any verdict and summary; a longer answer is cut (it is stored in the variables). */
export const MAX_ANSWER_CHARS = 20_000;

const final = (message: string) => ApplicationFailure.nonRetryable(message, 'AI_AGENT_FAILED');
const retry = (message: string) => ApplicationFailure.retryable(message, 'AI_AGENT_FAILED');

interface AgentRow {
  base_url: string;
  model: string;
  system_prompt: string | null;
  temperature: number | null;
  timeout_ms: number;
  api_key: string | null;
}

type UserContent = string | Array<{ type: 'text'; text: string } | ImagePart>;

/**
 * The user message with the files: their list and document text after the context (before the
 * verdict protocol, which stays last), the images as parts after that text.
 */
function withFiles(prompt: string, files: { text: string; images: ImagePart[] }): UserContent {
  if (!files.text) return prompt;
  const protocol = `\n\n---\n\n${DECISION_PROTOCOL}`;
  const before = prompt.endsWith(protocol) ? prompt.slice(0, -protocol.length) : prompt;
  const after = before === prompt ? '' : protocol.trimStart();
  const text = `${before}\n\n${files.text}`;
  if (!files.images.length) return after ? `${text}\n\n${after}` : text;
  return [{ type: 'text', text }, ...files.images, ...(after ? [{ type: 'text' as const, text: after }] : [])];
}

/** The text of a chat-completions answer: choices[0].message.content (a string or text parts). */
function contentOf(answer: unknown): string | null {
  const message = (answer as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message;
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return null;
}

export function createAiAgentActivities(deps: ActivityDeps) {
  return {
    async callAiAgent(input: AgentCallInput): Promise<AgentAnswer> {
      const em = deps.orm.em.fork();
      const [agent] = await em.execute<AgentRow[]>(
        `select base_url, model, system_prompt, temperature, timeout_ms, api_key
           from ai_agents where tenant_id = ? and agent_id = ?`,
        [input.tenantId, input.agentId],
      );
      // A skill missing at run time fails the node clearly (it was checked at deploy, then deleted).
      const skills = await skillContents(em, input.tenantId, input.skills ?? []).catch((err: unknown) => {
        throw err instanceof AppError ? final(`AI agent ${input.agentId}: ${err.message}`) : err;
      });
      const system = [agent?.system_prompt, ...skills].filter((s): s is string => !!s?.trim()).join('\n\n');
      // The instance's files (contextSources.attachments), read here and never in the workflow.
      const files = input.attachments ? await instanceFileRows(em, input.tenantId, input.attachments.instanceId) : [];
      // Same workflow, node and input → the answer already given: a re-drive, a retry after a
      // worker crash or a resubmission with nothing changed does not call the model again.
      const fingerprint = createHash('sha256')
        .update(
          `${input.agentId}\n${skills.length ? `${system}\n` : ''}${input.prompt}${files.length ? `\n${filesFingerprint(files)}` : ''}`,
        )
        .digest('hex')
        .slice(0, 32);
      const [kept] = await em.execute<Array<{ content: string }>>(
        'select content from ai_agent_answers where workflow_id = ? and node_id = ? and fingerprint = ?',
        [input.workflowId, input.nodeId, fingerprint],
      );
      if (kept) return { content: kept.content, model: agent?.model ?? '', reused: true };
      if (!agent) throw final(`AI agent ${input.agentId} is not in the agents catalogue`);
      const key = agent.api_key;
      // An error text may come from the model server: it never carries the key, or a credential of
      // the base URL, back out.
      const redact = (text: string) => redactSecrets(text, [key, ...urlSecrets(agent.base_url)]);
      const context = await aiAttachmentContext(deps.config, files).catch((err) => {
        throw err instanceof StoreUnavailable ? retry(`attachment store unavailable: ${err.message}`) : err;
      });
      const body = JSON.stringify({
        model: agent.model,
        messages: [
          ...(system ? [{ role: 'system', content: system }] : []),
          { role: 'user', content: withFiles(input.prompt, context) },
        ],
        ...(agent.temperature === null ? {} : { temperature: agent.temperature }),
        stream: false,
      });
      const res = await guardedRequest(
        deps.config,
        {
          url: `${agent.base_url.replace(/\/+$/, '')}/chat/completions`,
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
          body,
          timeoutMs: input.timeoutMs ?? agent.timeout_ms,
          allowedHosts: null,
        },
        await tenantTrust(deps.orm, input.tenantId),
      ).catch((err) => {
        if (err instanceof RequestRefused) throw final(redact(err.message));
        throw retry(redact(`request failed: ${err?.message ?? err}`));
      });
      if (res.status < 200 || res.status > 299) {
        const why = redact(`the model server answered ${res.status}: ${res.text.slice(0, 200)}`);
        // 408 / 429 / 5xx may pass; any other refusal (a wrong key, an unknown model) will not.
        throw res.status === 408 || res.status === 429 || res.status >= 500 ? retry(why) : final(why);
      }
      let content: string | null;
      try {
        content = contentOf(JSON.parse(res.text));
      } catch {
        content = null;
      }
      if (content === null) throw retry('the model server answered without choices[0].message.content');
      content = content.slice(0, MAX_ANSWER_CHARS);
      await em.execute(
        `insert into ai_agent_answers (tenant_id, workflow_id, node_id, fingerprint, content) values (?, ?, ?, ?, ?)
         on conflict do nothing`,
        [input.tenantId, input.workflowId, input.nodeId, fingerprint, content],
      );
      return { content, model: agent.model, reused: false };
    },
  };
}
