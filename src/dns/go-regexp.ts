/**
 * Whether Go's `regexp.Compile` accepts a pattern: the syntax of Go's `regexp/syntax` parser with
 * the Perl flags `regexp.Compile` uses (RE2 syntax: no backreferences, no lookaround, `\Q…\E`,
 * `(?flags)`, `(?P<name>…)`, POSIX classes inside brackets, `\pN`/`\p{Name}`). CoreDNS plugins
 * (rewrite, template, errors) compile their patterns with it at start-up and stop on an error.
 * JavaScript's RegExp is another language (it accepts `\1`, `(?=…)`, `a**` is refused by both for
 * other reasons…), so this is a parser of its own, following the structure of Go's
 * `regexp/syntax/parse.go` (golang/go, Go 1.19–1.26): the same stack of operands and markers, so
 * that "missing argument to repetition operator" and "unexpected )" fall where Go's do.
 *
 * Not modelled (Go refuses them only at sizes no Corefile reaches): the nesting-depth bound (1000)
 * and the program-size bound of Go ≥ 1.19. Names after `\p` are judged against the union of the
 * Unicode categories and scripts of the Go releases CoreDNS builds with (a script newer than a
 * release's Go is not flagged); Go ≥ 1.25 also takes aliases (`\p{Letter}`), which callers allow
 * with {@link GoRegexpOptions.lenientClassNames}.
 *
 * Go works on UTF-8 bytes, this on UTF-16 code units: every construct the grammar gives meaning
 * to is ASCII, so the verdict is the same (a lone surrogate, which Go would see as invalid UTF-8,
 * is not judged).
 *
 * Pure: no Node APIs.
 */

export interface GoRegexpOptions {
  /** `(?<name>…)` is a named group (Go ≥ 1.22); before, `(?<` is "invalid or unsupported Perl syntax". */
  readonly angleNamedGroups?: boolean;
  /** Any non-empty `\p{…}` name is accepted (Go ≥ 1.25 takes aliases and ignores case). */
  readonly lenientClassNames?: boolean;
}

export type GoRegexpVerdict =
  | { readonly ok: true; /** Capturing groups (Go's `NumSubexp`). */ readonly groups: number }
  | { readonly ok: false; /** Go's message, e.g. "missing closing ): `(.*`". */ readonly error: string };

/** A node of the parse, as far as the checks need it (the repeat-size check walks repeats). */
interface Node {
  readonly op: 'leaf' | 'repeat' | 'group' | 'lparen' | 'vbar';
  readonly subs: readonly Node[];
  /** For a counted `repeat`: its largest count (`{n,m}`: m; `{n,}`: -1). */
  readonly max: number;
  readonly min: number;
}

const LEAF: Node = { op: 'leaf', subs: [], max: 0, min: 0 };
const LPAREN: Node = { op: 'lparen', subs: [], max: 0, min: 0 };
const VBAR: Node = { op: 'vbar', subs: [], max: 0, min: 0 };

/** Go's refusal, thrown inside the parser and caught by {@link judgeGoRegexp} (never leaves this module). */
class GoRegexpRefusal {
  constructor(readonly message: string) {}
}

const fail = (code: string, expr: string): never => {
  throw new GoRegexpRefusal(`error parsing regexp: ${code}: \`${expr}\``);
};

/** Judges `pattern` as Go's `regexp.Compile` would. */
export function judgeGoRegexp(pattern: string, options: GoRegexpOptions = {}): GoRegexpVerdict {
  try {
    return { ok: true, groups: parse(pattern, options) };
  } catch (error) {
    if (error instanceof GoRegexpRefusal) return { ok: false, error: error.message };
    throw error;
  }
}

const isPseudo = (node: Node | undefined) => node !== undefined && (node.op === 'lparen' || node.op === 'vbar');

