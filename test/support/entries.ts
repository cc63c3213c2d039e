/**
 * The package's entry points, as package.json `exports` maps them (src/ for the tests): the main
 * entry and its four subpaths. `ALL` is every name of every entry in one object.
 */
import * as corefile from '../../src/corefile/index.js';
import * as main from '../../src/index.js';
import * as platform from '../../src/platform/index.js';
import * as releases from '../../src/releases.js';
import * as routing from '../../src/routing/index.js';

export const ENTRIES = { '.': main, './corefile': corefile, './routing': routing, './releases': releases, './platform': platform } as const;

export const ALL = { ...main, ...corefile, ...routing, ...releases, ...platform };

/** The source module of each name a program imports (package.json `exports`, pointed at src/). */
export const ENTRY_SOURCES: Readonly<Record<string, string>> = {
  'kube-dns-to-coredns': 'src/index.js',
  'kube-dns-to-coredns/corefile': 'src/corefile/index.js',
  'kube-dns-to-coredns/routing': 'src/routing/index.js',
  'kube-dns-to-coredns/releases': 'src/releases.js',
  'kube-dns-to-coredns/platform': 'src/platform/index.js',
};

/**
 * `code` with every `from 'kube-dns-to-coredns…'` pointed elsewhere: `target` maps the imported
 * name to a module specifier. Throws for a subpath package.json does not export.
 */
export function pointPackageImports(code: string, target: (entry: string) => string): string {
  return code.replaceAll(/from '(kube-dns-to-coredns(?:\/[a-z]+)?)'/g, (_whole, entry: string) => {
    if (!Object.hasOwn(ENTRY_SOURCES, entry)) throw new Error(`${entry} is not an entry package.json exports`);
    return `from ${JSON.stringify(target(entry))}`;
  });
}
