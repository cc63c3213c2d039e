import { describe, expect, it } from 'vitest';
import { lintCorefile } from '../../../src/lint/lint.js';
import { findings } from '../../support/lint-findings.js';

const forward = (destinations: string, extra = '') => `.:53 {\n    forward . ${destinations}\n${extra}}\n`;

describe('forward and proxy in their block', () => {
  it('tells forwarding to itself from forwarding to a neighbour on loopback', () => {
    expect(findings(forward('127.0.0.1', '    loop\n'))).toEqual(['loopback-destination@2:15/error']);
    expect(findings(forward('[::1]:53'))).toEqual(['loopback-destination@2:15/error']);
    expect(findings(forward('127.0.0.2:053'))).toEqual(['loopback-destination@2:15/error']);
    expect(lintCorefile(forward('127.0.0.1')).diagnostics[0]?.message).toContain('queries circle until they time out');
    expect(findings(forward('127.0.0.1:5353', '    loop\n'))).toEqual(['loopback-destination@2:15/warning']);
    expect(findings(forward('localhost', '    loop\n'))).toEqual(['destination-hostname@2:15/warning', 'loopback-destination@2:15/error']);
    expect(findings(forward('127.0.0.1', '    bind 10.0.0.10\n'))).toEqual(['loopback-destination@2:15/warning']);
    expect(findings(forward('tls://127.0.0.1'))).toEqual(['loopback-destination@2:15/warning']);
    expect(findings('.:5353 {\n    forward . 127.0.0.1\n}\n')).toEqual(['loopback-destination@2:15/warning']);
  });

  it('reports a forward whose FROM the block never sees, not one that overlaps', () => {
    expect(findings('acme.local {\n    forward example.org 10.0.0.1\n}\n')).toEqual(['forward-from-outside-zones@2:5/warning']);
    expect(findings('acme.local {\n    forward sub.acme.local 10.0.0.1\n}\n')).toEqual([]);
    expect(findings('sub.acme.local {\n    forward acme.local 10.0.0.1\n}\n')).toEqual([]);
    expect(findings('. {\n    forward example.org 10.0.0.1\n}\n')).toEqual([]);
  });

  it('allows several forwards per block from 1.9.4, and several proxies always', () => {
    const two = '.:53 {\n    forward a.org 10.0.0.1\n    forward . 10.0.0.2\n}\n';
    expect(findings(two, '1.9.3')).toEqual(['forward-once-per-block@3:5/error']);
    expect(findings(two, '1.9.4')).toEqual([]);
    expect(findings(two, '1.0.6')).toEqual(['forward-once-per-block@3:5/warning']);
    expect(findings('.:53 {\n    proxy a.org 10.0.0.1\n    proxy . 10.0.0.2\n}\n', '1.4.0')).toEqual(['plugin-deprecated@2:5/info', 'plugin-deprecated@3:5/info']);
  });
});