function parse(pattern: string, options: GoRegexpOptions): number {
  const stack: Node[] = [];
  let groups = 0;
  let t = pattern;
  let lastRepeat = '';
  /** Go's concat: the operands above the last marker become one (an empty one if none). */
  const concat = () => {
    let i = stack.length;
    while (i > 0 && !isPseudo(stack[i - 1])) i -= 1;
    const subs = stack.splice(i);
    stack.push(subs.length === 1 ? (subs[0] as Node) : { op: 'group', subs, max: 0, min: 0 });
  };
  /** Go's alternate: the operands above the last marker become one alternation. */
  const alternate = () => {
    let i = stack.length;
    while (i > 0 && !isPseudo(stack[i - 1])) i -= 1;
    const subs = stack.splice(i);
    stack.push(subs.length === 1 ? (subs[0] as Node) : { op: 'group', subs, max: 0, min: 0 });
  };
  /** Go's swapVerticalBar: a `|` below the top operand changes place with it. */
  const swapVerticalBar = (): boolean => {
    const n = stack.length;
    if (n >= 2 && stack[n - 2]?.op === 'vbar') {
      stack[n - 2] = stack[n - 1] as Node;
      stack[n - 1] = VBAR;
      return true;
    }
    return false;
  };
  const repeat = (min: number, max: number, before: string, after: string, counted: boolean): string => {
    let rest = after;
    if (rest.startsWith('?')) rest = rest.slice(1);
    if (lastRepeat !== '') fail('invalid nested repetition operator', lastRepeat.slice(0, lastRepeat.length - rest.length));
    const top = stack[stack.length - 1];
    if (top === undefined || isPseudo(top)) fail('missing argument to repetition operator', before.slice(0, before.length - rest.length));
    const node: Node = counted ? { op: 'repeat', subs: [top as Node], min, max } : { op: 'group', subs: [top as Node], min: 0, max: 0 };
    stack[stack.length - 1] = node;
    if (counted && (min >= 2 || max >= 2) && !repeatIsValid(node, 1000)) fail('invalid repeat count', before.slice(0, before.length - rest.length));
    return rest;
  };
  while (t !== '') {
    let repeated = '';
    const c = t[0] as string;
    switch (c) {
      case '(':
        if (t.length >= 2 && t[1] === '?') {
          const flags = perlFlags(t, options);
          if (flags.group === 'capture') groups += 1;
          if (flags.group !== 'none') stack.push(LPAREN);
          t = flags.rest;
          break;
        }
        groups += 1;
        stack.push(LPAREN);
        t = t.slice(1);
        break;
      case '|':
        concat();
        if (!swapVerticalBar()) stack.push(VBAR);
        t = t.slice(1);
        break;
      case ')': {
        concat();
        if (swapVerticalBar()) stack.pop();
        alternate();
        const n = stack.length;
        if (n < 2 || stack[n - 2]?.op !== 'lparen') fail('unexpected )', pattern);
        const inner = stack[n - 1] as Node;
        stack.splice(n - 2, 2, { op: 'group', subs: [inner], max: 0, min: 0 });
        t = t.slice(1);
        break;
      }
      case '^':
      case '$':
      case '.':
        stack.push(LEAF);
        t = t.slice(1);
        break;
      case '[':
        t = parseClass(t, options);
        stack.push(LEAF);
        break;
      case '*':
      case '+':
      case '?': {
        const before = t;
        t = repeat(0, 0, before, t.slice(1), false);
        repeated = before;
        break;
      }
      case '{': {
        const before = t;
        const counts = parseRepeat(t);
        if (counts === undefined) {
          stack.push(LEAF);
          t = t.slice(1);
          break;
        }
        const { min, max, rest } = counts;
        if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) fail('invalid repeat count', before.slice(0, before.length - rest.length));
        t = repeat(min, max, before, rest, true);
        repeated = before;
        break;
      }
      case '\\': {
        const next = t[1];
        if (next === 'A' || next === 'b' || next === 'B' || next === 'z') {
          stack.push(LEAF);
          t = t.slice(2);
          break;
        }
        if (next === 'C') fail('invalid escape sequence', t.slice(0, 2));
        if (next === 'Q') {
          const end = t.indexOf('\\E', 2);
          const literal = end === -1 ? t.slice(2) : t.slice(2, end);
          for (let index = 0; index < literal.length; index += 1) stack.push(LEAF);
          t = end === -1 ? '' : t.slice(end + 2);
          break;
        }
        const unicode = unicodeClass(t, options);
        if (unicode !== undefined) {
          stack.push(LEAF);
          t = unicode;
          break;
        }
        if (next !== undefined && PERL_CLASSES.has(next)) {
          stack.push(LEAF);
          t = t.slice(2);
          break;
        }
        t = parseEscape(t);
        stack.push(LEAF);
        break;
      }
      default:
        stack.push(LEAF);
        t = t.slice(c.length);
    }
    lastRepeat = repeated;
  }
  concat();
  if (swapVerticalBar()) stack.pop();
  alternate();
  if (stack.length !== 1) fail('missing closing )', pattern);
  return groups;
}

