/**
 * The blocklist: configured words and phrases, matched whole-word and case-insensitively. Words
 * are looked up in a set while the answer is walked once; a phrase (an entry with spaces) is
 * searched with `indexOf` and kept only where it stands between word boundaries.
 */
import { foldCase, isWordUnit } from './text.js';

/** A compiled blocklist: `find` returns the entries found (each once, in list order). */
export interface Blocklist {
  readonly size: number;
  find(text: string): string[];
}

/** Compiles `entries` (blank ones are ignored). */
export function compileBlocklist(entries: readonly string[]): Blocklist {
  const words = new Set<string>();
  const phrases: string[] = [];
  const order = new Map<string, number>();
  let longest = 0;
  for (const raw of entries) {
    const e = foldCase(raw.trim()).replace(/\s+/gu, ' ');
    if (e === '' || order.has(e)) continue;
    order.set(e, order.size);
    let word = true;
    for (let i = 0; i < e.length && word; i++) word = isWordUnit(e.charCodeAt(i));
    if (word) {
      words.add(e);
      longest = Math.max(longest, e.length);
    }
    else phrases.push(e);
  }
  return {
    size: order.size,
    find(text: string): string[] {
      if (order.size === 0) return [];
      const folded = foldCase(text);
      const hits = new Set<string>();
      if (words.size > 0) {
        let i = 0;
        while (i < folded.length) {
          if (!isWordUnit(folded.charCodeAt(i))) {
            i++;
            continue;
          }
          let j = i;
          while (j < folded.length && isWordUnit(folded.charCodeAt(j))) j++;
          // Only words that could be on the list are cut out and looked up.
          if (j - i <= longest) {
            const w = folded.slice(i, j);
            if (words.has(w)) hits.add(w);
          }
          i = j;
        }
      }
      for (const p of phrases) {
        const edgeStart = isWordUnit(p.charCodeAt(0));
        const edgeEnd = isWordUnit(p.charCodeAt(p.length - 1));
        for (let at = folded.indexOf(p); at >= 0; at = folded.indexOf(p, at + 1)) {
          const before = at > 0 && edgeStart && isWordUnit(folded.charCodeAt(at - 1));
          const after = at + p.length < folded.length && edgeEnd && isWordUnit(folded.charCodeAt(at + p.length));
          if (!before && !after) {
            hits.add(p);
            break;
          }
        }
      }
      return [...hits].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    },
  };
}
