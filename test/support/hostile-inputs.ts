/**
 * Inputs built to hurt, shared by the tests of every consumer (docs/corefile-model.md, "Snippet
 * expansion"; docs/cli.md, "Limits").
 */

/**
 * `levels` snippets, each importing the one before `fanOut` times, and a server block importing the
 * last: `fanOut ** levels` directives once expanded (6 × 10: 60 million, from under 1 KB).
 */
export function fanOutCorefile(fanOut: number, levels: number): string {
  let text = '(s0) {\n    log\n}\n';
  for (let level = 1; level <= levels; level += 1) text += `(s${level}) {\n${`    import s${level - 1}\n`.repeat(fanOut)}}\n`;
  return `${text}.:53 {\n    import s${levels}\n    forward . 8.8.8.8\n}\n`;
}

/** A chain of `depth` snippets, each importing the one before; the first holds `directive`. */
export function snippetChain(depth: number, directive: string): string {
  let text = `(s0) {\n    ${directive}\n}\n`;
  for (let level = 1; level <= depth; level += 1) text += `(s${level}) {\n    import s${level - 1}\n}\n`;
  return `${text}.:53 {\n    import s${depth}\n}\n`;
}

/**
 * The lines of a nested-alias bomb ("billion laughs"), each prefixed with `indent`: `x0: &b0` a flow
 * list of `fanOut` strings, then `levels` keys each a list of `fanOut` aliases of the one before:
 * `fanOut ** (levels + 1)` strings once expanded (10 × 9 levels: 10 billion, from under 1 KB).
 */
export function aliasBombLines(levels: number, fanOut = 10, indent = ''): string[] {
  const lines = [`${indent}x0: &b0 [${Array(fanOut).fill('"lol"').join(',')}]`];
  for (let level = 1; level <= levels; level += 1) lines.push(`${indent}x${level}: &b${level} [${Array(fanOut).fill(`*b${level - 1}`).join(',')}]`);
  return lines;
}

/**
 * Mapping lines (prefixed with `indent`) that kubectl's reader just accepts: 4,000 plain strings,
 * then aliases that bring in 380,000 more nodes, a share just under the 99% go-yaml allows. `uses`
 * 3 instead of 2 passes its bound (kubectl 1.32.4 agrees on both).
 */
export function nearAliasLimitLines(indent = '', uses = 2): string[] {
  const lines = [`${indent}pad: [${Array.from({ length: 4000 }, (_, index) => `p${index}`).join(',')}]`, `${indent}a0: &a0 [${Array(10).fill('x').join(',')}]`];
  for (let level = 1; level <= 4; level += 1) lines.push(`${indent}a${level}: &a${level} [${Array(10).fill(`*a${level - 1}`).join(',')}]`);
  lines.push(`${indent}u: [${Array(uses).fill('*a4').join(',')}]`);
  return lines;
}
