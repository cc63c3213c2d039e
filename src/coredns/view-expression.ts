import { judgeGoRegexp } from '../dns/go-regexp.js';
import type { GoRegexpOptions } from '../dns/go-regexp.js';

/**
 * What the `view` plugin's `expr EXPRESSION` refuses at start-up: its setup compiles the words
 * joined with spaces with expr-lang/expr (`expr.Compile(…, expr.Env(expression.DefaultEnv(…)),
 * expr.DisableBuiltin("type"))`, plugin/view/setup.go at v1.11.3–v1.14.7), which parses the
 * expression and type-checks it against the environment of plugin/pkg/expression (request
 * functions such as `name()`, `type()`, `client_ip()`, `incidr(ip, cidr)`, `metadata(label)`).
 *
 * This reads a subset of the language exactly — literals, names, calls, member and index access,
 * unary and binary operators, `? :`, array and map literals — and judges what expr's checker judges
 * there: syntax, unknown names, the argument count and kinds of the environment's functions, the
 * operand types of operators where both are known, and a constant `matches` pattern (compiled as
 * Go's regexp). Anything outside the subset (closures, pipes, `let`, `if`, slices, `$env`) or a
 * type it cannot tell is not judged: no refusal is ever reported that the release would not make.
 * The verdicts were compared with the real CoreDNS 1.14.7 (test/coredns/view-expression.test.ts).
 *
 * Pure: no Node APIs.
 */

type Type =
  | { readonly kind: 'int' | 'float' | 'string' | 'bool' | 'nil' | 'array' | 'map' | 'unknown' }
  | { readonly kind: 'func'; readonly name: string; readonly params: readonly Type[]; readonly result: Type; readonly text: string };

const T = {
  int: { kind: 'int' },
  float: { kind: 'float' },
  string: { kind: 'string' },
  bool: { kind: 'bool' },
  nil: { kind: 'nil' },
  array: { kind: 'array' },
  map: { kind: 'map' },
  unknown: { kind: 'unknown' },
} as const;

const fn = (name: string, params: readonly Type[], result: Type, text: string): Type => ({ kind: 'func', name, params, result, text });

/** The environment of plugin/pkg/expression `DefaultEnv` (v1.10.0–v1.14.7), as Go types. */
const ENVIRONMENT: Readonly<Record<string, Type>> = {
  incidr: fn('incidr', [T.string, T.string], T.bool, 'func(string, string) (bool, error)'),
  metadata: fn('metadata', [T.string], T.string, 'func(string) string'),
  type: fn('type', [], T.string, 'func() string'),
  name: fn('name', [], T.string, 'func() string'),
  class: fn('class', [], T.string, 'func() string'),
  proto: fn('proto', [], T.string, 'func() string'),
  size: fn('size', [], T.int, 'func() int'),
  client_ip: fn('client_ip', [], T.string, 'func() string'),
  port: fn('port', [], T.string, 'func() string'),
  id: fn('id', [], T.int, 'func() int'),
  opcode: fn('opcode', [], T.int, 'func() int'),
  do: fn('do', [], T.bool, 'func() bool'),
  bufsize: fn('bufsize', [], T.int, 'func() int'),
  server_ip: fn('server_ip', [], T.string, 'func() string'),
  server_port: fn('server_port', [], T.string, 'func() string'),
};

/** expr-lang's builtin functions (v1.16–v1.17, `type` disabled by the view plugin): calls to them are not judged. */
const BUILTINS: ReadonlySet<string> = new Set(
  (
    'all none any one filter map find findIndex findLast findLastIndex count sum groupBy sortBy reduce len abs ceil floor round int float string ' +
    'trim trimPrefix trimSuffix upper lower split splitAfter replace repeat join indexOf lastIndexOf hasPrefix hasSuffix max min mean median ' +
    'toJSON fromJSON toBase64 fromBase64 now duration date timezone first last get keys values toPairs fromPairs sort concat flatten uniq ' +
    'bitand bitor bitxor bitnand bitnot bitshl bitshr bitushr'
  ).split(' '),
);

