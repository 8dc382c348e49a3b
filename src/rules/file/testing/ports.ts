import type { RuleFilePorts } from '../validate.js';

/**
 * Ports for tests of rule-file validation without `src/promql` or the template engine: an
 * expression containing `BAD` or an unbalanced `(` fails with a parser-like message, and a
 * template with an action that is never closed fails with Go's wording.
 */
export const testPorts: RuleFilePorts = {
  parseExpr(text) {
    if (text.includes('BAD')) return `1:${text.indexOf('BAD') + 1}: parse error: unexpected identifier "BAD"`;
    let depth = 0;
    for (const c of text) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    return depth === 0 ? undefined : `1:${text.length + 1}: parse error: unclosed left parenthesis`;
  },
  checkTemplate(name, text) {
    const open = text.lastIndexOf('{{');
    return open >= 0 && text.indexOf('}}', open) < 0 ? `template: ${name}:1: unclosed action` : undefined;
  },
};
