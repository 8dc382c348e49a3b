import { METRIC_NAME_LABEL, goQuote } from '../../model/index.js';
import { type AggregateExpr, type BinaryExpr, type Call, type Expr, type PositionRange, type ValueType, type VectorSelector, exprType } from './ast.js';
import type { Mutable, ParserState } from './parser-state.js';

/** Prometheus' `DocumentedType`: `instant vector`, `range vector`, `scalar`, `string`. */
function documentedType(t: ValueType): string {
  if (t === 'vector') return 'instant vector';
  if (t === 'matrix') return 'range vector';
  return t;
}

const COMPARISON = new Set(['==', '!=', '<=', '<', '>=', '>']);
const SET_OPS = new Set(['and', 'or', 'unless']);
const PARAM_SCALAR = new Set(['topk', 'bottomk', 'quantile', 'limitk', 'limit_ratio']);

/**
 * Prometheus' `checkAST`: type checks a freshly parsed tree and throws the first error in the
 * order Prometheus reports them. It also finishes binary expressions as Prometheus does: set
 * operators become many-to-many, and `matching` is dropped where a side is not an instant vector.
 */
export function checkAST(p: ParserState, root: Expr): void {
  new Checker(p).check(root);
}

class Checker {
  /** `info()`'s second argument may be a selector whose matchers all match the empty string. */
  private readonly bypassEmptyCheck = new Set<VectorSelector>();
  private bytes: Uint8Array | null = null;

  constructor(private readonly p: ParserState) {}

  private fail(reason: string, range: PositionRange): never {
    throw this.p.errorAt(reason, range);
  }

  check(e: Expr): ValueType {
    switch (e.type) {
      case 'AggregateExpr':
        this.checkAggregate(e);
        break;
      case 'BinaryExpr':
        this.checkBinary(e);
        break;
      case 'Call':
        this.checkCall(e);
        break;
      case 'ParenExpr':
        this.check(e.expr);
        break;
      case 'UnaryExpr': {
        const t = this.check(e.expr);
        if (t !== 'scalar' && t !== 'vector') {
          this.fail(`unary expression only allowed on expressions of type scalar or instant vector, got ${goQuote(documentedType(t))}`, e.pos);
        }
        break;
      }
      case 'SubqueryExpr': {
        const t = this.check(e.expr);
        if (t !== 'vector') this.fail(`subquery is only allowed on instant vector, got ${t} instead`, e.pos);
        break;
      }
      case 'MatrixSelector':
        this.check(e.vectorSelector);
        break;
      case 'VectorSelector':
        this.checkSelector(e);
        break;
      default:
        break;
    }
    return exprType(e);
  }

  private expectType(e: Expr, want: ValueType, context: string): void {
    const t = this.check(e);
    if (t !== want) this.fail(`expected type ${documentedType(want)} in ${context}, got ${documentedType(t)}`, e.pos);
  }

  private checkAggregate(e: AggregateExpr): void {
    this.expectType(e.expr, 'vector', 'aggregation expression');
    if (e.param === null) return;
    if (PARAM_SCALAR.has(e.op)) this.expectType(e.param, 'scalar', 'aggregation parameter');
    if (e.op === 'count_values') this.expectType(e.param, 'string', 'aggregation parameter');
  }

  /** The range of the operator text between the operands (Prometheus' `opRange`). */
  private opRange(e: BinaryExpr): PositionRange {
    this.bytes ??= new TextEncoder().encode(this.p.input);
    const b = this.bytes;
    const space = (i: number): boolean => b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d;
    let start = e.lhs.pos.end;
    while (start < b.length && space(start)) start++;
    let end = e.rhs.pos.start - 1;
    while (end > 0 && space(end)) end--;
    return { start, end };
  }

