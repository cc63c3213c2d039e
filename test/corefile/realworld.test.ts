import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corefilesEqual } from '../../src/corefile/compare.js';
import { CorefileSyntaxError } from '../../src/corefile/errors.js';
import { formatCorefile } from '../../src/corefile/format.js';
import type { ServerBlock } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { parseServerKey } from '../../src/corefile/server-key.js';
import { referenceParse } from './support/caddy-reference.js';

const directory = join(import.meta.dirname, '../../golden/realworld/corefiles');
const files = readdirSync(directory).filter((file) => file.endsWith('.Corefile'));

/** What CoreDNS's parser (without a plugin list) said about the files it refuses (README table). */
const REFUSED: Readonly<Record<string, string>> = {
  '03-coredns-deployment-k8s-2018-glued-FEDERATIONS-STUBDOMAINS-placeholders.Corefile': 'Unexpected EOF',
  '04-coredns-deployment-k8s-current-placeholders-max-concurrent.Corefile': "Syntax error: Unexpected token '}STUBDOMAINS', expecting '}'",
  '28-aks-docs-yaml-plain-scalar-folded-to-one-line.Corefile': "Unexpected '}' because no matching opening brace",
};

function read(file: string): string {
  return readFileSync(join(directory, file), 'utf8');
}

describe('the real-world Corefiles', () => {
  it('are all here', () => {
    expect(files).toHaveLength(40);
  });

  it.each(files)('%s: fmt keeps the model and what CoreDNS reads, and is idempotent', (file) => {
    const text = read(file);
    const refusal = REFUSED[file];
    if (refusal !== undefined) {
      expect(() => parseCorefile(text, { filename: file })).toThrow(CorefileSyntaxError);
      expect(() => parseCorefile(text)).toThrow(refusal);
      expect(referenceParse(text)).toMatchObject({ ok: false });
      return;
    }
    const { corefile } = parseCorefile(text, { filename: file });
    const formatted = formatCorefile(text).text;
    expect(corefilesEqual(parseCorefile(formatted).corefile, corefile)).toBe(true);
    expect(formatCorefile(formatted)).toMatchObject({ text: formatted, unchanged: true });
    expect(referenceParse(formatted)).toEqual(referenceParse(text));
    expect(formatted).toMatchSnapshot();
  });

  it('keeps snippets, imports, placeholders and comments as written', () => {
    const snippets = parseCorefile(read('11-af3556-snippets-colon-names-comments-duplicate-keys.Corefile')).corefile;
    expect(snippets.items.filter((item) => item.kind === 'snippet').map((item) => (item.kind === 'snippet' ? item.name : ''))).toContain('corp:example:com');
    const env = parseCorefile(read('15-mrroundrobin-env-placeholders-in-keys-and-args-snippet.Corefile')).corefile;
    const zones = env.items[1] as ServerBlock;
    expect(zones.keys).toHaveLength(62);
    expect(zones.keys.at(-1)).toBe('{$ADDITIONAL_ZONES}');
    const globs = parseCorefile(read('29-vijayrod-aks-default-import-custom-globs.Corefile')).corefile;
    expect(globs.items.map((item) => item.kind)).toEqual(['server-block', 'import']);
    expect((globs.items[0] as ServerBlock).directives.at(-1)).toMatchObject({ name: 'import', arguments: ['custom/*.override'] });
  });

  it('have keys that mean what CoreDNS makes of them', () => {
    const keys = files
      .filter((file) => REFUSED[file] === undefined)
      .flatMap((file) => parseCorefile(read(file)).corefile.items)
      .flatMap((item) => (item.kind === 'server-block' ? item.keys : []));
    const described = keys.map((key) => {
      try {
        const address = parseServerKey(key);
        return `${address.transport} ${address.zones.length === 1 ? address.zones[0] : `${address.zones.length} zones`} ${address.port}`;
      } catch (error) {
        return `error: ${(error as Error).message}`;
      }
    });
    expect(described).toContain('https . 8053');
    expect(described).toContain('tls . 5553');
    expect(described).toContain('dns 32 zones 53');
    expect(described).toContain('dns example.com. 1053');
    expect(described.filter((entry) => entry.startsWith('error'))).toEqual([]);
  });
});
