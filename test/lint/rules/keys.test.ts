import { describe, expect, it } from 'vitest';
import { lintCorefile } from '../../../src/lint/lint.js';
import { findings, main } from '../../support/lint-findings.js';

describe('server keys', () => {
  it('reads keys the way the release does', () => {
    expect(findings(':53 {\n}\n', '1.3.0')).toEqual([]);
    expect(findings(':53 {\n}\n', '1.3.1')).toEqual(['invalid-server-key@1:1/error']);
    expect(findings('.example.org {\n}\n', '1.9.4')).toEqual([]);
    expect(findings('.example.org {\n}\n', '1.10.0')).toEqual(['invalid-server-key@1:1/error']);
    expect(findings('{$ZONE}:53 {\n}\n')).toEqual(['placeholder-not-checked@1:1/info']);
  });

  it('reports upper-case zones by release', () => {
    expect(findings('ACME.local {\n}\n', '1.6.3')).toEqual(['upper-case-zone@1:1/warning']);
    expect(findings('ACME.local {\n}\n', '1.6.4')).toEqual(['upper-case-zone@1:1/error']);
    expect(findings('ACME.local {\n}\n', '1.14.6')).toEqual(['upper-case-zone@1:1/error']);
    expect(findings('ACME.local {\n}\n', '1.14.7')).toEqual([]);
    expect(findings('2001:DB8::/32 {\n}\n', '1.6.7')).toEqual([]);
  });

  it('finds zones served twice, in one block or two, as the release compares them', () => {
    expect(findings('a.org a.org. {\n}\n')).toEqual(['zone-served-twice@1:7/error']);
    expect(findings('10.0.0.0/8 {\n}\n10.in-addr.arpa {\n}\n')).toEqual(['zone-served-twice@3:1/error']);
    expect(findings('a.org:053 {\n}\na.org {\n}\n')).toEqual(['zone-served-twice@3:1/error']);
    expect(findings('a.org {\n}\na.org:5353 {\n}\n')).toEqual([]);
    expect(findings('a.org {\n}\ntls://a.org:53 {\n}\n')).toEqual([]);
    expect(findings('A.org {\n}\na.org {\n}\n', '1.14.7')).toEqual(['zone-served-twice@3:1/error']);
    expect(findings('A.org {\n}\na.org {\n}\n', '1.6.3')).toEqual(['upper-case-zone@1:1/warning']);
    expect(findings('a.org {\n    bind 10.0.0.1\n}\na.org {\n    bind 10.0.0.2\n}\n')).toEqual([]);
    expect(findings('a.org {\n    view a {\n        expr true\n    }\n}\na.org {\n}\n')).toEqual([]);
    expect(findings('a.org {\n    bind 10.0.0.1\n}\na.org {\n}\n', '1.0.0')).toEqual([]);
    expect(lintCorefile('a.org {\n}\na.org {\n}\n', { coredns: '1.0.6' }).diagnostics[0]?.message).toContain('zone already defined for');
  });

  it('warns about blocks on a port the root block does not listen on', () => {
    expect(findings('.:53 {\n}\nacme.local:5353 {\n}\n')).toEqual(['zone-on-other-port@3:1/warning']);
    expect(findings('.:53 {\n}\nacme.local:53 acme.local:5353 {\n}\n')).toEqual([]);
    expect(findings('.:53 .:5353 {\n}\nacme.local:5353 {\n}\n')).toEqual([]);
    expect(findings('acme.local:5353 {\n}\n')).toEqual([]);
    expect(findings('.:53 {\n}\ntls://acme.local {\n}\n')).toEqual([]);
  });

  it('finds blocks that capture the zones of the kubernetes plugin', () => {
    const stub = (key: string) => `${main()}${key} {\n    forward . 10.0.0.1\n}\n`;
    expect(findings(stub('local:53'))).toEqual(['zone-captures-kubernetes@6:1/error']);
    expect(findings(stub('cluster.local:53'))).toEqual(['zone-captures-kubernetes@6:1/error']);
    expect(lintCorefile(stub('arpa')).diagnostics.map((entry) => entry.message.split(',')[0])).toEqual([
      "'arpa' is the most specific key for in-addr.arpa.",
      "'arpa' is the most specific key for ip6.arpa.",
    ]);
    expect(findings(stub('my.cluster.local:53'))).toEqual([]);
    expect(findings(stub('local:5353'))).toEqual(['zone-on-other-port@6:1/warning']);
    // The translator's fix: the cluster domain as a key of the main block.
    expect(findings(`${main().replace('.:53 {', '.:53 cluster.local:53 {')}local:53 {\n    forward . 10.0.0.1\n}\n`)).toEqual([]);
    // A plugin zone that is a parent of the block's key only serves the key.
    expect(findings('svc:53 {\n    kubernetes . {\n    }\n}\n.:53 {\n    forward . 8.8.8.8\n}\n')).toEqual([]);
  });
});
