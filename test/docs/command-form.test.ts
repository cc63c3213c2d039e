import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs run the CLI one way: `npx kube-dns-to-coredns …`, which works after a local install
 * (`npm install kube-dns-to-coredns`, or from a tarball) and globally alike; a bare
 * `kube-dns-to-coredns …` only works when the package's bin directory is on the PATH.
 */
const root = join(import.meta.dirname, '../..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

/** Command lines of `markdown` that start the CLI without npx, as `line N: text`. */
function bareCommands(markdown: string): string[] {
  const found: string[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((line, index) => {
    const opening = /^```(\w*)/.exec(line);
    if (opening !== null) {
      fence = fence === undefined ? (opening[1] ?? '') : undefined;
      return;
    }
    const shellish = fence === undefined ? false : ['', 'sh', 'bash', 'shell', 'console'].includes(fence);
    // In a shell block: the program at the start of a command (line start, `$ `, after a pipe, `&&`, `;`, `$(`).
    const inBlock = shellish && /(?:^\s*|\$ |\| |&& |; |\$\()kube-dns-to-coredns (?=\S)/.test(line);
    // In prose: an inline code span that starts with the program and an argument.
    const inline = fence === undefined && /`kube-dns-to-coredns [^`]/.test(line);
    if (inBlock || inline) found.push(`line ${index + 1}: ${line}`);
  });
  return found;
}

describe('CLI invocations in the docs', () => {
  it('recognises a bare command, and not npx, output or the package name', () => {
    expect(bareCommands('```sh\nkube-dns-to-coredns lint Corefile\ncat cm | kube-dns-to-coredns -\n```\n')).toHaveLength(2);
    expect(bareCommands('Run `kube-dns-to-coredns fmt` first.\n')).toHaveLength(1);
    expect(bareCommands('```\n$ kube-dns-to-coredns check --kube-dns a\n```\n')).toHaveLength(1);
    expect(
      bareCommands(
        '```sh\nnpx kube-dns-to-coredns lint Corefile\nnpm install kube-dns-to-coredns\n```\n```\nkube-dns-to-coredns: cm.yaml:3:3: bad\n```\n' +
          "```ts\nimport { lintCorefile } from 'kube-dns-to-coredns';\n```\nThe package `kube-dns-to-coredns` and `npx kube-dns-to-coredns fmt`.\n",
      ),
    ).toEqual([]);
  });

  it.each(pages)('%s runs the CLI as `npx kube-dns-to-coredns`', (page) => {
    expect(bareCommands(readFileSync(join(root, page), 'utf8'))).toEqual([]);
  });
});
