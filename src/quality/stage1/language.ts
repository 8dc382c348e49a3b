/**
 * A small language detector for the answer-language check: the dominant script first (Han, kana,
 * Hangul, Cyrillic, Arabic, Hebrew, Greek, Devanagari, Thai), then, for Latin text, stop-word
 * counts for English, German, French, Spanish, Italian, Portuguese and Dutch. It reads at most
 * `LANGUAGE_SCAN_CHARS` characters and answers `und` (undetermined) when the evidence is thin,
 * so that a short or code-only text never raises a mismatch. Why not an npm package: see
 * docs/design/quality-eval.md.
 */
import { foldCase, isWordUnit } from './text.js';

/** How much of a text is read. */
export const LANGUAGE_SCAN_CHARS = 4096;

/** Stop words per Latin-script language (frequent, short, and rare in the other languages listed). */
const STOP_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ['the', 'and', 'is', 'are', 'of', 'to', 'in', 'that', 'it', 'with', 'for', 'this', 'you', 'was', 'be', 'have', 'not', 'what', 'how', 'can', 'which', 'from', 'they', 'will', 'would', 'there', 'their', 'an', 'on', 'at', 'by'],
  de: ['der', 'die', 'und', 'ist', 'nicht', 'das', 'ein', 'eine', 'ich', 'sie', 'mit', 'auf', 'für', 'sich', 'auch', 'wie', 'dem', 'den', 'zu', 'von', 'wir', 'oder', 'aber', 'wird', 'sind', 'noch', 'kann', 'werden'],
  fr: ['le', 'la', 'les', 'et', 'est', 'des', 'une', 'un', 'du', 'que', 'qui', 'dans', 'pour', 'pas', 'sur', 'au', 'avec', 'ce', 'sont', 'mais', 'nous', 'vous', 'je', 'il', 'elle', 'ne', 'aux', 'cette', 'être'],
  es: ['el', 'los', 'las', 'es', 'del', 'que', 'por', 'para', 'una', 'con', 'no', 'se', 'su', 'lo', 'como', 'más', 'pero', 'sus', 'le', 'ya', 'muy', 'también', 'y', 'está', 'son', 'hay', 'cuando'],
  it: ['il', 'di', 'che', 'è', 'per', 'una', 'non', 'sono', 'della', 'con', 'gli', 'del', 'nel', 'alla', 'anche', 'come', 'più', 'questo', 'ma', 'dei', 'lo', 'ha', 'essere', 'molto'],
  pt: ['o', 'os', 'as', 'que', 'não', 'uma', 'um', 'do', 'da', 'em', 'para', 'com', 'é', 'dos', 'das', 'por', 'mais', 'como', 'mas', 'ao', 'você', 'ele', 'isso', 'são', 'também', 'muito'],
  nl: ['de', 'het', 'een', 'en', 'van', 'ik', 'je', 'dat', 'niet', 'zijn', 'op', 'te', 'met', 'voor', 'ook', 'maar', 'wat', 'bij', 'dit', 'nog', 'naar', 'wordt', 'kan', 'heeft', 'hoe', 'zijn'],
};

const WORD_LANGS = new Map<string, string[]>();
for (const [lang, words] of Object.entries(STOP_WORDS)) for (const w of words) WORD_LANGS.set(w, [...(WORD_LANGS.get(w) ?? []), lang]);

/** A detected language: an ISO 639-1 code or `und`, and the share of evidence behind it (0..1). */
export interface DetectedLanguage {
  readonly lang: string;
  readonly confidence: number;
}

// Scripts by index, so that counting is an array increment per letter (no Map per character).
const LATIN = 0;
const KANA = 1;
const HAN = 2;
const SCRIPT_LANG = ['', 'ja', 'zh', 'ko', 'ru', 'ar', 'he', 'el', 'hi', 'th'];
const NO_SCRIPT = -1;