/** The verdict: `refused` with expr's reason, `ok`, or `unchecked` (outside the subset this reads). */
export type ViewExpressionVerdict = { readonly kind: 'ok' } | { readonly kind: 'unchecked' } | { readonly kind: 'refused'; readonly reason: string; readonly column: number };

class Unchecked extends Error {}
class Refused extends Error {
  constructor(
    readonly reason: string,
    readonly column: number,
  ) {
    super(reason);
  }
}

interface Token {
  readonly kind: 'number' | 'string' | 'name' | 'op' | 'eof';
  readonly text: string;
  /** For strings: the value. */
  readonly value?: string;
  readonly column: number;
}

const WORD_OPERATORS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'in', 'matches', 'contains', 'startsWith', 'endsWith']);
const OPERATORS = ['**', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '..', '<', '>', '+', '-', '*', '/', '%', '^', '!', '(', ')', '[', ']', '{', '}', ',', ':', '?', '.', '|', ';', '#', '='];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    const column = index + 1;
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(text[index + 1] ?? ''))) {
      const match = /^(?:0[xXoObB][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9_]+(?:[eE][+-]?[0-9]+)?)/.exec(text.slice(index));
      const number = match?.[0] ?? char;
      if (number.includes('_') || /^0[xXoObB]/.test(number)) throw new Unchecked();
      tokens.push({ kind: 'number', text: number, column });
      index += number.length;
      continue;
    }
    if (char === "'" || char === '"') {
      let end = index + 1;
      let value = '';
      while (end < text.length && text[end] !== char) {
        if (text[end] === '\\') {
          const next = text[end + 1];
          if (next === undefined) break;
          if (!"\\'\"nrt".includes(next)) throw new Unchecked(); // other escapes: not judged
          value += next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : next;
          end += 2;
          continue;
        }
        value += text[end];
        end += 1;
      }
      if (end >= text.length) throw new Refused('literal not terminated', column);
      tokens.push({ kind: 'string', text: text.slice(index, end + 1), value, column });
      index = end + 1;
      continue;
    }
    if (char === '@') throw new Refused("unrecognized character: U+0040 '@'", column);
    if (char === '`' || char === '$') throw new Unchecked();
    if (/[A-Za-z_]/.test(char)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(index))?.[0] ?? char;
      tokens.push({ kind: WORD_OPERATORS.has(name) ? 'op' : 'name', text: name, column });
      index += name.length;
      continue;
    }
    const operator = OPERATORS.find((op) => text.startsWith(op, index));
    if (operator === undefined) throw new Unchecked();
    tokens.push({ kind: 'op', text: operator, column });
    index += operator.length;
  }
  tokens.push({ kind: 'eof', text: '', column: text.length + 1 });
  return tokens;
}

/** Binary operators and their precedence (expr-lang's parser/operator tables). */
const BINARY: Readonly<Record<string, { readonly precedence: number; readonly right?: true }>> = {
  or: { precedence: 10 },
  '||': { precedence: 10 },
  and: { precedence: 15 },
  '&&': { precedence: 15 },
  '==': { precedence: 20 },
  '!=': { precedence: 20 },
  '<': { precedence: 20 },
  '>': { precedence: 20 },
  '>=': { precedence: 20 },
  '<=': { precedence: 20 },
  in: { precedence: 20 },
  matches: { precedence: 20 },
  contains: { precedence: 20 },
  startsWith: { precedence: 20 },
  endsWith: { precedence: 20 },
  '..': { precedence: 25 },
  '+': { precedence: 30 },
  '-': { precedence: 30 },
  '*': { precedence: 60 },
  '/': { precedence: 60 },
  '%': { precedence: 60 },
  '**': { precedence: 100, right: true },
  '^': { precedence: 100, right: true },
  '??': { precedence: 500 },
};

/** Go's spelling of a type in expr's messages. */
function typeName(type: Type): string {
  if (type.kind === 'func') return type.text;
  if (type.kind === 'float') return 'float64';
  if (type.kind === 'array') return '[]interface {}';
  if (type.kind === 'map') return 'map[string]interface {}';
  return type.kind;
}

const isNumber = (type: Type) => type.kind === 'int' || type.kind === 'float';
const known = (type: Type) => type.kind !== 'unknown';

