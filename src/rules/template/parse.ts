/**
 * The parser of Go's `text/template` (Go 1.19): the token stream of lex.ts into the trees of
 * nodes.ts, one per template name (`define` and `block` add more). Errors are Go's, word for
 * word: `template: NAME:LINE: MESSAGE`.
 */
import { goQuote, parseGoFloat } from '../../model/index.js';
import { itemString, lex, type Item, type ItemType } from './lex.js';
import { nodeString, type ArgNode, type BranchNode, type CommandNode, type ListNode, type Node, type NumberNode, type PipeNode } from './nodes.js';

/** A parse failure; `message` is Go's whole text (`template: x:1: unclosed action`). */
export class TemplateParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateParseError';
  }
}

/** The parsed templates by name; the main one has the name given to `parseTemplates`. */
export type TreeSet = Map<string, ListNode>;

type EndNode = { readonly type: 'end' | 'else'; readonly pos: number };
const isEnd = (n: Node | EndNode): n is EndNode => n.type === 'end' || n.type === 'else';

/** Go's `strconv.Unquote` for "…", `…` and '…' literals; undefined for invalid syntax. */
export function goUnquote(s: string): string | undefined {
  if (s.length < 2) return undefined;
  const q = s[0];
  if (q !== s[s.length - 1]) return undefined;
  const body = s.slice(1, -1);
  if (q === '`') return body.includes('`') ? undefined : body.replaceAll('\r', '');
  if (q !== '"' && q !== "'") return undefined;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === q || c === '\n') return undefined;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
    if (e in simple) out += simple[e];
    else if (e === q) out += q;
    else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) return undefined;
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff || (e !== 'x' && cp >= 0xd800 && cp < 0xe000)) return undefined;
      out += String.fromCodePoint(cp);
      i += n;
    } else if (e >= '0' && e <= '7') {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) return undefined;
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else return undefined;
  }
  if (q === "'" && Array.from(out).length !== 1) return undefined;
  return out;
}

/** Go's `strconv.ParseInt(s, 0, 64)` (prefixes, underscores), as a float; undefined on error. */
function parseGoInt(text: string): number | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(text);
  if (!m) return undefined;
  const body = m[2];
  if (body.includes('_') && !/^(0[xXoObB]?_?)?[0-9a-fA-F]+(_[0-9a-fA-F]+)*$/.test(body)) return undefined;
  const clean = body.replaceAll('_', '');
  let v: bigint;
  if (/^0[xXoObB]/.test(clean)) v = BigInt(clean.toLowerCase());
  else if (clean.length > 1 && clean[0] === '0') v = BigInt(`0o${clean.slice(1)}`);
  else v = BigInt(clean);
  if (m[1] === '-') v = -v;
  if (v > 9223372036854775807n || v < -9223372036854775808n) return undefined;
  return Number(v);
}

function numberNode(pos: number, text: string, typ: ItemType): NumberNode | string {
  const base = { type: 'number' as const, pos, text, isUint: false, isComplex: false };
  if (typ === 'charConstant') {
    const s = goUnquote(text);
    if (s === undefined) {
      // Go decodes one character and then expects the closing quote.
      const first = goUnquote(`'${text.slice(1, text[1] === '\\' ? 3 : 2)}'`);
      return first !== undefined && text.length > 3 ? `malformed character constant: ${text}` : 'invalid syntax';
    }
    const cp = s.codePointAt(0) ?? 0;
    return { ...base, isInt: true, isUint: true, isFloat: true, int: cp, float: cp };
  }
  if (typ === 'complex' || text.endsWith('i')) return { ...base, isComplex: true, isInt: false, isFloat: false, int: 0, float: 0 };
  const i = parseGoInt(text);
  if (i !== undefined) return { ...base, isInt: true, isUint: i >= 0, isFloat: true, int: i, float: i };
  const f = parseGoFloat(text);
  if (f !== undefined && !(text.startsWith('0') && /^[0-9]+$/.test(text))) {
    if (!/[.eEpP]/.test(text)) return `integer overflow: "${text}"`;
    const isInt = Number.isInteger(f) && Math.abs(f) < 2 ** 63;
    return { ...base, isInt, isUint: isInt && f >= 0, isFloat: true, int: isInt ? f : 0, float: f };
  }
  return `illegal number syntax: "${text}"`;
}