/** Go's repeatIsValid: nested counted repeats may not multiply past `n`. */
function repeatIsValid(node: Node, n: number): boolean {
  let bound = n;
  if (node.op === 'repeat') {
    if (node.max === 0) return true;
    let m = node.max;
    if (m < 0) m = node.min;
    if (m > bound) return false;
    if (m > 0) bound = Math.trunc(bound / m);
  }
  return node.subs.every((sub) => repeatIsValid(sub, bound));
}

/** `(?…`: a named group, flags, or a non-capturing group. */
function perlFlags(s: string, options: GoRegexpOptions): { group: 'capture' | 'plain' | 'none'; rest: string } {
  const python = s.length > 4 && s[2] === 'P' && s[3] === '<';
  const angle = options.angleNamedGroups === true && s.length > 3 && s[2] === '<';
  if (python || angle) {
    const begin = python ? 4 : 3;
    const end = s.indexOf('>');
    if (end < 0) fail('invalid named capture', s);
    const name = s.slice(begin, end);
    if (!/^[A-Za-z0-9_]+$/.test(name)) fail('invalid named capture', s.slice(0, end + 1));
    return { group: 'capture', rest: s.slice(end + 1) };
  }
  let t = s.slice(2);
  let negated = false;
  let sawFlag = false;
  while (t !== '') {
    const c = t[0] as string;
    t = t.slice(1);
    if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
      sawFlag = true;
      continue;
    }
    if (c === '-') {
      if (negated) break;
      negated = true;
      sawFlag = false;
      continue;
    }
    if (c === ':' || c === ')') {
      if (negated && !sawFlag) break;
      return { group: c === ':' ? 'plain' : 'none', rest: t };
    }
    break;
  }
  return fail('invalid or unsupported Perl syntax', s.slice(0, s.length - t.length));
}

/** `{n}`, `{n,}`, `{n,m}` (no leading zeros); anything else leaves `{` a literal. */
function parseRepeat(s: string): { min: number; max: number; rest: string } | undefined {
  const match = /^\{(0|[1-9][0-9]*)(?:(,)(0|[1-9][0-9]*)?)?\}/.exec(s);
  if (match === null) return undefined;
  const number = (digits: string) => (digits.length > 8 && Number(digits) >= 1e8 ? -1 : Number(digits));
  const min = number(match[1] as string);
  let max = match[2] === undefined ? min : match[3] === undefined ? -1 : number(match[3]);
  let low = min;
  if (match[2] !== undefined && match[3] !== undefined && max < 0) low = -1;
  if (match[2] === undefined) max = min;
  return { min: low, max, rest: s.slice(match[0].length) };
}

const PERL_CLASSES: ReadonlySet<string> = new Set(['d', 'D', 's', 'S', 'w', 'W']);

/** An escape that stands for one character (Go's parseEscape); returns the rest. */
function parseEscape(s: string): string {
  const t = s.slice(1);
  if (t === '') fail('trailing backslash at end of expression', '');
  const c = t[0] as string;
  const rest = t.slice(1);
  const code = c.charCodeAt(0);
  if (code < 0x80 && !/[A-Za-z0-9]/.test(c)) return rest;
  if (c >= '1' && c <= '7' && !(rest !== '' && rest[0] !== undefined && rest[0] >= '0' && rest[0] <= '7')) {
    return fail('invalid escape sequence', s.slice(0, 2));
  }
  if (c >= '0' && c <= '7') {
    let r = rest;
    for (let index = 1; index < 3 && r !== '' && (r[0] as string) >= '0' && (r[0] as string) <= '7'; index += 1) r = r.slice(1);
    return r;
  }
  if (c === 'x') {
    if (rest.startsWith('{')) {
      const braced = /^\{([0-9A-Fa-f]+)\}/.exec(rest);
      if (braced !== null && parseInt(braced[1] as string, 16) <= 0x10ffff) return rest.slice(braced[0].length);
      const upTo = /^\{[0-9A-Fa-f]*\}?/.exec(rest)?.[0] ?? '{';
      return fail('invalid escape sequence', s.slice(0, 2 + Math.min(upTo.length + 1, rest.length)));
    }
    if (/^[0-9A-Fa-f]{2}/.test(rest)) return rest.slice(2);
    return fail('invalid escape sequence', s.slice(0, Math.min(s.length, 4)));
  }
  if ('afnrtv'.includes(c)) return rest;
  return fail('invalid escape sequence', s.slice(0, 1 + c.length));
}

