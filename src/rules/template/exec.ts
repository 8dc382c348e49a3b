/**
 * Execution of a parsed template, following Go's `text/template/exec.go` (Go 1.19) with
 * `missingkey=zero`, as Prometheus runs alert templates. It is async because functions may be
 * (`query` asks a `QueryClient`), and bounded: output size, steps (every node walked and every
 * range iteration) and a deadline, so that a hostile template cannot hold the process.
 * Errors read as Go's: `template: NAME:LINE:COL: executing "NAME" at <NODE>: MESSAGE`.
 */
import type { UnixMs } from '../../model/index.js';
import { nodeString, type ArgNode, type BranchNode, type CommandNode, type ListNode, type Node, type NumberNode, type PipeNode } from './nodes.js';
import type { TreeSet } from './parse.js';
import { GoHTML, GoInt, GoMap, GoSlice, GoStruct, GoTime, formatGoTime, formatGoValue, goTypeName, isTrue, type GoValue } from './values.js';

/** Parameter types of template functions, by Go's names (they appear in error messages). */
export type ParamType = 'string' | 'float64' | 'int' | 'bool' | 'interface {}' | 'reflect.Value' | '*template.sample' | 'template.queryResult';

/** A Go function returning a value or an error (`FuncError`). */
export interface GoFunc {
  readonly params: readonly ParamType[];
  /** The element type of a variadic last parameter. */
  readonly variadic?: ParamType;
  call(args: GoValue[]): GoValue | Promise<GoValue>;
}

/** The `error` a Go function returns; execution reports it as `error calling NAME: MESSAGE`. */
export class FuncError extends Error {}

/** An execution failure; `message` is Go's whole text. */
export class TemplateExecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateExecError';
  }
}

/** The bounds of one execution. */
export interface ExecLimits {
  readonly maxOutputBytes: number;
  readonly maxSteps: number;
  /** Execution fails once `now()` passes this. */
  readonly deadlineMs: UnixMs;
  readonly now: () => UnixMs;
}

const MAX_TEMPLATE_DEPTH = 1000;
const UTF8 = new TextEncoder();
/** `{{break}}` and `{{continue}}` unwind to their range as exceptions, as in Go. */
class LoopSignal extends Error {}
const BREAK = new LoopSignal('break');
const CONTINUE = new LoopSignal('continue');
/** Go's `missingVal`: no final value from a previous pipeline stage. */
const MISSING = Symbol('missing');
type Final = GoValue | typeof MISSING;

interface Variable {
  readonly name: string;
  value: GoValue;
}

/** Runs the template `name` of `trees` over `data`; returns the output. Throws `TemplateExecError`. */
export async function executeTemplate(
  parseName: string,
  text: string,
  trees: TreeSet,
  funcs: ReadonlyMap<string, GoFunc>,
  data: GoValue,
  limits: ExecLimits,
): Promise<string> {
  const root = trees.get(parseName);
  if (root === undefined) throw new TemplateExecError(`template: ${parseName}: "${parseName}" is an incomplete or empty template`);
  const st = new State(parseName, text, trees, funcs, limits);
  await st.walk(data, root, [{ name: '$', value: data }]);
  return st.out;
}

class State {
  out = '';
  private steps = 0;
  private node: { pos: number; str: string } | undefined;
  private tmplName: string;
  private depth = 0;

  constructor(
    private readonly parseName: string,
    private readonly text: string,
    private readonly trees: TreeSet,
    private readonly funcs: ReadonlyMap<string, GoFunc>,
    private readonly limits: ExecLimits,
  ) {
    this.tmplName = parseName;
  }

  private at(n: Node | ArgNode | CommandNode | { pos: number; str: string }): void {
    this.node = 'str' in n ? n : { pos: n.pos, str: nodeString(n) };
  }