function scriptOf(c: number): number {
  if (c < 0x80) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? LATIN : NO_SCRIPT;
  if (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) return LATIN;
  if (c >= 0x370 && c <= 0x3ff) return 7; // Greek
  if (c >= 0x400 && c <= 0x52f) return 4; // Cyrillic
  if (c >= 0x590 && c <= 0x5ff) return 6; // Hebrew
  if ((c >= 0x600 && c <= 0x6ff) || (c >= 0x750 && c <= 0x77f)) return 5; // Arabic
  if (c >= 0x900 && c <= 0x97f) return 8; // Devanagari
  if (c >= 0xe00 && c <= 0xe7f) return 9; // Thai
  if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x31f0 && c <= 0x31ff)) return KANA;
  if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf)) return HAN;
  if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff)) return 3; // Hangul
  if (c >= 0x1e00 && c <= 0x1eff) return LATIN;
  return NO_SCRIPT;
}

/** Letters needed before a script decides, and stop words before a Latin language does. */
const MIN_LETTERS = 12;
const MIN_STOP_WORDS = 3;
const ENOUGH_STOP_WORDS = 40;

/** Detects the language of `text` (its first `LANGUAGE_SCAN_CHARS` characters). */
export function detectLanguage(text: string): DetectedLanguage {
  const head = text.length > LANGUAGE_SCAN_CHARS ? text.slice(0, LANGUAGE_SCAN_CHARS) : text;
  const counts = new Int32Array(SCRIPT_LANG.length);
  let letters = 0;
  for (let i = 0; i < head.length; i++) {
    const sc = scriptOf(head.charCodeAt(i));
    if (sc === NO_SCRIPT) continue;
    letters++;
    counts[sc]++;
  }
  if (letters < MIN_LETTERS) return { lang: 'und', confidence: 0 };
  // Japanese mixes kana with Han: any real share of kana makes Han text Japanese.
  if (counts[KANA] > 0 && counts[KANA] >= letters * 0.1) counts[KANA] += counts[HAN];
  let top = LATIN;
  for (let sc = 1; sc < counts.length; sc++) if (counts[sc] > counts[top]) top = sc;
  if (top !== LATIN) {
    const share = Math.min(1, counts[top] / letters);
    return share >= 0.5 ? { lang: SCRIPT_LANG[top], confidence: share } : { lang: 'und', confidence: share };
  }
  return latinLanguage(head);
}

/** Votes of stop words over the words of a Latin-script text. */
function latinLanguage(text: string): DetectedLanguage {
  const folded = foldCase(text);
  const votes = new Map<string, number>();
  let total = 0;
  let i = 0;
  while (i < folded.length) {
    if (!isWordUnit(folded.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i;
    while (j < folded.length && isWordUnit(folded.charCodeAt(j))) j++;
    const langs = j - i <= 8 ? WORD_LANGS.get(folded.slice(i, j)) : undefined;
    if (langs !== undefined) {
      // A word shared by several languages (`de`, `que`) gives each a share of one vote.
      for (const l of langs) votes.set(l, (votes.get(l) ?? 0) + 1 / langs.length);
      total++;
      // Forty stop words decide a language; reading on would only cost time.
      if (total >= ENOUGH_STOP_WORDS) break;
    }
    i = j;
  }
  let best = 'und';
  let bestN = 0;
  for (const [l, n] of votes) if (n > bestN) [best, bestN] = [l, n];
  if (total < MIN_STOP_WORDS || bestN < MIN_STOP_WORDS * 0.75) return { lang: 'und', confidence: 0 };
  return { lang: best, confidence: bestN / total };
}

/**
 * Whether the answer is in another language than the prompt: both detected with confidence of
 * at least `minConfidence`, and different. Undetermined on either side is never a mismatch.
 */
export function languageMismatch(prompt: string, response: string, minConfidence = 0.5): { readonly mismatch: boolean; readonly prompt: DetectedLanguage; readonly response: DetectedLanguage } {
  const p = detectLanguage(prompt);
  const r = detectLanguage(response);
  const sure = p.lang !== 'und' && r.lang !== 'und' && p.confidence >= minConfidence && r.confidence >= minConfidence;
  return { mismatch: sure && p.lang !== r.lang, prompt: p, response: r };
}