/**
 * expr parses the whole expression before it checks types, so a syntax error is reported before a
 * type error written earlier: a first pass reads the syntax only (type errors off), a second judges.
 */
let checkingTypes = true;

/** A type error (reported in the checking pass only). */
function typeError(reason: string, column: number): void {
  if (checkingTypes) throw new Refused(reason, column);
}

/** What the checker does not judge: in the syntax pass, read on. */
function notJudged(): void {
  if (checkingTypes) throw new Unchecked();
}

function mismatch(operator: string, left: Type, right: Type, column: number): void {
  typeError(`invalid operation: ${operator} (mismatched types ${typeName(left)} and ${typeName(right)})`, column);
}

/** The type of `left OP right`, refusing what expr's checker refuses when both types are known. */
function binaryType(operator: string, left: Type, right: Type, column: number, rightToken: Token | undefined, regexp: GoRegexpOptions): Type {
  const both = known(left) && known(right);
  switch (operator) {
    case 'or':
    case '||':
    case 'and':
    case '&&':
      if ((known(left) && left.kind !== 'bool') || (known(right) && right.kind !== 'bool')) {
        if (both || left.kind === 'bool' || right.kind === 'bool') mismatch(operator, left, right, column);
        notJudged();
      }
      return T.bool;
    case '==':
    case '!=':
      if (both && left.kind !== 'nil' && right.kind !== 'nil' && !(isNumber(left) && isNumber(right)) && left.kind !== right.kind) mismatch(operator, left, right, column);
      if (both && left.kind === 'func' && right.kind === 'func' && left.text !== right.text) mismatch(operator, left, right, column);
      return T.bool;
    case '<':
    case '>':
    case '<=':
    case '>=':
      if (both && !((isNumber(left) && isNumber(right)) || (left.kind === 'string' && right.kind === 'string'))) mismatch(operator, left, right, column);
      return T.bool;
    case 'matches':
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      if ((known(left) && left.kind !== 'string') || (known(right) && right.kind !== 'string')) {
        if (both) mismatch(operator, left, right, column);
        notJudged();
      }
      if (operator === 'matches' && rightToken?.kind === 'string' && rightToken.value !== undefined && checkingTypes) {
        const verdict = judgeGoRegexp(rightToken.value, regexp);
        if (!verdict.ok) typeError(verdict.error.startsWith('error parsing regexp: ') ? verdict.error : `error parsing regexp: ${verdict.error}`, column);
      }
      return T.bool;
    case 'in':
      if (known(right) && right.kind !== 'array' && right.kind !== 'map') mismatch(operator, left, right, column);
      return T.bool;
    case '+':
      if (both && !((isNumber(left) && isNumber(right)) || (left.kind === 'string' && right.kind === 'string'))) mismatch(operator, left, right, column);
      return both ? (left.kind === 'string' ? T.string : left.kind === 'int' && right.kind === 'int' ? T.int : T.float) : T.unknown;
    case '-':
    case '*':
    case '/':
    case '%':
    case '**':
    case '^':
      if (both && !(isNumber(left) && isNumber(right))) mismatch(operator, left, right, column);
      if (operator === '%' && both && (left.kind !== 'int' || right.kind !== 'int')) mismatch(operator, left, right, column);
      return both ? (operator === '/' || operator === '**' || operator === '^' || left.kind === 'float' || right.kind === 'float' ? T.float : T.int) : T.unknown;
    case '..':
      if (both && (left.kind !== 'int' || right.kind !== 'int')) mismatch(operator, left, right, column);
      return T.array;
    default:
      // '??': either side.
      return T.unknown;
  }
}

class Parser {
  #index = 0;

  constructor(
    readonly tokens: readonly Token[],
    readonly regexp: GoRegexpOptions,
  ) {}

  get current(): Token {
    return this.peek();
  }

