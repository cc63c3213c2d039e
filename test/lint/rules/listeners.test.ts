import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/diagnostics/diagnostic.js';
import { lintCorefile } from '../../../src/lint/lint.js';
import { findings } from '../../support/lint-findings.js';

describe('listeners', () => {
  it('finds health listening twice on one address where CoreDNS 1.1.0–1.6.5 refuses it', () => {
    const multiKey = '.:53 in-addr.arpa:53 {\n    health\n    forward . 10.0.0.1\n}\n';
    for (const coredns of ['1.1.0', '1.1.3', '1.2.6', '1.4.0', '1.6.5']) expect(findings(multiKey, coredns), coredns).toEqual(['health-bound-twice@2:5/error']);
    for (const coredns of ['1.0.6', '1.6.6', '1.6.9', '1.8.0', '1.14.7']) expect(findings(multiKey, coredns), coredns).toEqual([]);
    expect(lintCorefile(multiKey, { coredns: '1.2.6' }).diagnostics.map(formatDiagnostic)).toEqual([
      'error health-bound-twice Corefile:2:5 [.:53 in-addr.arpa:53] health: block \'.:53 in-addr.arpa:53\' has 2 keys and CoreDNS 1.2.6 sets health up once per key: the second listener on :8080 stops it with "listen tcp :8080: bind: address already in use"',
    ]);
    // Two blocks with health on the same address (written differently), or one on every interface.
    const twoBlocks = (first: string, second: string) => `.:53 {\n    health${first}\n}\nacme.local:53 {\n    health${second}\n}\n`;
    expect(findings(twoBlocks('', ''), '1.2.6')).toEqual(['health-bound-twice@5:5/error']);
    expect(findings(twoBlocks(' :8080', ' 0.0.0.0:8080'), '1.2.6')).toEqual(['health-bound-twice@5:5/error']);
    expect(findings(twoBlocks(' 127.0.0.1:8081', ' :8081'), '1.2.6')).toEqual(['health-bound-twice@5:5/error']);
    expect(findings(twoBlocks(' 127.0.0.1:8081', ' 127.0.0.2:8081'), '1.2.6')).toEqual([]);
    expect(findings(twoBlocks(' :8081', ''), '1.2.6')).toEqual([]);
    expect(findings(twoBlocks('', ''), '1.6.9')).toEqual([]);
    // One health line per block counts, the last one written (the plugin keeps the last address).
    expect(findings('.:53 {\n    health :8081\n    health :8082\n}\nacme.local:53 {\n    health :8082\n}\n', '1.2.6')).toEqual(['health-bound-twice@6:5/error']);
    // A snippet brings health into each block that imports it.
    expect(findings('(common) {\n    health\n}\n.:53 {\n    import common\n}\nacme.local:53 {\n    import common\n}\n', '1.2.6')).toEqual(['health-bound-twice@2:5/error']);
    // prometheus, ready and pprof share one listener per address in every release.
    expect(findings('.:53 in-addr.arpa:53 {\n    prometheus :9153\n    pprof\n}\nacme.local:53 {\n    prometheus :9153\n}\n', '1.2.6')).toEqual([]);
    expect(findings('.:53 in-addr.arpa:53 {\n    ready\n}\nacme.local:53 {\n    ready\n}\n', '1.5.0')).toEqual([]);
  });

  it('finds, on 1.0.x, a health address that never listens (one listener per process, the first block’s)', () => {
    const twoBlocks = (first: string, second: string) => `.:53 {\n    health${first}\n}\nacme.local:53 {\n    health${second}\n}\n`;
    expect(findings(twoBlocks('', ' :8081'), '1.0.6')).toEqual(['health-not-listening@5:5/warning']);
    expect(findings(twoBlocks(' :8081', ''), '1.0.0')).toEqual(['health-not-listening@5:5/warning']);
    // The same address (however written) is the one listener: nothing to say.
    expect(findings(twoBlocks('', ''), '1.0.6')).toEqual([]);
    expect(findings(twoBlocks(' :8080', ' 0.0.0.0:8080'), '1.0.6')).toEqual([]);
    // From 1.1.0 each block listens (and the same address collides instead).
    expect(findings(twoBlocks('', ' :8081'), '1.1.0')).toEqual([]);
  });
});
