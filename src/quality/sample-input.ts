/**
 * What the pipeline takes in: a structural copy of the gateway's `GatewaySample`
 * (src/gateway/sampling.ts), declared here because quality may not import the gateway; the
 * server hands gateway samples straight in. `toSampledPair` turns one into the pair the store
 * keeps: the prompt as text from the chat messages (or a completion prompt), `wantJson` from
 * `response_format`, identity from the replica's labels, and redaction applied to both texts
 * before anything is stored.
 */
import type { UnixMs } from '../model/index.js';
import type { SampledPair } from './types.js';

/** One sampled request, as the gateway's `SampleSink` receives it. */
export interface SampleInput {
  readonly tMs: UnixMs;
  readonly model: string;
  readonly stream: boolean;
  readonly status: number;
  /** The replica's identity labels (empty when the request reached none). */
  readonly labels: Readonly<Record<string, string>>;
  /** The request body (strings already redacted and capped by the gateway). */
  readonly request: unknown;
  readonly response: { readonly text: string; readonly finishReasons: readonly string[]; readonly error: string | null };
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number; readonly estimated: boolean } | null;
  /** Seconds; null where not applicable. */
  readonly timings: { readonly ttftS: number | null; readonly e2eS: number; readonly modelS: number | null; readonly overheadS: number | null; readonly chunks: number; readonly meanItlS: number | null };
}

/** The text of a message's `content`: a string, or the `text` of its parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const out: string[] = [];
  for (const part of content as unknown[]) {
    const text = (part as { text?: unknown } | null)?.text;
    if (typeof text === 'string') out.push(text);
  }
  return out.join('\n');
}

/** The prompt as text: chat messages as `role: content` lines, or a completion's prompt. */
export function promptText(request: unknown): string {
  if (typeof request !== 'object' || request === null) return '';
  const r = request as { messages?: unknown; prompt?: unknown };
  if (Array.isArray(r.messages)) {
    const lines: string[] = [];
    for (const m of r.messages as unknown[]) {
      const role = (m as { role?: unknown } | null)?.role;
      lines.push(`${typeof role === 'string' ? role : 'user'}: ${contentText((m as { content?: unknown } | null)?.content)}`);
    }
    return lines.join('\n');
  }
  if (typeof r.prompt === 'string') return r.prompt;
  if (Array.isArray(r.prompt)) return (r.prompt as unknown[]).filter((p): p is string => typeof p === 'string').join('\n');
  return '';
}

/** Whether the request asked for JSON output (`response_format` of type `json_object` or `json_schema`). */
export function wantsJson(request: unknown): boolean {
  const type = (request as { response_format?: { type?: unknown } } | null)?.response_format?.type;
  return type === 'json_object' || type === 'json_schema';
}

/** The pair the store keeps for `s`, with `id` and both texts passed through `redact`. */
export function toSampledPair(s: SampleInput, id: string, redact: (text: string) => string): SampledPair {
  const labels = s.labels;
  return {
    id,
    tMs: s.tMs,
    endpoint: labels.endpoint ?? '',
    component: labels.component ?? s.model,
    model: labels.model ?? s.model,
    prompt: redact(promptText(s.request)),
    response: redact(s.response.text),
    status: s.status,
    finishReason: s.response.finishReasons[0] ?? null,
    promptTokens: s.usage?.promptTokens ?? null,
    completionTokens: s.usage?.completionTokens ?? null,
    wantJson: wantsJson(s.request),
    ttftS: s.timings.ttftS,
    e2eS: s.timings.e2eS,
  };
}
