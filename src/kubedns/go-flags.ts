/**
 * Command-line flags read the way Go programs read them: `spf13/pflag` (kube-dns, the sidecar) and
 * Go's standard `flag` package (dnsmasq-nanny). Pure: the caller names the flags and their kinds,
 * the reader returns every token's outcome — a flag set, a positional argument, or an error.
 */

/** `bool` flags take no separate value (`--x` means true, `--x=false` sets false). */
export type FlagKind = 'bool' | 'value';

export interface FlagSpec {
  readonly name: string;
  readonly kind: FlagKind;
}

export type FlagSyntax = 'pflag' | 'go-flag';

export interface FlagSetting {
  /** The flag's name as declared (after pflag's `_` → `-` normalisation). */
  readonly name: string;
  readonly value: string;
  /** Index in the argument list of the token naming the flag (the value may be the next token). */
  readonly index: number;
  /** True when the value was the next token (`--flag value`). */
  readonly separateValue: boolean;
}

export type FlagProblem =
  | { readonly kind: 'unknown-flag'; readonly index: number; readonly token: string; readonly name: string }
  | { readonly kind: 'missing-value'; readonly index: number; readonly token: string; readonly name: string }
  | { readonly kind: 'bad-syntax'; readonly index: number; readonly token: string }
  | { readonly kind: 'help'; readonly index: number; readonly token: string };

export interface ParsedFlags {
  /** Settings in command-line order; a flag given twice appears twice (the last one wins for a plain value). */
  readonly settings: readonly FlagSetting[];
  /** Arguments that are not flags, with their indices. */
  readonly positional: readonly { readonly index: number; readonly value: string }[];
  /**
   * The first problem: both libraries stop at it and the program exits without starting
   * (pflag and `flag` are used with exit-on-error). Tokens after it are not read.
   */
  readonly problem: FlagProblem | undefined;
  /**
   * Go `flag` stops at the first argument that is not a flag (or after `--`); the rest is in
   * `positional`, and `stoppedAt` is its index. pflag reads flags after positional arguments too.
   */
  readonly stoppedAt: number | undefined;
}

/**
 * `args` (without the program name) read as `syntax` reads them against `flags`.
 * pflag: `--name=value`, `--name value`, `-n` shorthands for one-letter Go flags (`-v=2`, `-v 2`,
 * `-v2`), names with `_` normalised to `-`, flags and positional arguments may interleave, `--` ends
 * the flags. Go `flag`: `-name` and `--name` alike, `=value` or the next token, parsing stops at the
 * first non-flag token or after `--`.
 */
export function parseGoFlags(args: readonly string[], flags: readonly FlagSpec[], syntax: FlagSyntax): ParsedFlags {
  const normalise = (name: string): string => (syntax === 'pflag' ? name.replaceAll('_', '-') : name);
  const byName = new Map(flags.map((flag) => [normalise(flag.name), { ...flag, name: normalise(flag.name) }]));
  const settings: FlagSetting[] = [];
  const positional: { index: number; value: string }[] = [];
  let problem: FlagProblem | undefined;
  let stoppedAt: number | undefined;

  const restPositional = (from: number): void => {
    stoppedAt = from;
    for (let index = from; index < args.length; index++) positional.push({ index, value: args[index] as string });
  };

  let index = 0;
  while (index < args.length && problem === undefined) {
    const token = args[index] as string;
    const isFlagLike = syntax === 'pflag' ? token.length > 1 && token.startsWith('-') : token.length >= 2 && token.startsWith('-');
    if (!isFlagLike) {
      if (syntax === 'go-flag') {
        restPositional(index);
        break;
      }
      positional.push({ index, value: token });
      index++;
      continue;
    }
    if (token === '--') {
      restPositional(index + 1);
      break;
    }
    const long = token.startsWith('--');
    if (syntax === 'pflag' && !long) {
      // Shorthands: pflag gives each one-letter Go flag its letter. Bool shorthands combine (`-ab`).
      let letters = token.slice(1);
      let consumed = 1;
      while (letters.length > 0 && problem === undefined) {
        const letter = letters[0] as string;
        const flag = byName.get(letter);
        if (flag === undefined) {
          problem = letter === 'h' ? { kind: 'help', index, token } : { kind: 'unknown-flag', index, token, name: letter };
        } else if (letters[1] === '=') {
          settings.push({ name: flag.name, value: letters.slice(2), index, separateValue: false });
          letters = '';
        } else if (flag.kind === 'bool') {
          settings.push({ name: flag.name, value: 'true', index, separateValue: false });
          letters = letters.slice(1);
        } else if (letters.length > 1) {
          settings.push({ name: flag.name, value: letters.slice(1), index, separateValue: false });
          letters = '';
        } else if (index + 1 < args.length) {
          settings.push({ name: flag.name, value: args[index + 1] as string, index, separateValue: true });
          letters = '';
          consumed = 2;
        } else {
          problem = { kind: 'missing-value', index, token, name: flag.name };
        }
      }
      index += consumed;
      continue;
    }
    const body = token.slice(long ? 2 : 1);
    if (body === '' || body.startsWith('-') || body.startsWith('=')) {
      problem = { kind: 'bad-syntax', index, token };
      break;
    }
    const equals = body.indexOf('=');
    const rawName = equals === -1 ? body : body.slice(0, equals);
    const name = normalise(rawName);
    const flag = byName.get(name);
    if (flag === undefined) {
      const isHelp = name === 'help' || (syntax === 'go-flag' && name === 'h');
      problem = isHelp ? { kind: 'help', index, token } : { kind: 'unknown-flag', index, token, name: rawName };
      break;
    }
    if (equals !== -1) {
      settings.push({ name: flag.name, value: body.slice(equals + 1), index, separateValue: false });
      index++;
    } else if (flag.kind === 'bool') {
      settings.push({ name: flag.name, value: 'true', index, separateValue: false });
      index++;
    } else if (index + 1 < args.length) {
      // The next token is the value even when it starts with `-`.
      settings.push({ name: flag.name, value: args[index + 1] as string, index, separateValue: true });
      index += 2;
    } else {
      problem = { kind: 'missing-value', index, token, name: flag.name };
    }
  }
  return { settings, positional, problem, stoppedAt };
}

/** Go's `strconv.ParseBool`, which both libraries use for bool flags. */
export function goParseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/**
 * An int flag's value as both libraries read it (`strconv.ParseInt(s, 0, 64)`): decimal, `0x`, `0o`,
 * `0b`, or a leading `0` for octal. Go also accepts `_` between digits after a base prefix; those
 * forms are refused here (undefined), as are values outside the safe integer range.
 */
export function goParseInt(text: string): number | undefined {
  const match = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]*)|([1-9][0-9]*))$/.exec(text);
  if (match === null) return undefined;
  const [, sign, hex, octal, binary, leadingZeroOctal, decimal] = match;
  const value =
    hex !== undefined ? Number.parseInt(hex, 16)
    : octal !== undefined ? Number.parseInt(octal, 8)
    : binary !== undefined ? Number.parseInt(binary, 2)
    : leadingZeroOctal !== undefined ? (leadingZeroOctal === '' ? 0 : Number.parseInt(leadingZeroOctal, 8))
    : Number.parseInt(decimal as string, 10);
  const signed = sign === '-' ? -value : value;
  return Number.isSafeInteger(signed) ? signed : undefined;
}
