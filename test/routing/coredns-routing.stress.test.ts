import { describe, expect, it } from 'vitest';
import { coreDnsRouting } from '../../src/routing/coredns-routing.js';
import { describeDestination, destinationKey } from '../../src/routing/destination.js';

/**
 * The CoreDNS routing model at size: a chain of 100,000 plugins (about 12 s on this machine, so it
 * runs in `npm test`, not in the everyday `npm run test:unit`; see vitest.config.ts).
 */
describe('CoreDNS routing model: long fallthrough chains', () => {
  it('follows 100,000 plugins that fall through, without recursion', () => {
    const templates = 'template IN A example.org {\n        fallthrough\n    }\n    '.repeat(100_000);
    const routing = coreDnsRouting(`. {\n    ${templates}forward . 8.8.8.8\n}\n`);
    const route = routing.route('x.example.org');
    expect(destinationKey(route.destination)).toBe(`${'plugin:template>'.repeat(100_000)}servers(8.8.8.8:53)`);
    expect(describeDestination(route.destination)).toBe(`${'plugin template, else '.repeat(100_000)}8.8.8.8:53`);
    expect(route.via).toBe(`block "." > template${', fallthrough > template'.repeat(99_999)}, fallthrough > forward . 8.8.8.8`);
    // Falling off the end of the block: the last link is SERVFAIL.
    const ending = coreDnsRouting(`. {\n    ${templates.trimEnd()}\n}\n`).route('x.example.org');
    expect(destinationKey(ending.destination)).toBe(`${'plugin:template>'.repeat(100_000)}servfail`);
    expect(ending.via).toBe(`block "." > template${', fallthrough > template'.repeat(99_999)}, fallthrough > block ".": no plugin answers`);
  });
});
