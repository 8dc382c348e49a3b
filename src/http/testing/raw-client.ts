/**
 * A raw HTTP client for tests of body reading: it writes exactly what it is told (a head, a body
 * in pieces, or nothing more) and collects the answer until the server closes the connection.
 */
import net from 'node:net';

/** A raw connection to `127.0.0.1:port`. */
export interface RawClient {
  write(s: string): void;
  destroy(): void;
  /** Everything the server sent, once the connection closed. */
  readonly answer: Promise<string>;
}

/** Opens a raw connection to `127.0.0.1:port`. */
export function rawClient(port: number): RawClient {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString()));
  const answer = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
  return { write: (s) => socket.write(s), destroy: () => socket.destroy(), answer };
}
