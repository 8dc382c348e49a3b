/**
 * The simulator's LLM judge: `POST /v1/chat/completions` with `model: "infersight-sim-judge"`
 * answers as a judge model would, with a chat completion whose content is the JSON verdict
 * `{"score": 0..1, "reasoning": "..."}`, token usage, and a latency drawn in virtual time. The
 * score is a deterministic function of the judged texts, the dimension and the evaluated
 * component's current quality state: a `quality-drift` fault lowers relevance and tone (and
 * safety with `safetyDrop`) exactly as it lowers the quality exporter's pass rates (`passRates`).
 *
 * The judge reads two header lines of the user message, as src/quality's judge writes them
 * (src/quality/judge/prompt.ts, `JUDGE_HEADER`; the two modules may not import each other, and
 * test/quality checks that they agree): `Evaluated model: "<model>"` and `Dimension: <dimension>`.
 *
 * Hostile variants for tests, chosen by the model name's suffix: `:error` answers 500, `:garbage`
 * prose instead of JSON, `:score7` a score on the wrong scale, `:hang` never answers (until the
 * client gives up), `:reset` drops the connection, `:slow` takes a hundred times as long.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OpenAiContext } from './openai.js';
import { passRates } from './quality.js';
import { hashString, Rng } from './rng.js';

/** The judge model's name. */
export const SIM_JUDGE_MODEL = 'infersight-sim-judge';

/** The hostile variants (`infersight-sim-judge:<variant>`). */
export const SIM_JUDGE_VARIANTS = ['error', 'garbage', 'score7', 'hang', 'reset', 'slow'] as const;
type Variant = (typeof SIM_JUDGE_VARIANTS)[number] | 'ok';

const HEADER_MODEL = 'Evaluated model: ';
const HEADER_DIMENSION = 'Dimension: ';

/** Whether a parsed request body asks for the judge. */
export function isJudgeRequest(body: unknown): boolean {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' && (model === SIM_JUDGE_MODEL || model.startsWith(`${SIM_JUDGE_MODEL}:`));
}

function variantOf(model: string): Variant | undefined {
  if (model === SIM_JUDGE_MODEL) return 'ok';
  const v = model.slice(SIM_JUDGE_MODEL.length + 1);
  return (SIM_JUDGE_VARIANTS as readonly string[]).includes(v) ? (v as Variant) : undefined;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof (p as { text?: unknown } | null)?.text === 'string' ? (p as { text: string }).text : '')).join('');
  return '';
}

/** The evaluated model and the dimension from the header lines (the first few lines only). */
function header(text: string): { model: string | null; dimension: string } {
  let model: string | null = null;
  let dimension = 'composite';
  for (const line of text.slice(0, 2048).split('\n', 8)) {
    if (line.startsWith(HEADER_MODEL)) {
      try {
        const v: unknown = JSON.parse(line.slice(HEADER_MODEL.length));
        if (typeof v === 'string') model = v;
      } catch {
        // Not a JSON string: judged as an unknown model.
      }
    } else if (line.startsWith(HEADER_DIMENSION)) dimension = line.slice(HEADER_DIMENSION.length).trim();
  }
  return { model, dimension };
}

/** The pass probability of `dimension` for a component with these drift effects. */
function passRate(dimension: string, drop: number, safetyDrop: number): number {
  const p = passRates(drop, safetyDrop);
  switch (dimension) {
    case 'safety':
      return p.safety;
    case 'relevance':
    case 'accuracy':
      return p.relevance;
    case 'professional_tone':
      return p.professional_tone;
    default:
      return (p.safety + p.relevance + p.professional_tone) / 3;
  }
}

function reply(ctx: OpenAiContext, res: ServerResponse, model: string, content: string, promptChars: number): void {
  const promptTokens = Math.max(1, Math.ceil(promptChars / 4));
  const completionTokens = Math.max(1, Math.ceil(content.length / 4));
  const body = JSON.stringify({
    id: `chatcmpl-judge-${(hashString(content) >>> 0).toString(16)}`,
    object: 'chat.completion',
    created: Math.floor(ctx.wallNow() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** How errors are answered (openai.ts' `sendOpenAiError`, passed in so that the two files do not import each other). */
export type SendOpenAiError = (res: ServerResponse, status: number, message: string) => void;

/** Answers one judge request (the body is already parsed). Resolves when the answer is sent or the client has gone. */
export async function handleJudge(ctx: OpenAiContext, req: IncomingMessage, res: ServerResponse, body: unknown, sendOpenAiError: SendOpenAiError): Promise<void> {
  const b = body as { model: string; messages?: unknown; stream?: unknown };
  const variant = variantOf(b.model);
  if (variant === undefined) {
    sendOpenAiError(res, 404, `The model '${b.model}' does not exist (judge variants: ${SIM_JUDGE_VARIANTS.join(', ')}).`);
    return;
  }
  if (!Array.isArray(b.messages) || b.messages.length === 0) {
    sendOpenAiError(res, 400, "'messages' must be a non-empty array");
    return;
  }
  if (b.stream === true) {
    sendOpenAiError(res, 400, 'the simulated judge does not stream');
    return;
  }
  const messages = b.messages as { role?: unknown; content?: unknown }[];
  const texts = messages.map((m) => textOf(m?.content));
  const promptChars = texts.reduce((n, t) => n + t.length, 0);
  const user = [...messages].reverse().find((m) => m?.role === 'user');
  const judged = textOf(user?.content);
  const h = header(judged);
  const c = h.model === null ? undefined : ctx.sim.component(h.model);
  const rng = new Rng(hashString(`${judged}\u0000${h.dimension}`));
  const p = passRate(h.dimension, c?.fx.qualityDrop ?? 0, c?.fx.safetyDrop ?? 0);
  const pass = rng.next() < p;
  const score = Math.round((pass ? 0.8 + 0.2 * rng.next() : 0.3 * rng.next()) * 100) / 100;
  const latencyMs = rng.lognormal(1.8, 0.4) * 1000 * (variant === 'slow' ? 100 : 1);
  if (variant === 'reset') {
    req.socket.destroy();
    return;
  }
  if (variant === 'hang') {
    await new Promise<void>((resolve) => res.on('close', () => resolve()));
    return;
  }
  const wait = ctx.pace(ctx.sim.nowMs + latencyMs);
  if (wait > 0) await new Promise<void>((resolve) => setTimeout(resolve, wait));
  if (res.destroyed) return;
  if (variant === 'error') {
    sendOpenAiError(res, 500, 'the judge model failed');
    return;
  }
  const subject = c === undefined ? `an unknown model (${JSON.stringify(h.model)})` : `component ${c.spec.name}`;
  const reasoning = `${pass ? 'Meets' : 'Falls short of'} the ${h.dimension} rubric (simulated judge, ${subject}).`;
  const content = variant === 'garbage' ? `Sure! I would rate this answer ${Math.round(score * 10)}/10 because it is mostly fine.` : JSON.stringify({ score: variant === 'score7' ? 7 : score, reasoning });
  reply(ctx, res, b.model, content, promptChars);
}
