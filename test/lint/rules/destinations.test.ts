import { describe, expect, it } from 'vitest';
import { lintCorefile, readDestination } from '../../../src/lint/index.js';
import { findings } from '../../support/lint-findings.js';

const forward = (destinations: string, extra = '') => `.:53 {\n    forward . ${destinations}\n${extra}}\n`;

describe('forward and proxy destinations', () => {
  it('reads destinations the way CoreDNS does', () => {
    const kinds = ['1.2.3.4', '1.2.3.4:5353', '[2001:db8::1]:53', '2001:db8::1', 'tls://9.9.9.9', '/etc/resolv.conf', 'resolv.conf', 'ns.example', '[::1]', '010.0.0.1', 'a..b', '{$X}', 'https://dns.example/dns-query'].map(
      (text) => readDestination(text).kind,
    );
    expect(kinds).toEqual(['ip', 'ip', 'ip', 'ip', 'ip', 'file', 'hostname', 'hostname', 'invalid', 'invalid', 'invalid', 'placeholder', 'file']);
  });

  it('counts destinations against the limit of the release', () => {
    const sixteen = Array.from({ length: 16 }, (_, index) => `10.0.0.${index + 1}`).join(' ');
    expect(findings(forward(sixteen), '1.14.7')).toEqual(['too-many-destinations@2:5/error']);
    expect(findings(`.:53 {\n    proxy . ${sixteen}\n}\n`, '1.0.4')).toEqual(['too-many-destinations@2:5/warning']);
    expect(findings(`.:53 {\n    proxy . ${sixteen}\n}\n`, '1.0.0')).toEqual([]);
    expect(lintCorefile(forward(`/etc/resolv.conf ${sixteen}`), { coredns: '1.14.3' }).diagnostics[0]?.message).toContain('each nameserver of a file counts too');
  });

  it('knows when host names, https:// and grpc:// are accepted', () => {
    expect(findings(forward('ns.example'), '1.14.3')).toEqual(['destination-not-ip@2:15/error']);
    expect(findings(forward('ns.example:5353'), '1.14.4')).toEqual(['destination-hostname@2:15/warning']);
    expect(findings(forward('ns.example:0'), '1.14.4')).toEqual(['destination-hostname@2:15/warning', 'destination-port-invalid@2:15/warning']);
    expect(findings('.:53 {\n    proxy . ns.example\n}\n', '1.4.0')).toEqual(['plugin-deprecated@2:5/info', 'destination-not-ip@2:13/error']);
    expect(findings(forward('https://1.1.1.1'), '1.14.4')).toEqual(['https-destination-unsupported@2:15/error']);
    expect(findings(forward('https://1.1.1.1'), '1.14.5')).toEqual([]);
    expect(findings(forward('grpc://10.0.0.1'), '1.7.0')).toEqual(['grpc-destination-unsupported@2:15/error']);
    expect(findings(forward('grpc://10.0.0.1'), '1.6.9')).toEqual([]);
  });

  it('checks ports, which CoreDNS does not', () => {
    expect(findings(forward('1.2.3.4:0 1.2.3.4:53 [::2]:99999 1.2.3.4:abc'))).toEqual([
      'destination-port-invalid@2:15/warning',
      'destination-port-invalid@2:36/warning',
      'destination-port-invalid@2:48/warning',
    ]);
  });

});