  errorf(msg: string): never {
    if (this.node === undefined) throw new TemplateExecError(`template: ${this.tmplName}: ${msg}`);
    const before = this.text.slice(0, this.node.pos);
    const nl = before.lastIndexOf('\n');
    // Go counts bytes of UTF-8.
    const col = UTF8.encode(before.slice(nl + 1)).length;
    const line = 1 + (before.match(/\n/g)?.length ?? 0);
    throw new TemplateExecError(`template: ${this.parseName}:${line}:${col}: executing "${this.tmplName}" at <${this.node.str}>: ${msg}`);
  }

  private step(): void {
    this.steps++;
    if (this.steps > this.limits.maxSteps) this.errorf(`template execution exceeded the limit of ${this.limits.maxSteps} steps`);
    if ((this.steps & 63) === 0 && this.limits.now() > this.limits.deadlineMs) this.errorf('template execution exceeded its deadline');
  }

  private write(s: string): void {
    this.out += s;
    if (this.out.length > this.limits.maxOutputBytes) this.errorf(`template output exceeds ${this.limits.maxOutputBytes} bytes`);
  }

  async walk(dot: GoValue, node: Node, vars: Variable[]): Promise<void> {
    this.step();
    this.at(node);
    switch (node.type) {
      case 'action': {
        const v = await this.evalPipeline(dot, node.pipe, vars);
        if (node.pipe.decl.length === 0) {
          this.at(node);
          // Go prints what a pointer points to.
          const shown = v instanceof GoStruct && v.pointer ? new GoStruct(v.typeName, v.fields, false) : v;
          this.write(shown === null ? '<no value>' : formatGoValue(shown));
        }
        return;
      }
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'if':
      case 'with': {
        const mark = vars.length;
        const v = await this.evalPipeline(dot, node.pipe, vars);
        if (isTrue(v)) await this.walk(node.type === 'with' ? v : dot, node.list, vars);
        else if (node.elseList !== undefined) await this.walk(dot, node.elseList, vars);
        vars.length = mark;
        return;
      }
      case 'list':
        for (const n of node.nodes) await this.walk(dot, n, vars);
        return;
      case 'range':
        return this.walkRange(dot, node, vars);
      case 'template':
        return this.walkTemplate(dot, node, vars);
      case 'text':
        this.write(node.text);
        return;
    }
  }

  private async walkRange(dot: GoValue, r: BranchNode, vars: Variable[]): Promise<void> {
    const outer = vars.length;
    const val = await this.evalPipeline(dot, r.pipe, vars);
    const mark = vars.length;
    const one = async (index: GoValue, elem: GoValue): Promise<boolean> => {
      this.step();
      if (r.pipe.decl.length > 0) vars[mark - 1].value = elem;
      if (r.pipe.decl.length > 1) vars[mark - 2].value = index;
      try {
        await this.walk(elem, r.list, vars);
      } catch (e) {
        if (e === BREAK) return false;
        if (e !== CONTINUE) throw e;
      } finally {
        vars.length = mark;
      }
      return true;
    };
    let iterated = false;
    if (val instanceof GoSlice) {
      for (let i = 0; i < val.items.length; i++) {
        iterated = true;
        if (!(await one(new GoInt(i), val.items[i]))) break;
      }
    } else if (val instanceof GoMap) {
      for (const k of [...val.entries.keys()].sort()) {
        iterated = true;
        if (!(await one(k, val.entries.get(k) ?? null))) break;
      }
    } else if (val !== null) {
      this.errorf(`range can't iterate over ${formatGoValue(val)}`);
    }
    if (!iterated && r.elseList !== undefined) await this.walk(dot, r.elseList, vars);
    vars.length = outer;
  }

  private async walkTemplate(dot: GoValue, t: Extract<Node, { type: 'template' }>, vars: Variable[]): Promise<void> {
    const tree: ListNode | undefined = this.trees.get(t.name);
    if (tree === undefined) this.errorf(`template "${t.name}" not defined`);
    if (this.depth >= MAX_TEMPLATE_DEPTH) this.errorf(`exceeded maximum template depth (${MAX_TEMPLATE_DEPTH})`);
    const newDot = t.pipe === undefined ? null : await this.evalPipeline(dot, t.pipe, vars);
    const savedName = this.tmplName;
    this.tmplName = t.name;
    this.depth++;
    try {
      await this.walk(newDot, tree, [{ name: '$', value: newDot }]);
    } finally {
      this.depth--;
      this.tmplName = savedName;
    }
  }

