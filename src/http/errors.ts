import { codesOf, type ErrorRegistry } from '../model/index.js';

/**
 * The registry of the HTTP leaf's stable error codes. docs/errors.md is generated from it.
 */
export const HTTP_ERRORS = {
  WEB_CONFIG: {
    code: 'ERR_WEB_CONFIG',
    meaning:
      'The `--web.config.file` or `--web.tokens.file` is invalid; the message names the file and field ([security.md](security.md)).',
    status: null,
    errorType: null,
    note: 'The command exits 1; a reload (`POST /-/reload`, SIGHUP) keeps the old files and answers 500.',
  },
} as const satisfies ErrorRegistry;

/** The codes of `HTTP_ERRORS` by key. */
export const HttpErrorCode = codesOf(HTTP_ERRORS);
