/**
 * The URL of a request from its request target. `new URL(target, base)` reads a target that starts
 * with `//` as an authority (`//%2F` throws, `//evil/x` routes as `/x`), and a throw in a request
 * listener ends the process; so the target is always appended to a fixed origin as a path.
 */
import type http from 'node:http';

const ORIGIN = 'http://localhost';

/**
 * The request's URL with its path exactly as sent (absolute-form targets keep their path, query
 * and fragment), or null when even that does not parse: answer 400.
 */
export function requestUrl(req: Pick<http.IncomingMessage, 'url'>): URL | null {
  const target = req.url ?? '/';
  try {
    if (/^https?:\/\//i.test(target)) {
      const abs = new URL(target);
      return new URL(ORIGIN + abs.pathname + abs.search);
    }
    return new URL(ORIGIN + (target.startsWith('/') ? target : `/${target}`));
  } catch {
    return null;
  }
}