/** `\pL`, `\p{Greek}`, `\P{^Han}`: the rest after it, or undefined when `s` starts no such class. */
function unicodeClass(s: string, options: GoRegexpOptions): string | undefined {
  if (s.length < 2 || s[0] !== '\\' || (s[1] !== 'p' && s[1] !== 'P')) return undefined;
  const t = s.slice(2);
  let name: string;
  let seq: string;
  let rest: string;
  if (t[0] !== '{') {
    const c = t === '' ? '' : String.fromCodePoint(t.codePointAt(0) as number);
    name = c;
    seq = s.slice(0, 2 + c.length);
    rest = t.slice(c.length);
  } else {
    const end = s.indexOf('}');
    if (end < 0) fail('invalid character class range', s);
    seq = s.slice(0, end + 1);
    rest = s.slice(end + 1);
    name = s.slice(3, end);
  }
  if (name.startsWith('^')) name = name.slice(1);
  const known = name === 'Any' || UNICODE_CATEGORIES.has(name) || UNICODE_SCRIPTS.has(name) || (options.lenientClassNames === true && name !== '');
  if (!known) fail('invalid character class range', seq);
  return rest;
}

/** `[…]` (Go's parseClass); returns the rest after `]`. */
function parseClass(s: string, options: GoRegexpOptions): string {
  let t = s.slice(1);
  if (t.startsWith('^')) t = t.slice(1);
  let first = true;
  while (t === '' || t[0] !== ']' || first) {
    first = false;
    if (t.length > 2 && t[0] === '[' && t[1] === ':') {
      const end = t.indexOf(':]', 2);
      if (end >= 0) {
        const name = t.slice(0, end + 2);
        if (!POSIX_CLASSES.has(name.replace(/^\[:\^/, '[:'))) fail('invalid character class range', name);
        t = t.slice(end + 2);
        continue;
      }
    }
    const unicode = unicodeClass(t, options);
    if (unicode !== undefined) {
      t = unicode;
      continue;
    }
    if (t[0] === '\\' && t[1] !== undefined && PERL_CLASSES.has(t[1])) {
      t = t.slice(2);
      continue;
    }
    const range = t;
    const low = classChar(t, s);
    t = low.rest;
    if (t.length >= 2 && t[0] === '-' && t[1] !== ']') {
      t = t.slice(1);
      const high = classChar(t, s);
      t = high.rest;
      if (high.code < low.code) fail('invalid character class range', range.slice(0, range.length - t.length));
    }
  }
  return t.slice(1);
}

/** One character of a class, plain or escaped, with its code point. */
function classChar(s: string, whole: string): { code: number; rest: string } {
  if (s === '') fail('missing closing ]', whole);
  if (s[0] === '\\') {
    const rest = parseEscape(s);
    return { code: escapedCode(s.slice(1, s.length - rest.length)), rest };
  }
  const code = s.codePointAt(0) as number;
  return { code, rest: s.slice(code > 0xffff ? 2 : 1) };
}

/** The code point of an escape's body (after the backslash), already known to be valid. */
function escapedCode(body: string): number {
  const c = body[0] as string;
  if (c >= '0' && c <= '7') return parseInt(body, 8);
  if (c === 'x') return parseInt(body.replace(/^x\{?|\}$/g, ''), 16);
  const controls: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
  return controls[c] ?? c.codePointAt(0) ?? 0;
}

const POSIX_CLASSES: ReadonlySet<string> = new Set(
  ['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit'].map((name) => `[:${name}:]`),
);

/** Go's unicode.Categories keys. */
const UNICODE_CATEGORIES: ReadonlySet<string> = new Set([
  'C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd', 'Nl', 'No',
  'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs',
]);

/** Go's unicode.Scripts keys: the union over Unicode 6.3–16.0 (Go 1.5–1.26). */
const UNICODE_SCRIPTS: ReadonlySet<string> = new Set(
  (
    'Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid ' +
    'Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari ' +
    'Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Garay Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi Gurmukhi ' +
    'Gurung_Khema Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inherited Inscriptional_Pahlavi Inscriptional_Parthian Javanese ' +
    'Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki Khudawadi Kirat_Rai Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian ' +
    'Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs ' +
    'Miao Modi Mongolian Mro Multani Myanmar Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Ol_Onal ' +
    'Old_Hungarian Old_Italic Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong ' +
    'Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian ' +
    'Sora_Sompeng Soyombo Sundanese Sunuwar Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan ' +
    'Tifinagh Tirhuta Todhri Toto Tulu_Tigalari Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square'
  ).split(' '),
);
