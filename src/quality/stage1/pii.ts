/**
 * PII patterns found by plain scans (no regular expression over the input): e-mail addresses,
 * phone numbers, payment card numbers (Luhn-checked), US social security numbers, IPv4
 * addresses and the shapes of well-known API keys and private keys. Each scan visits every
 * character a bounded number of times. Findings are reported by kind and count, never by value:
 * the detail is stored, and must not repeat what it found.
 */
import { isAsciiAlnum, isDigit } from './text.js';

/** The kinds of PII the scan reports. */
export const PII_KINDS = ['email', 'phone', 'card', 'ssn', 'ipv4', 'api_key', 'private_key'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

/** Counts per kind (kinds not found are absent). */
export type PiiFindings = Partial<Record<PiiKind, number>>;

const isLocal = (c: number): boolean => isAsciiAlnum(c) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45; // . _ % + -
const isDomain = (c: number): boolean => isAsciiAlnum(c) || c === 46 || c === 45;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** E-mail addresses: a local part, `@`, and a dotted domain ending in a TLD of two or more letters. */
function emails(text: string): number {
  let n = 0;
  // Local parts and domains hold no `@`: each scan stops at the neighbouring `@`, so every
  // character is visited at most twice over the whole text.
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let l = at;
    while (l > 0 && at - l < 64 && isLocal(text.charCodeAt(l - 1))) l--;
    if (l === at) continue;
    let r = at + 1;
    while (r < text.length && r - at < 254 && isDomain(text.charCodeAt(r))) r++;
    while (r > at + 1 && text.charCodeAt(r - 1) === 46) r--; // a sentence's full stop
    const domain = text.slice(at + 1, r);
    const dot = domain.lastIndexOf('.');
    if (dot <= 0) continue;
    const tld = domain.slice(dot + 1);
    let letters = tld.length >= 2;
    for (let i = 0; letters && i < tld.length; i++) letters = isLetter(tld.charCodeAt(i));
    if (letters) n++;
  }
  return n;
}

/** Whether a digit string passes the Luhn check (payment cards). */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** One run of digits with separators: its digit groups and the separators between them. */
interface NumberRun {
  readonly plus: boolean;
  readonly paren: boolean;
  readonly groups: readonly string[];
  readonly seps: string;
}

const SEPS = new Set([32, 45, 46, 40, 41]); // space - . ( )
const MAX_RUN_UNITS = 64;

/** Classifies a run: at most one kind per run, null for none. */
function classify(run: NumberRun): PiiKind | null {
  const g = run.groups;
  const lens = g.map((x) => x.length).join(',');
  const digits = g.join('');
  const seps = run.seps;
  const uniform = (ch: string): boolean => seps.length > 0 && seps.replaceAll(ch, '') === '';
  if (g.length === 4 && uniform('.') && !run.plus && !run.paren && g.every((x) => x.length <= 3 && Number(x) <= 255)) return 'ipv4';
  if (lens === '3,2,4' && uniform('-') && !run.plus) {
    const area = Number(g[0]);
    if (area !== 0 && area !== 666 && area < 900 && g[1] !== '00' && g[2] !== '0000') return 'ssn';
  }
  const cardGroups = g.length === 1 || ((uniform(' ') || uniform('-')) && (g.slice(0, -1).every((x) => x.length === 4) || lens === '4,6,5' || lens === '4,6,4'));
  if (digits.length >= 13 && digits.length <= 19 && !run.plus && !run.paren && cardGroups && luhn(digits)) return 'card';
  if (run.plus && digits.length >= 8 && digits.length <= 15 && g[0].length <= 3) return 'phone';
  if (!run.plus && (lens === '3,3,4' || lens === '1,3,3,4') && (run.paren || seps.length > 0)) return 'phone';
  return null;
}

