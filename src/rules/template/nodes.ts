/**
 * The parse tree of a template, with Go's `text/template/parse` node kinds and their `String()`
 * forms, which execution errors quote (`executing "x" at <humanize "one">: ...`).
 */
import { goQuote } from '../../model/index.js';

/** A number literal with the interpretations Go's `parse.NumberNode` records. */
export interface NumberNode {
  readonly type: 'number';
  readonly pos: number;
  readonly text: string;
  readonly isInt: boolean;
  readonly isUint: boolean;
  readonly isFloat: boolean;
  readonly isComplex: boolean;
  readonly int: number;
  readonly float: number;
}

/** A command's operand, or a command itself. */
export type ArgNode =
  | { readonly type: 'identifier'; readonly pos: number; readonly ident: string }
  | { readonly type: 'variable'; readonly pos: number; readonly ident: readonly string[] }
  | { readonly type: 'field'; readonly pos: number; readonly ident: readonly string[] }
  | { readonly type: 'chain'; readonly pos: number; readonly node: ArgNode; readonly field: readonly string[] }
  | { readonly type: 'dot'; readonly pos: number }
  | { readonly type: 'nil'; readonly pos: number }
  | { readonly type: 'bool'; readonly pos: number; readonly value: boolean }
  | { readonly type: 'string'; readonly pos: number; readonly quoted: string; readonly text: string }
  | NumberNode
  | PipeNode;

/** One command of a pipeline: a function, method or value and its arguments. */
export interface CommandNode {
  readonly type: 'command';
  readonly pos: number;
  readonly args: ArgNode[];
}

/** A pipeline, with the variables it declares (`$x :=`) or assigns (`$x =`). */
export interface PipeNode {
  readonly type: 'pipe';
  readonly pos: number;
  isAssign: boolean;
  readonly decl: { readonly pos: number; readonly ident: readonly string[] }[];
  readonly cmds: CommandNode[];
}

/** `if`, `range` and `with`: a pipeline, a body and an optional else body. */
export interface BranchNode {
  readonly type: 'if' | 'range' | 'with';
  readonly pos: number;
  readonly pipe: PipeNode;
  readonly list: ListNode;
  readonly elseList: ListNode | undefined;
}

/** A node of a template's body. */
export type Node =
  | { readonly type: 'text'; readonly pos: number; readonly text: string }
  | { readonly type: 'action'; readonly pos: number; readonly pipe: PipeNode }
  | { readonly type: 'template'; readonly pos: number; readonly name: string; readonly pipe: PipeNode | undefined }
  | { readonly type: 'break' | 'continue'; readonly pos: number }
  | BranchNode
  | ListNode;

/** A sequence of nodes. */
export interface ListNode {
  readonly type: 'list';
  readonly pos: number;
  readonly nodes: Node[];
}

/** Go's `String()` of a node. */
export function nodeString(n: Node | ArgNode | CommandNode): string {
  switch (n.type) {
    case 'text':
      return goQuote(n.text);
    case 'action':
      return `{{${nodeString(n.pipe)}}}`;
    case 'template':
      return n.pipe === undefined ? `{{template ${goQuote(n.name)}}}` : `{{template ${goQuote(n.name)} ${nodeString(n.pipe)}}}`;
    case 'break':
    case 'continue':
      return `{{${n.type}}}`;
    case 'if':
    case 'range':
    case 'with': {
      const body = `{{${n.type} ${nodeString(n.pipe)}}}${nodeString(n.list)}`;
      return n.elseList === undefined ? `${body}{{end}}` : `${body}{{else}}${nodeString(n.elseList)}{{end}}`;
    }
    case 'list':
      return n.nodes.map(nodeString).join('');
    case 'pipe': {
      // Go writes `:=` for assignments too.
      const decl = n.decl.length > 0 ? `${n.decl.map((d) => d.ident.join('.')).join(', ')} := ` : '';
      return decl + n.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return n.args.map((a) => (a.type === 'pipe' ? `(${nodeString(a)})` : nodeString(a))).join(' ');
    case 'identifier':
      return n.ident;
    case 'variable':
      return n.ident.join('.');
    case 'field':
      return n.ident.map((f) => `.${f}`).join('');
    case 'chain':
      return (n.node.type === 'pipe' ? `(${nodeString(n.node)})` : nodeString(n.node)) + n.field.map((f) => `.${f}`).join('');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return String(n.value);
    case 'string':
      return n.quoted;
    case 'number':
      return n.text;
  }
}