  private checkBinary(e: BinaryExpr): void {
    const lt = this.check(e.lhs);
    const rt = this.check(e.rhs);
    const vm = e.matching;
    if (e.returnBool && !COMPARISON.has(e.op)) this.fail('bool modifier can only be used on comparison operators', this.opRange(e));
    if (COMPARISON.has(e.op) && !e.returnBool && lt === 'scalar' && rt === 'scalar') {
      this.fail('comparisons between scalars must use BOOL modifier', this.opRange(e));
    }
    if (vm === null) return;
    const setOp = SET_OPS.has(e.op);
    let card = vm.card;
    if (setOp && card === 'one-to-one') card = 'many-to-many';
    if (vm.on) {
      for (const l of vm.matchingLabels) {
        if (vm.include.includes(l)) this.fail(`label ${goQuote(l)} must not occur in ON and GROUP clause at once`, this.opRange(e));
      }
    }
    if (lt !== 'scalar' && lt !== 'vector') this.fail('binary expression must contain only scalar and instant vector types', e.lhs.pos);
    if (rt !== 'scalar' && rt !== 'vector') this.fail('binary expression must contain only scalar and instant vector types', e.rhs.pos);
    const fill = vm.fillValues.lhs !== null || vm.fillValues.rhs !== null;
    const node = e as Mutable<BinaryExpr>;
    if (lt !== 'vector' || rt !== 'vector') {
      if (vm.matchingLabels.length > 0) this.fail('vector matching only allowed between instant vectors', e.pos);
      if (fill) this.fail('filling in missing series only allowed between instant vectors', e.pos);
      node.matching = null;
    } else {
      if (setOp) {
        if (card === 'one-to-many' || card === 'many-to-one') this.fail(`no grouping allowed for ${goQuote(e.op)} operation`, e.pos);
        if (card !== 'many-to-many') this.fail('set operations must always be many-to-many', e.pos);
        if (fill) this.fail('filling in missing series not allowed for set operators', e.pos);
      }
      if (card !== vm.card) node.matching = { ...vm, card };
    }
    if ((lt === 'scalar' || rt === 'scalar') && setOp) this.fail(`set operator ${goQuote(e.op)} not allowed in binary scalar expression`, e.pos);
  }

  private checkCall(e: Call): void {
    const f = e.func;
    const nargs = f.argTypes.length;
    const n = e.args.length;
    if (f.variadic === 0) {
      if (nargs !== n) this.fail(`expected ${nargs} argument(s) in call to ${goQuote(f.name)}, got ${n}`, e.pos);
    } else {
      const min = nargs - 1;
      if (min > n) this.fail(`expected at least ${min} argument(s) in call to ${goQuote(f.name)}, got ${n}`, e.pos);
      else if (f.variadic > 0 && min + f.variadic < n) {
        this.fail(`expected at most ${min + f.variadic} argument(s) in call to ${goQuote(f.name)}, got ${n}`, e.pos);
      }
    }
    if (f.name === 'info' && n > 1) {
      const second = e.args[1];
      const t = exprType(second);
      if (t !== 'vector') this.fail(`expected type instant vector in call to function ${goQuote(f.name)}, got ${documentedType(t)}`, e.pos);
      if (second.type !== 'VectorSelector') this.fail('expected label selectors only', second.pos);
      if (second.name !== '') this.fail('expected label selectors only, got vector selector instead', second.pos);
      this.bypassEmptyCheck.add(second);
    }
    for (let i = 0; i < n; i++) {
      let k = i;
      if (k >= nargs) {
        if (f.variadic === 0) break;
        k = nargs - 1;
      }
      const t = this.check(e.args[i]);
      if (t !== f.argTypes[k]) {
        this.fail(`expected type ${documentedType(f.argTypes[k])} in call to function ${goQuote(f.name)}, got ${documentedType(t)}`, e.args[i].pos);
      }
    }
  }

  private checkSelector(e: VectorSelector): void {
    if (e.name !== '') {
      for (let i = 0; i < e.matchers.length - 1; i++) {
        const m = e.matchers[i];
        if (m.name === METRIC_NAME_LABEL) this.fail(`metric name must not be set twice: ${goQuote(e.name)} or ${goQuote(m.value)}`, e.pos);
      }
      return;
    }
    if (this.bypassEmptyCheck.has(e)) return;
    if (!e.matchers.some((m) => !m.matchesEmpty())) this.fail('vector selector must contain at least one non-empty matcher', e.pos);
  }
}