/** Scans every run of digits and separators once. */
function numbers(text: string, found: PiiFindings): void {
  let i = 0;
  const len = text.length;
  while (i < len) {
    const c = text.charCodeAt(i);
    const starts = isDigit(c) || ((c === 43 || c === 40) && i + 1 < len && isDigit(text.charCodeAt(i + 1)));
    // A run glued to a word (`v1.2.3.4`, `id123`) is an identifier, not a number.
    if (!starts || (i > 0 && (isAsciiAlnum(text.charCodeAt(i - 1)) || text.charCodeAt(i - 1) === 46 || text.charCodeAt(i - 1) === 95))) {
      i++;
      continue;
    }
    const groups: string[] = [];
    let seps = '';
    const plus = c === 43;
    const paren = c === 40 || text.charCodeAt(i + 1) === 40;
    let j = plus ? i + 1 : i;
    let cur = j;
    let units = 0;
    let lastSep = -1;
    let digitEnd = j;
    while (j < len && units < MAX_RUN_UNITS) {
      const d = text.charCodeAt(j);
      if (isDigit(d)) {
        j++;
        digitEnd = j;
      } else if (SEPS.has(d) && lastSep !== j - 1) {
        if (j > cur) groups.push(text.slice(cur, j));
        if (d !== 40 && d !== 41) seps += String.fromCharCode(d);
        lastSep = j;
        j++;
        cur = j;
        // `(555) 123`: a bracket and a space in a row are one separator.
        if (d === 41 && text.charCodeAt(j) === 32) {
          j++;
          cur = j;
        }
      } else break;
      units++;
    }
    if (j > cur) groups.push(text.slice(cur, j));
    // A separator at the run's end belongs to the sentence.
    if (seps.length > 0 && lastSep === j - 1) seps = seps.slice(0, -1);
    // Glued to a following word (`555-1234abc`) it is an identifier too.
    const next = digitEnd < len ? text.charCodeAt(digitEnd) : 0;
    const kind = units < MAX_RUN_UNITS && !isLetter(next) && next !== 95 && groups.length > 0 ? classify({ plus, paren, groups, seps: seps.slice(0, Math.max(0, groups.length - 1)) }) : null;
    if (kind !== null) found[kind] = (found[kind] ?? 0) + 1;
    // Skip the rest of an over-long run without classifying it.
    while (j < len && (isDigit(text.charCodeAt(j)) || SEPS.has(text.charCodeAt(j)))) j++;
    i = Math.max(j, i + 1);
  }
}

const KEY_PREFIXES: readonly (readonly [string, number])[] = [
  ['sk-', 20], // OpenAI (sk-…, sk-proj-…), Anthropic (sk-ant-…)
  ['sk_live_', 16], // Stripe
  ['rk_live_', 16],
  ['pk_live_', 16],
  ['AKIA', 16], // AWS access key ids
  ['ASIA', 16],
  ['ghp_', 30], // GitHub tokens
  ['gho_', 30],
  ['ghs_', 30],
  ['ghu_', 30],
  ['github_pat_', 30],
  ['glpat-', 20], // GitLab
  ['xoxb-', 20], // Slack
  ['xoxp-', 20],
  ['AIza', 30], // Google API keys
  ['hf_', 30], // Hugging Face
];

const isKeyUnit = (c: number): boolean => isAsciiAlnum(c) || c === 95 || c === 45;

/** Tokens of key characters that start with a known prefix and are long enough to be a key. */
function apiKeys(text: string): number {
  let n = 0;
  let i = 0;
  while (i < text.length) {
    if (!isKeyUnit(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && isKeyUnit(text.charCodeAt(j))) j++;
    for (const [prefix, min] of KEY_PREFIXES) {
      if (j - i >= prefix.length + min && text.startsWith(prefix, i)) {
        n++;
        break;
      }
    }
    i = j;
  }
  return n;
}

/** Every PII kind found in `text`, with counts. */
export function findPii(text: string): PiiFindings {
  const found: PiiFindings = {};
  const e = emails(text);
  if (e > 0) found.email = e;
  numbers(text, found);
  const k = apiKeys(text);
  if (k > 0) found.api_key = k;
  if (text.includes('-----BEGIN ') && text.includes('PRIVATE KEY-----')) found.private_key = 1;
  return found;
}