  /** The next token (a method, so that checks after `next()` are not narrowed away). */
  peek(): Token {
    return this.tokens[this.#index] as Token;
  }

  next(): Token {
    const token = this.current;
    if (token.kind !== 'eof') this.#index += 1;
    return token;
  }

  expect(text: string): void {
    const token = this.next();
    if (token.text !== text || token.kind === 'string') this.unexpected(token);
  }

  unexpected(token: Token): never {
    throw new Refused(token.kind === 'eof' ? 'unexpected token EOF' : `unexpected token ${describe(token)}`, token.column);
  }

  expression(precedence = 0): Type {
    let left = this.unary();
    for (;;) {
      const token = this.current;
      if (token.kind === 'op' && (token.text === '|' || token.text === ';' || token.text === '=' || token.text === '#')) throw new Unchecked();
      if (token.kind === 'op' && token.text === 'not') {
        // `not in`, `not matches`, …
        const after = this.tokens[this.#index + 1];
        if (after === undefined || after.kind !== 'op' || !['in', 'matches', 'contains', 'startsWith', 'endsWith'].includes(after.text)) this.unexpected(token);
        const op = BINARY[after.text] as { precedence: number };
        if (op.precedence < precedence || op.precedence === precedence) return left;
        this.next();
        this.next();
        const rightToken = this.current;
        const right = this.expression(op.precedence + 1);
        left = binaryType(after.text, left, right, token.column, rightToken, this.regexp);
        continue;
      }
      const op = token.kind === 'op' ? BINARY[token.text] : undefined;
      if (op !== undefined && op.precedence >= precedence && !(op.precedence === precedence && op.right !== true)) {
        this.next();
        const rightToken = this.current;
        const right = this.expression(op.right === true ? op.precedence : op.precedence + 1);
        left = binaryType(token.text, left, right, token.column, rightToken, this.regexp);
        continue;
      }
      if (token.kind === 'op' && token.text === '?' && precedence === 0) {
        this.next();
        if (known(left) && left.kind !== 'bool') typeError(`non-bool expression (type ${typeName(left)}) used as condition`, token.column);
        const yes = this.expression();
        this.expect(':');
        const no = this.expression();
        left = yes.kind === no.kind && yes.kind !== 'func' ? yes : T.unknown;
        continue;
      }
      return left;
    }
  }

  unary(): Type {
    const token = this.current;
    if (token.kind === 'op' && (token.text === 'not' || token.text === '!')) {
      this.next();
      const operand = this.expression(50);
      if (known(operand) && operand.kind !== 'bool') typeError(`invalid operation: ${token.text} (mismatched type ${typeName(operand)})`, token.column);
      return T.bool;
    }
    if (token.kind === 'op' && (token.text === '-' || token.text === '+')) {
      this.next();
      const operand = this.expression(90);
      if (known(operand) && !isNumber(operand)) typeError(`invalid operation: ${token.text} (mismatched type ${typeName(operand)})`, token.column);
      return operand;
    }
    return this.postfix(this.primary());
  }

  primary(): Type {
    const token = this.next();
    switch (token.kind) {
      case 'number':
        return /[.eE]/.test(token.text) ? T.float : T.int;
      case 'string':
        return T.string;
      case 'name':
        return this.name(token);
      case 'op':
        if (token.text === '(') {
          const inner = this.expression();
          this.expect(')');
          return inner;
        }
        if (token.text === '[') {
          this.list(']');
          return T.array;
        }
        if (token.text === '{') {
          // A map literal `{key: value}`; a closure `{ # > 0 }` is not judged.
          if (this.peek().text === '}') {
            this.next();
            return T.map;
          }
          for (;;) {
            const key = this.next();
            if (key.kind !== 'name' && key.kind !== 'string' && key.kind !== 'number') throw new Unchecked();
            if (this.peek().text !== ':') throw new Unchecked();
            this.next();
            this.expression();
            if (this.peek().text === ',') {
              this.next();
              if (this.peek().text === '}') break;
              continue;
            }
            break;
          }
          this.expect('}');
          return T.map;
        }
        if (token.text === '#' || token.text === '.') throw new Unchecked();
        return this.unexpected(token);
      default:
        return this.unexpected(token);
    }
  }

  /** `a, b, c` up to `close`, each an expression; their types. */
  list(close: string): Type[] {
    const types: Type[] = [];
    if (this.peek().text === close && this.peek().kind === 'op') {
      this.next();
      return types;
    }
    for (;;) {
      types.push(this.expression());
      const token = this.next();
      if (token.text === close && token.kind === 'op') return types;
      if (token.text !== ',' || token.kind !== 'op') this.unexpected(token);
      if (this.peek().text === close && this.peek().kind === 'op') {
        this.next();
        return types;
      }
    }
  }

  name(token: Token): Type {
    switch (token.text) {
      case 'true':
      case 'false':
        return T.bool;
      case 'nil':
        return T.nil;
      case 'let':
      case 'if':
      case 'else':
        throw new Unchecked();
    }
    const environment = Object.hasOwn(ENVIRONMENT, token.text) ? ENVIRONMENT[token.text] : undefined;
    const called = this.peek().kind === 'op' && this.peek().text === '(';
    if (environment === undefined) {
      if (BUILTINS.has(token.text) && called) {
        this.next();
        this.list(')');
        return T.unknown;
      }
      typeError(`unknown name ${token.text}`, token.column);
      if (called) {
        this.next();
        this.list(')');
      }
      return T.unknown;
    }
    if (!called || environment.kind !== 'func') return environment;
    this.next();
    const args: { type: Type; column: number }[] = [];
    if (!(this.peek().kind === 'op' && this.peek().text === ')')) {
      for (;;) {
        const column = this.peek().column;
        args.push({ type: this.expression(), column });
        const separator = this.next();
        if (separator.kind === 'op' && separator.text === ')') break;
        if (separator.kind !== 'op' || separator.text !== ',') this.unexpected(separator);
      }
    } else this.next();
    if (args.length < environment.params.length) typeError(`not enough arguments to call ${environment.name}`, token.column);
    if (args.length > environment.params.length) typeError(`too many arguments to call ${environment.name}`, token.column);
    environment.params.forEach((param, index) => {
      const arg = args[index];
      if (arg !== undefined && known(arg.type) && arg.type.kind !== 'nil' && arg.type.kind !== param.kind) typeError(`cannot use ${typeName(arg.type)} as argument (type ${typeName(param)}) to call ${environment.name}`, arg.column);
    });
    return environment.result;
  }

  postfix(type: Type): Type {
    let current = type;
    for (;;) {
      const token = this.current;
      if (token.kind !== 'op') return current;
      if (token.text === '.' || token.text === '?.') {
        this.next();
        const member = this.next();
        if (member.kind !== 'name') this.unexpected(member);
        if (current.kind !== 'map' && current.kind !== 'unknown') throw new Unchecked();
        current = T.unknown;
        continue;
      }
      if (token.text === '[') {
        this.next();
        if (this.peek().text === ':') throw new Unchecked();
        this.expression();
        if (this.peek().text === ':') throw new Unchecked();
        this.expect(']');
        current = current.kind === 'string' ? T.string : T.unknown;
        continue;
      }
      if (token.text === '(') throw new Unchecked();
      return current;
    }
  }
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'name':
      return `Identifier("${token.text}")`;
    case 'number':
      return `Number("${token.text}")`;
    case 'string':
      return `String(${JSON.stringify(token.value ?? '')})`;
    default:
      return WORD_OPERATORS.has(token.text) ? `Operator("${token.text}")` : `Bracket("${token.text}")`;
  }
}

/** Judges the expression `text` (the `expr` line's words joined with spaces) as the view plugin compiles it. */
export function judgeViewExpression(text: string, regexp: GoRegexpOptions): ViewExpressionVerdict {
  try {
    const tokens = tokenize(text);
    for (const types of [false, true]) {
      checkingTypes = types;
      const parser = new Parser(tokens, regexp);
      parser.expression();
      const rest = parser.current;
      if (rest.kind !== 'eof') {
        if (rest.kind === 'op' && ['|', ';', '#', '='].includes(rest.text)) return { kind: 'unchecked' };
        parser.unexpected(rest);
      }
    }
    return { kind: 'ok' };
  } catch (error) {
    if (error instanceof Refused) return { kind: 'refused', reason: error.reason, column: error.column };
    if (error instanceof Unchecked) return { kind: 'unchecked' };
    throw error;
  } finally {
    checkingTypes = true;
  }
}
