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