  private async evalPipeline(dot: GoValue, pipe: PipeNode, vars: Variable[]): Promise<GoValue> {
    this.at(pipe);
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) value = await this.evalCommand(dot, cmd, value, vars);
    const v = value === MISSING ? null : value;
    for (const d of pipe.decl) {
      if (pipe.isAssign) this.setVar(vars, d.ident[0], v);
      else vars.push({ name: d.ident[0], value: v });
    }
    return v;
  }

  private setVar(vars: Variable[], name: string, value: GoValue): void {
    for (let i = vars.length - 1; i >= 0; i--) {
      if (vars[i].name === name) {
        vars[i].value = value;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  private varValue(vars: Variable[], name: string): GoValue {
    for (let i = vars.length - 1; i >= 0; i--) if (vars[i].name === name) return vars[i].value;
    return this.errorf(`undefined variable: ${name}`);
  }

  private notAFunction(args: readonly ArgNode[], final: Final): void {
    if (args.length > 1 || final !== MISSING) this.errorf(`can't give argument to non-function ${nodeString(args[0])}`);
  }

  private async evalCommand(dot: GoValue, cmd: CommandNode, final: Final, vars: Variable[]): Promise<GoValue> {
    this.step();
    const first = cmd.args[0];
    switch (first.type) {
      case 'field':
        this.at(first);
        return this.evalFieldChain(dot, dot, first, first.ident, cmd.args, final, vars);
      case 'chain': {
        this.at(first);
        if (first.node.type === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(first)}`);
        const recv = await this.evalArg(dot, undefined, first.node, vars);
        return this.evalFieldChain(dot, recv, first, first.field, cmd.args, final, vars);
      }
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final, vars);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first, vars);
      case 'variable': {
        this.at(first);
        const value = this.varValue(vars, first.ident[0]);
        if (first.ident.length === 1) {
          this.notAFunction(cmd.args, final);
          return value;
        }
        return this.evalFieldChain(dot, value, first, first.ident.slice(1), cmd.args, final, vars);
      }
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.type) {
      case 'bool':
        return first.value;
      case 'dot':
        return dot;
      case 'nil':
        return this.errorf('nil is not a command');
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return first.text;
    }
  }

  private idealConstant(n: NumberNode): GoValue {
    this.at(n);
    if (n.isComplex) return this.errorf(`complex constants are not supported: ${n.text}`);
    const hexInt = /^[+-]?0[xX]/.test(n.text) && !/[pP]/.test(n.text);
    const runeInt = n.text.startsWith("'");
    if (n.isFloat && !hexInt && !runeInt && /[.eEpP]/.test(n.text)) return n.float;
    if (n.isInt) return new GoInt(n.int);
    return this.errorf(`${n.text} overflows int`);
  }

  private async evalFieldChain(dot: GoValue, receiver: GoValue, node: ArgNode, ident: readonly string[], args: readonly ArgNode[], final: Final, vars: Variable[]): Promise<GoValue> {
    let r = receiver;
    for (let i = 0; i < ident.length - 1; i++) r = await this.evalField(dot, ident[i], node, [], MISSING, r, vars);
    return this.evalField(dot, ident[ident.length - 1], node, args, final, r, vars);
  }

  private async evalField(dot: GoValue, name: string, node: ArgNode, args: readonly ArgNode[], final: Final, receiver: GoValue, vars: Variable[]): Promise<GoValue> {
    if (receiver === null) return null;
    const hasArgs = args.length > 1 || final !== MISSING;
    if (receiver instanceof GoTime) {
      const method = timeMethod(receiver, name);
      if (method !== undefined) return this.evalCall(dot, method, node, name, args, final, vars);
    }
    if (receiver instanceof GoStruct) {
      const f = receiver.fields.get(name);
      if (f !== undefined) {
        if (hasArgs) this.errorf(`${name} has arguments but cannot be invoked as function`);
        return f;
      }
    } else if (receiver instanceof GoMap) {
      if (hasArgs) this.errorf(`${name} is not a method but has arguments`);
      const v = receiver.entries.get(name);
      if (v !== undefined) return v;
      return receiver.elem === 'string' ? '' : null;
    }
    return this.errorf(`can't evaluate field ${name} in type ${goTypeName(receiver)}`);
  }

  private evalFunction(dot: GoValue, node: Extract<ArgNode, { type: 'identifier' }>, cmd: CommandNode, args: readonly ArgNode[], final: Final, vars: Variable[]): Promise<GoValue> {
    this.at(node);
    const fn = this.funcs.get(node.ident);
    if (fn === undefined) return this.errorf(`"${node.ident}" is not a defined function`);
    return this.evalCall(dot, fn, cmd, node.ident, args, final, vars, node);
  }

  private async evalCall(dot: GoValue, fn: GoFunc, node: ArgNode | CommandNode, name: string, allArgs: readonly ArgNode[], final: Final, vars: Variable[], ident?: ArgNode): Promise<GoValue> {
    const args = allArgs.slice(1);
    const numIn = args.length + (final === MISSING ? 0 : 1);
    const numFixed = fn.variadic === undefined ? args.length : fn.params.length;
    if (fn.variadic !== undefined) {
      if (numIn < fn.params.length) this.errorf(`wrong number of args for ${name}: want at least ${fn.params.length} got ${args.length}`);
    } else if (numIn !== fn.params.length) this.errorf(`wrong number of args for ${name}: want ${fn.params.length} got ${numIn}`);
    if (ident !== undefined && (name === 'and' || name === 'or')) {
      let v: GoValue = null;
      for (const a of args) {
        v = await this.evalArg(dot, 'reflect.Value', a, vars);
        if (isTrue(v) === (name === 'or')) return v;
      }
      return final === MISSING ? v : final;
    }
    const argv: GoValue[] = [];
    let i = 0;
    for (; i < numFixed && i < args.length; i++) argv.push(await this.evalArg(dot, fn.params[i], args[i], vars));
    if (fn.variadic !== undefined) for (; i < args.length; i++) argv.push(await this.evalArg(dot, fn.variadic, args[i], vars));
    if (final !== MISSING) {
      const t = fn.variadic === undefined ? fn.params[fn.params.length - 1] : numIn - 1 < numFixed ? fn.params[numIn - 1] : fn.variadic;
      argv.push(this.validateType(final, t));
    }
    try {
      const v = await fn.call(argv);
      // Strings built in variables never reach the output check: bound them here.
      const len = typeof v === 'string' ? v.length : v instanceof GoHTML ? v.value.length : 0;
      if (len > this.limits.maxOutputBytes) {
        this.at(node);
        this.errorf(`the result of ${name} exceeds ${this.limits.maxOutputBytes} bytes`);
      }
      return v;
    } catch (e) {
      if (!(e instanceof FuncError)) throw e;
      this.at(node);
      return this.errorf(`error calling ${name}: ${e.message}`);
    }
  }

  private async evalArg(dot: GoValue, typ: ParamType | undefined, n: ArgNode, vars: Variable[]): Promise<GoValue> {
    this.at(n);
    switch (n.type) {
      case 'dot':
        return this.validateType(dot, typ);
      case 'nil':
        if (typ === undefined || canBeNil(typ)) return null;
        return this.errorf(`cannot assign nil to ${typ}`);
      case 'field':
        return this.validateType(await this.evalFieldChain(dot, dot, n, n.ident, [n], MISSING, vars), typ);
      case 'variable': {
        const v = this.varValue(vars, n.ident[0]);
        const r = n.ident.length === 1 ? v : await this.evalFieldChain(dot, v, n, n.ident.slice(1), [n], MISSING, vars);
        return this.validateType(r, typ);
      }
      case 'pipe':
        return this.validateType(await this.evalPipeline(dot, n, vars), typ);
      case 'identifier': {
        const fn = this.funcs.get(n.ident);
        if (fn === undefined) return this.errorf(`"${n.ident}" is not a defined function`);
        return this.validateType(await this.evalCall(dot, fn, n, n.ident, [n], MISSING, vars, n), typ);
      }
      case 'chain': {
        const recv = await this.evalArg(dot, undefined, n.node, vars);
        return this.validateType(await this.evalFieldChain(dot, recv, n, n.field, [n], MISSING, vars), typ);
      }
    }
    switch (typ) {
      case 'bool':
        return n.type === 'bool' ? n.value : this.errorf(`expected bool; found ${nodeString(n)}`);
      case 'float64':
        return n.type === 'number' && n.isFloat ? n.float : this.errorf(`expected float; found ${nodeString(n)}`);
      case 'int':
        return n.type === 'number' && n.isInt ? new GoInt(n.int) : this.errorf(`expected integer; found ${nodeString(n)}`);
      case 'string':
        return n.type === 'string' ? n.text : this.errorf(`expected string; found ${nodeString(n)}`);
      case undefined:
      case 'interface {}':
      case 'reflect.Value':
        if (n.type === 'bool') return n.value;
        if (n.type === 'number') return this.idealConstant(n);
        return n.text;
      default:
        return this.errorf(`can't handle ${nodeString(n)} for arg of type ${typ}`);
    }
  }

  private validateType(v: GoValue, typ: ParamType | undefined): GoValue {
    if (typ === undefined || typ === 'interface {}' || typ === 'reflect.Value') return v;
    if (v === null) {
      if (canBeNil(typ)) return null;
      return this.errorf(`invalid value; expected ${typ}`);
    }
    const got = goTypeName(v);
    if (got === typ) return v;
    // A pointer's element is assignable where the element type is expected.
    if (got === `*${typ}`) return v;
    return this.errorf(`wrong type for value; expected ${typ}; got ${got}`);
  }
}

/** The civil fields of a time; `Month` and `Weekday` as the names their `String()` prints. */
function timePart(t: GoTime, name: string): GoValue {
  const layout: Record<string, string> = { Year: '2006', Month: 'January', Day: '2', Hour: '15', Minute: '4', Second: '5', YearDay: '002', Weekday: 'Monday' };
  if (name === 'Nanosecond') return new GoInt(Number(((t.unixNs % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n));
  const s = formatGoTime(t, layout[name]);
  return name === 'Month' || name === 'Weekday' ? s : new GoInt(Number(s));
}

function canBeNil(typ: ParamType): boolean {
  return typ === 'interface {}' || typ === 'reflect.Value' || typ === '*template.sample' || typ === 'template.queryResult';
}

/** The methods of `time.Time` a template may call. */
function timeMethod(t: GoTime, name: string): GoFunc | undefined {
  const seconds = (): bigint => t.unixNs / 1_000_000_000n - (t.unixNs < 0n && t.unixNs % 1_000_000_000n !== 0n ? 1n : 0n);
  switch (name) {
    case 'Format':
      return { params: ['string'], call: ([layout]) => formatGoTime(t, layout as string) };
    case 'String':
      return { params: [], call: () => formatGoValue(t) };
    case 'Unix':
      return { params: [], call: () => new GoInt(Number(seconds())) };
    case 'UnixMilli':
      return { params: [], call: () => new GoInt(Number(t.unixNs / 1_000_000n)) };
    case 'UnixNano':
      return { params: [], call: () => new GoInt(Number(t.unixNs)) };
    case 'UTC':
      return { params: [], call: () => new GoTime(t.unixNs, false) };
    case 'Year':
    case 'Month':
    case 'Day':
    case 'Hour':
    case 'Minute':
    case 'Second':
    case 'Nanosecond':
    case 'YearDay':
    case 'Weekday':
      return { params: [], call: () => timePart(t, name) };
    default:
      return undefined;
  }
}