/**
 * Parses `text` as the template `name`; `funcs` says which function names exist (calling an
 * unknown one is a parse error, as in Go). Throws `TemplateParseError`.
 */
export function parseTemplates(name: string, text: string, funcs: ReadonlySet<string>): TreeSet {
  const items = lex(text, !funcs.has('break'), !funcs.has('continue'));
  const trees: TreeSet = new Map();
  let next = 0;
  const token: Item[] = [];
  let peekCount = 0;
  let vars: string[] = ['$'];
  let rangeDepth = 0;
  let actionLine = 0;

  const fail = (msg: string): never => {
    throw new TemplateParseError(`template: ${name}:${token[0]?.line ?? 1}: ${msg}`);
  };
  const nextItem = (): Item => {
    if (peekCount > 0) peekCount--;
    else token[0] = items[Math.min(next++, items.length - 1)];
    return token[peekCount];
  };
  const backup = (): void => {
    peekCount++;
  };
  const backup2 = (t1: Item): void => {
    token[1] = t1;
    peekCount = 2;
  };
  const backup3 = (t2: Item, t1: Item): void => {
    token[1] = t1;
    token[2] = t2;
    peekCount = 3;
  };
  const peek = (): Item => {
    if (peekCount > 0) return token[peekCount - 1];
    peekCount = 1;
    token[0] = items[Math.min(next++, items.length - 1)];
    return token[0];
  };
  const nextNonSpace = (): Item => {
    let t: Item;
    do t = nextItem();
    while (t.typ === 'space');
    return t;
  };
  const peekNonSpace = (): Item => {
    const t = nextNonSpace();
    backup();
    return t;
  };
  const unexpected = (t: Item, context: string): never => {
    if (t.typ === 'error') {
      let extra = '';
      if (actionLine !== 0 && actionLine !== t.line) {
        extra = ` in action started at ${name}:${actionLine}`;
        if (t.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      return fail(`${itemString(t)}${extra}`);
    }
    return fail(`unexpected ${itemString(t)} in ${context}`);
  };
  const expect = (typ: ItemType, context: string): Item => {
    const t = nextNonSpace();
    if (t.typ !== typ) unexpected(t, context);
    return t;
  };
  const isEmpty = (n: ListNode | undefined): boolean => n === undefined || n.nodes.every((c) => c.type === 'text' && c.text.trim() === '');
  const add = (treeName: string, root: ListNode): void => {
    const old = trees.get(treeName);
    if (old === undefined || isEmpty(old)) trees.set(treeName, root);
    else if (!isEmpty(root)) fail(`template: multiple definition of template "${treeName}"`);
  };

  const itemList = (): [ListNode, EndNode] => {
    const list: ListNode = { type: 'list', pos: peekNonSpace().pos, nodes: [] };
    while (peekNonSpace().typ !== 'eof') {
      const n = textOrAction();
      if (isEnd(n)) return [list, n];
      list.nodes.push(n);
    }
    return fail('unexpected EOF');
  };

  const textOrAction = (): Node | EndNode => {
    const t = nextNonSpace();
    if (t.typ === 'text') return { type: 'text', pos: t.pos, text: t.val };
    if (t.typ === 'leftDelim') {
      actionLine = t.line;
      try {
        return action();
      } finally {
        actionLine = 0;
      }
    }
    return unexpected(t, 'input');
  };

  const action = (): Node | EndNode => {
    const t = nextNonSpace();
    switch (t.typ) {
      case 'block':
        return blockControl();
      case 'break':
      case 'continue': {
        const after = nextNonSpace();
        if (after.typ !== 'rightDelim') unexpected(after, `{{${t.typ}}}`);
        if (rangeDepth === 0) fail(`{{${t.typ}}} outside {{range}}`);
        return { type: t.typ, pos: t.pos };
      }
      case 'else': {
        const p = peekNonSpace();
        if (p.typ === 'if') return { type: 'else', pos: p.pos };
        return { type: 'else', pos: expect('rightDelim', 'else').pos };
      }
      case 'end':
        return { type: 'end', pos: expect('rightDelim', 'end').pos };
      case 'if':
      case 'range':
      case 'with':
        return control(t.typ);
      case 'template': {
        const nameTok = nextNonSpace();
        const tmplName = templateName(nameTok, 'template clause');
        let pipe: PipeNode | undefined;
        if (nextNonSpace().typ !== 'rightDelim') {
          backup();
          pipe = pipeline('template clause', 'rightDelim');
        }
        return { type: 'template', pos: nameTok.pos, name: tmplName, pipe };
      }
    }
    backup();
    const first = peek();
    return { type: 'action', pos: first.pos, pipe: pipeline('command', 'rightDelim') };
  };

  const templateName = (t: Item, context: string): string => {
    if (t.typ !== 'string' && t.typ !== 'rawString') return unexpected(t, context);
    const s = goUnquote(t.val);
    return s ?? fail('invalid syntax');
  };

  const blockControl = (): Node => {
    const context = 'block clause';
    const t = nextNonSpace();
    const blockName = templateName(t, context);
    const pipe = pipeline(context, 'rightDelim');
    const saved = vars;
    vars = ['$'];
    const [root, end] = itemList();
    vars = saved;
    if (end.type !== 'end') fail(`unexpected {{${end.type}}} in ${context}`);
    add(blockName, root);
    return { type: 'template', pos: t.pos, name: blockName, pipe };
  };

  const control = (context: 'if' | 'range' | 'with'): BranchNode => {
    const depth = vars.length;
    try {
      const pipe = pipeline(context, 'rightDelim');
      if (context === 'range') rangeDepth++;
      const [list, end] = itemList();
      if (context === 'range') rangeDepth--;
      let elseList: ListNode | undefined;
      if (end.type === 'else') {
        if (context === 'if' && peek().typ === 'if') {
          nextItem();
          elseList = { type: 'list', pos: end.pos, nodes: [control('if')] };
        } else {
          const [l, e] = itemList();
          if (e.type !== 'end') fail(`expected end; found {{${e.type}}}`);
          elseList = l;
        }
      }
      return { type: context, pos: pipe.pos, pipe, list, elseList };
    } finally {
      vars = vars.slice(0, depth);
    }
  };

  const pipeline = (context: string, end: ItemType): PipeNode => {
    const pipe: PipeNode = { type: 'pipe', pos: peekNonSpace().pos, isAssign: false, decl: [], cmds: [] };
    for (;;) {
      const v = peekNonSpace();
      if (v.typ !== 'variable') break;
      nextItem();
      const after = peek();
      const nx = peekNonSpace();
      if (nx.typ === 'assign' || nx.typ === 'declare') {
        pipe.isAssign = nx.typ === 'assign';
        nextNonSpace();
        pipe.decl.push({ pos: v.pos, ident: v.val.split('.') });
        vars.push(v.val);
        break;
      }
      if (nx.typ === 'char' && nx.val === ',') {
        nextNonSpace();
        pipe.decl.push({ pos: v.pos, ident: v.val.split('.') });
        vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const p = peekNonSpace().typ;
          if (p === 'variable' || p === 'rightDelim' || p === 'rightParen') continue;
          fail('range can only initialize variables');
        }
        fail(`too many declarations in ${context}`);
      }
      if (after.typ === 'space') backup3(v, after);
      else backup2(v);
      break;
    }
    for (;;) {
      const t = nextNonSpace();
      if (t.typ === end) {
        if (pipe.cmds.length === 0) fail(`missing value for ${context}`);
        pipe.cmds.slice(1).forEach((c, i) => {
          if (['bool', 'dot', 'nil', 'number', 'string'].includes(c.args[0].type)) fail(`non executable command in pipeline stage ${i + 2}`);
        });
        return pipe;
      }
      switch (t.typ) {
        case 'bool':
        case 'charConstant':
        case 'complex':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          backup();
          pipe.cmds.push(command());
          continue;
        default:
          unexpected(t, context);
      }
    }
  };

  const command = (): CommandNode => {
    const cmd: CommandNode = { type: 'command', pos: peekNonSpace().pos, args: [] };
    for (;;) {
      peekNonSpace();
      const op = operand();
      if (op !== undefined) cmd.args.push(op);
      const t = nextItem();
      if (t.typ === 'space') continue;
      if (t.typ === 'rightDelim' || t.typ === 'rightParen') backup();
      else if (t.typ !== 'pipe') unexpected(t, 'operand');
      break;
    }
    if (cmd.args.length === 0) fail('empty command');
    return cmd;
  };

  const operand = (): ArgNode | undefined => {
    const node = term();
    if (node === undefined) return undefined;
    if (peek().typ !== 'field') return node;
    const pos = peek().pos;
    const fields: string[] = [];
    while (peek().typ === 'field') fields.push(nextItem().val.slice(1));
    switch (node.type) {
      case 'field':
        return { type: 'field', pos, ident: [...node.ident, ...fields] };
      case 'variable':
        return { type: 'variable', pos, ident: [...node.ident, ...fields] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        return fail(`unexpected . after term ${goQuote(nodeString(node))}`);
      default:
        return { type: 'chain', pos, node, field: fields };
    }
  };

  const term = (): ArgNode | undefined => {
    const t = nextNonSpace();
    switch (t.typ) {
      case 'identifier':
        if (!funcs.has(t.val)) fail(`function "${t.val}" not defined`);
        return { type: 'identifier', pos: t.pos, ident: t.val };
      case 'dot':
        return { type: 'dot', pos: t.pos };
      case 'nil':
        return { type: 'nil', pos: t.pos };
      case 'variable': {
        const ident = t.val.split('.');
        if (!vars.includes(ident[0])) fail(`undefined variable "${ident[0]}"`);
        return { type: 'variable', pos: t.pos, ident };
      }
      case 'field':
        return { type: 'field', pos: t.pos, ident: t.val.slice(1).split('.') };
      case 'bool':
        return { type: 'bool', pos: t.pos, value: t.val === 'true' };
      case 'charConstant':
      case 'complex':
      case 'number': {
        const n = numberNode(t.pos, t.val, t.typ);
        return typeof n === 'string' ? fail(n) : n;
      }
      case 'leftParen':
        return pipeline('parenthesized pipeline', 'rightParen');
      case 'string':
      case 'rawString': {
        const s = goUnquote(t.val);
        return s === undefined ? fail('invalid syntax') : { type: 'string', pos: t.pos, quoted: t.val, text: s };
      }
    }
    backup();
    return undefined;
  };

  // The top level: like itemList, but `define` starts a new tree.
  const root: ListNode = { type: 'list', pos: peek().pos, nodes: [] };
  while (peek().typ !== 'eof') {
    if (peek().typ === 'leftDelim') {
      const delim = nextItem();
      if (nextNonSpace().typ === 'define') {
        const context = 'define clause';
        const nameTok = nextNonSpace();
        if (nameTok.typ !== 'string' && nameTok.typ !== 'rawString') unexpected(nameTok, context);
        const defName = goUnquote(nameTok.val) ?? fail('invalid syntax');
        expect('rightDelim', context);
        const saved = vars;
        vars = ['$'];
        const [body, end] = itemList();
        vars = saved;
        if (end.type !== 'end') fail(`unexpected {{${end.type}}} in ${context}`);
        add(defName, body);
        continue;
      }
      backup2(delim);
    }
    const n = textOrAction();
    if (isEnd(n)) fail(`unexpected {{${n.type}}}`);
    else root.nodes.push(n);
  }
  add(name, root);
  return trees;
}
