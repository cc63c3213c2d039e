import { describe, expect, it } from 'vitest';
import { migrateCorefile } from '../../src/migrate/migrate-corefile.js';
import { expectLinearGrowth } from '../support/growth.js';

/**
 * `migrate` grows linearly in the number of server blocks (issue #22), with its target check: an
 * edit at the top moves every later block by a line (the kept blocks' positions are then mapped),
 * and an edit in every block makes every block a rewritten run parsed on its own.
 */
const MAIN = '.:53 {\n    errors\n    health\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    forward . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n}\n';

function stubs(count: number, forwarder: 'forward' | 'proxy'): string {
  const blocks = Array.from({ length: count }, (_, index) => `zone-${index}.example.com:53 {\n    errors\n    cache 30\n    ${forwarder} . 10.${(index >> 8) & 255}.${index & 255}.53\n}\n`);
  return MAIN + blocks.join('');
}

describe('migrate on many server blocks', () => {
  it('grows linearly when one edit at the top moves every kept block', () => {
    const sample = migrateCorefile(stubs(3, 'forward'), { from: '1.6.7', to: '1.11.3' });
    expect(sample.changed).toBe(true);
    expectLinearGrowth((size) => stubs(size, 'forward'), (text) => migrateCorefile(text, { from: '1.6.7', to: '1.11.3' }), { small: 100, large: 1600 });
  });

  it('grows linearly when every block is rewritten (proxy to forward)', () => {
    const sample = migrateCorefile(stubs(3, 'proxy'), { from: '1.3.1', to: '1.8.0' });
    expect(sample.ok && sample.changed).toBe(true);
    expectLinearGrowth((size) => stubs(size, 'proxy'), (text) => migrateCorefile(text, { from: '1.3.1', to: '1.8.0' }), { small: 100, large: 1600 });
  });
});
