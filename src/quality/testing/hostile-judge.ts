/**
 * A tiny OpenAI-compatible judge server for tests, on loopback, whose behaviour the test sets per
 * request: a good verdict, garbage, a score on the wrong scale, a 500, a dropped connection, an
 * answer without usage, or no answer at all (until the client gives up). It records the bodies
 * it received.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server does with the next requests. */
export type HostileMode = 'ok' | 'garbage' | 'score7' | 'http500' | 'reset' | 'hang' | 'no-usage' | 'not-json-body' | 'no-choices';

/** A running hostile judge. */
export interface HostileJudge {
  /** The base URL, `/v1` included. */
  readonly baseURL: string;
  mode: HostileMode;
  /** The score an `ok` answer carries. */
  score: number;
  /** The request bodies received, parsed. */
  readonly bodies: unknown[];
  /** Requests still waiting for an answer (`hang`). */
  readonly hanging: number;
  close(): Promise<void>;
}

/** Starts a hostile judge on 127.0.0.1 with a free port. */
export async function startHostileJudge(): Promise<HostileJudge> {
  let hanging = 0;
  const state = { mode: 'ok' as HostileMode, score: 0.75, bodies: [] as unknown[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        state.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        state.bodies.push(null);
      }
      const send = (status: number, body: string): void => {
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      };
      const completion = (content: string, usage = true): string =>
        JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'j', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], ...(usage ? { usage: { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 } } : {}) });
      switch (state.mode) {
        case 'ok':
          send(200, completion(JSON.stringify({ score: state.score, reasoning: 'fine' })));
          return;
        case 'no-usage':
          send(200, completion(JSON.stringify({ score: state.score, reasoning: 'fine' }), false));
          return;
        case 'garbage':
          send(200, completion('Great answer, 9/10!'));
          return;
        case 'score7':
          send(200, completion('{"score": 7, "reasoning": "good"}'));
          return;
        case 'http500':
          send(500, JSON.stringify({ error: { message: 'boom', type: 'InternalServerError', code: 500 } }));
          return;
        case 'not-json-body':
          send(200, '<html>oops</html>');
          return;
        case 'no-choices':
          send(200, '{"id":"x"}');
          return;
        case 'reset':
          req.socket.destroy();
          return;
        case 'hang':
          hanging++;
          res.on('close', () => hanging--);
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get mode() {
      return state.mode;
    },
    set mode(m: HostileMode) {
      state.mode = m;
    },
    get score() {
      return state.score;
    },
    set score(s: number) {
      state.score = s;
    },
    bodies: state.bodies,
    get hanging() {
      return hanging;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
