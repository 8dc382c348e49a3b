/**
 * A bound on YAML nesting found before parsing. The `yaml` package recurses once per level, so a
 * hostile document thousands of levels deep can exhaust the stack (or V8's regexp memory) inside
 * the parser; every YAML reader of the product (configuration files, rule files, SLO files)
 * refuses such a document first, with a clear error.
 */

/** The deepest nesting Infersight reads (Prometheus' own files stay far below it). */
export const MAX_YAML_DEPTH = 100;

/**
 * An upper bound of the document's nesting, found without parsing so that a hostile document is
 * refused before the YAML parser (which recurses per level) sees it: block levels are the distinct
 * indentation widths open at a line (as Python's tokenizer counts them) plus its leading `- `
 * entries, flow levels are the `[` and `{` open outside quotes and comments.
 */
export function yamlNestingDepth(text: string): number {
  const indents: number[] = [];
  let flow = 0;
  let max = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    // At the start of a line outside quotes: measure the indentation and the `- ` entries.
    if (quote === '' && (i === 0 || text[i - 1] === '\n')) {
      let w = 0;
      while (text[i + w] === ' ') w++;
      const next = text[i + w];
      if (next !== '\n' && next !== '#' && next !== undefined && flow === 0) {
        while (indents.length > 0 && indents[indents.length - 1] >= w) indents.pop();
        indents.push(w);
        let dashes = 0;
        let j = i + w;
        while (text[j] === '-' && (text[j + 1] === ' ' || text[j + 1] === '\n')) {
          dashes++;
          j += 2;
          while (text[j] === ' ') j++;
        }
        max = Math.max(max, indents.length + dashes);
        i = j;
      } else i += w;
      if (i >= text.length) break;
    }
    const c = text[i];
    if (quote !== '') {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl - 1;
    } else if (c === '"' || (c === "'" && (i === 0 || /[\s[{,:]/.test(text[i - 1])))) quote = c;
    else if (c === '[' || c === '{') max = Math.max(max, indents.length + ++flow);
    else if ((c === ']' || c === '}') && flow > 0) flow--;
  }
  return max;
}
