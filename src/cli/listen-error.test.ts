import { describe, expect, it } from 'vitest';
import { ListenError, listenError, rethrowListenError } from './listen-error.js';

/** An error as Node's `server.listen` rejects with it. */
const listenFailure = (code: string, port: number): Error => Object.assign(new Error(`listen ${code}`), { code, syscall: 'listen', address: '127.0.0.1', port });

describe('listenError', () => {
  it.each<[string, Error, Record<string, string | undefined>, string | undefined]>([
    ['the flag whose port failed', listenFailure('EADDRINUSE', 9310), { '--listen': '127.0.0.1:9300', '--gateway.listen': '127.0.0.1:9310' }, 'cannot listen on 127.0.0.1:9310 (--gateway.listen): address already in use (another process listens there); choose another with --gateway.listen HOST:PORT'],
    ['every flag on that port', listenFailure('EADDRINUSE', 9300), { '--listen': ':9300', '--otlp.listen': '127.0.0.1:9300' }, 'cannot listen on :9300 (--listen, --otlp.listen): address already in use (another process listens there); choose another with --listen HOST:PORT'],
    ['a setting in a file, without a flag hint', listenFailure('EADDRINUSE', 9310), { "'listen' in gw.yml": '127.0.0.1:9310' }, "cannot listen on 127.0.0.1:9310 ('listen' in gw.yml): address already in use (another process listens there)"],
    ['a privileged port', listenFailure('EACCES', 80), { '--listen': ':80' }, 'cannot listen on :80 (--listen): permission denied (ports below 1024 need privileges); choose another with --listen HOST:PORT'],
    ['no matching flag: the address alone', listenFailure('EADDRNOTAVAIL', 9300), { '--listen': '10.9.9.9:0' }, 'cannot listen on 127.0.0.1:9300: address not available on this machine'],
    ['not a listen failure', Object.assign(new Error('EADDRINUSE'), { code: 'EADDRINUSE', syscall: 'connect', port: 9300 }), { '--listen': ':9300' }, undefined],
    ['another listen error code', listenFailure('EMFILE', 9300), { '--listen': ':9300' }, undefined],
  ])('%s', (_what, err, flags, want) => {
    expect(listenError(err, flags)?.message).toBe(want);
  });

  it('rethrowListenError passes other errors through unchanged', () => {
    const other = new Error('store is corrupt');
    expect(() => rethrowListenError({ '--listen': ':9300' })(other)).toThrow(other);
    expect(() => rethrowListenError({ '--listen': ':9300' })(listenFailure('EADDRINUSE', 9300))).toThrow(ListenError);
  });
});
