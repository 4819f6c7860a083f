import { Decimal } from 'decimal.js';

/** The figures of one backtest a sweep keeps: what objectives and constraints are made of. */
export interface SetMetrics {
  /** Net PnL, quote units (decimal string). */
  readonly pnl: string;
  readonly returnPct: string;
  readonly sharpe: string | null;
  readonly sortino: string | null;
  readonly calmar: string | null;
  readonly maxDrawdown: string;
  readonly maxDrawdownPct: string;
  /** Closed round trips. */
  readonly trades: number;
  /** Share of closed round trips won, net of fees (the one rule: `winRateOf`, round-trips.ts). */
  readonly winRate: string | null;
  readonly fees: string;
  readonly turnover: string;
  readonly orders: number;
}

/** Names an objective expression may use. */
export const OBJECTIVE_METRICS = [
  'sharpe',
  'sortino',
  'pnl',
  'calmar',
  'returnPct',
  'maxDrawdown',
  'maxDrawdownPct',
  'trades',
  'winRate',
  'fees',
  'turnover',
  'orders',
] as const satisfies readonly (keyof SetMetrics)[];

type MetricName = (typeof OBJECTIVE_METRICS)[number];

type Expr =
  | { readonly kind: 'number'; readonly value: Decimal }
  | { readonly kind: 'metric'; readonly name: MetricName }
  | { readonly kind: 'neg'; readonly operand: Expr }
  | { readonly kind: 'call'; readonly fn: 'min' | 'max' | 'abs'; readonly args: readonly Expr[] }
  | {
      readonly kind: 'binary';
      readonly op: '+' | '-' | '*' | '/';
      readonly left: Expr;
      readonly right: Expr;
    };

/** A parsed objective: higher is better. */
export interface Objective {
  /** The expression as written. */
  readonly text: string;
  /** The score of a set, or null when a figure it uses is undefined (or a division by zero). */
  score(metrics: SetMetrics): Decimal | null;
}

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/(),]))/y;

/**
 * Parses an objective: one of the metric names (`sharpe`, `sortino`, `pnl`, `calmar`, ...) or an
 * arithmetic expression of them with numbers, `+ - * /`, parentheses and `min`, `max`, `abs`,
 * e.g. `sharpe - 0.1 * maxDrawdownPct`. Evaluated exactly (decimal.js), so the ranking does not
 * depend on floating point.
 *
 * @throws Error with the position of the first problem (the caller adds the file and line).
 */
export function parseObjective(text: string): Objective {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (text.slice(at).trim() === '') break;
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(text);
    if (match === null) throw new Error(`unexpected ${JSON.stringify(text.slice(at).trim()[0])}`);
    tokens.push(match[1] ?? match[2] ?? match[3] ?? '');
    at = TOKEN.lastIndex;
  }
  let index = 0;
  const peek = (): string | undefined => tokens[index];
  const take = (): string | undefined => tokens[index++];
  const expect = (token: string): void => {
    const got = take();
    if (got !== token) throw new Error(`expected ${token}, got ${got ?? 'the end'}`);
  };
  const primary = (): Expr => {
    const token = take();
    if (token === undefined) throw new Error('unexpected end of the expression');
    if (token === '(') {
      const inner = sum();
      expect(')');
      return inner;
    }
    if (token === '-') return { kind: 'neg', operand: primary() };
    if (/^\d/.test(token)) return { kind: 'number', value: new Decimal(token) };
    if (token === 'min' || token === 'max' || token === 'abs') {
      expect('(');
      const args = [sum()];
      while (peek() === ',') {
        take();
        args.push(sum());
      }
      expect(')');
      if (token === 'abs' && args.length !== 1) throw new Error('abs takes one argument');
      return { kind: 'call', fn: token, args };
    }
    if ((OBJECTIVE_METRICS as readonly string[]).includes(token))
      return { kind: 'metric', name: token as MetricName };
    throw new Error(
      `unknown name ${JSON.stringify(token)} (known: ${OBJECTIVE_METRICS.join(', ')}, min, max, abs)`,
    );
  };
  const product = (): Expr => {
    let left = primary();
    for (let op = peek(); op === '*' || op === '/'; op = peek()) {
      take();
      left = { kind: 'binary', op, left, right: primary() };
    }
    return left;
  };
  function sum(): Expr {
    let left = product();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      take();
      left = { kind: 'binary', op, left, right: product() };
    }
    return left;
  }
  if (tokens.length === 0) throw new Error('empty objective');
  const tree = sum();
  if (index < tokens.length) throw new Error(`unexpected ${JSON.stringify(tokens[index])}`);
  return { text: text.trim(), score: (metrics) => evaluate(tree, metrics) };
}

function evaluate(expr: Expr, metrics: SetMetrics): Decimal | null {
  switch (expr.kind) {
    case 'number':
      return expr.value;
    case 'metric': {
      const value = metrics[expr.name];
      return value === null ? null : new Decimal(value);
    }
    case 'neg': {
      const value = evaluate(expr.operand, metrics);
      return value === null ? null : value.neg();
    }
    case 'call': {
      const args = expr.args.map((arg) => evaluate(arg, metrics));
      if (args.some((arg) => arg === null)) return null;
      const values = args as Decimal[];
      if (expr.fn === 'abs') return values[0]!.abs();
      return expr.fn === 'min' ? Decimal.min(...values) : Decimal.max(...values);
    }
    case 'binary': {
      const left = evaluate(expr.left, metrics);
      const right = evaluate(expr.right, metrics);
      if (left === null || right === null) return null;
      if (expr.op === '+') return left.plus(right);
      if (expr.op === '-') return left.minus(right);
      if (expr.op === '*') return left.times(right);
      return right.isZero() ? null : left.div(right);
    }
  }
}
