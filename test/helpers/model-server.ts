// An OpenAI-compatible chat-completions server for the tests of the aiAgent node (docs/ai-review.md):
// the real protocol (`POST /v1/chat/completions`, a `chat.completion` answer) with scripted answers,
// chosen by the `SCENARIO:<name>` the node's customPrompt puts into the user message.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startReceiver, type Receiver } from './http-receiver.js';

export interface ModelScript {
  /** Answers in turn; the last one repeats. A number is an HTTP status answered instead. */
  answers: Array<string | number>;
  delayMs?: number;
}

export interface ModelServer extends Receiver {
  /** The agent's `baseUrl`: `http://localhost:<port>/v1`. */
  baseUrl: string;
  /** Requests received, per scenario. */
  received: Record<string, Array<{ auth: string | undefined; body: any }>>;
}

/** A `chat.completion` answer holding `content`. */
export function chatCompletion(content: string, modelName: string): string {
  return JSON.stringify({
    id: `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: modelName,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  });
}

/**
 * Starts the server on a free port of 127.0.0.1. `scripts` is read at each request, so a test may
 * add a scenario later; a prompt naming no scenario gets `fallback`'s.
 */
export async function startModelServer(
  scripts: Record<string, ModelScript>,
  { fallback = 'pass' }: { fallback?: string } = {},
): Promise<ModelServer> {
  const received: ModelServer['received'] = {};
  const answer = (req: IncomingMessage, text: string, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return res.writeHead(404).end();
    const body = JSON.parse(text);
    const user = body.messages.find((m: any) => m.role === 'user')?.content ?? '';
    const scenario = /SCENARIO:(\w+)/.exec(user)?.[1] ?? fallback;
    const seen = (received[scenario] ??= []);
    seen.push({ auth: req.headers.authorization, body });
    const script = scripts[scenario];
    const reply = script.answers[Math.min(seen.length - 1, script.answers.length - 1)];
    setTimeout(() => {
      if (res.destroyed) return;
      if (typeof reply === 'number')
        // A hostile or careless server echoing the credentials it got.
        return res.writeHead(reply).end(`bad credentials: ${req.headers.authorization}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletion(reply, body.model));
    }, script.delayMs ?? 0);
  };
  const receiver = await startReceiver(answer);
  return { ...receiver, baseUrl: `http://localhost:${receiver.port}/v1`, received };
}
