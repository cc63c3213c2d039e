import { describe, expect, it } from 'vitest';
import { findings } from '../../support/lint-findings.js';

describe('plugin options', () => {
  it('follows the history of the kubernetes upstream option', () => {
    const upstream = (args: string) => `.:53 {\n    kubernetes cluster.local {\n        upstream${args}\n    }\n}\n`;
    expect(findings(upstream(''), '1.0.5')).toEqual(['upstream-address-required@3:9/error']);
    expect(findings(upstream(' /etc/resolv.conf'), '1.0.5')).toEqual([]);
    expect(findings(upstream(''), '1.3.1')).toEqual([]);
    expect(findings(upstream(''), '1.4.0')).toEqual(['option-deprecated@3:9/info']);
    expect(findings(upstream(' 8.8.8.8'), '1.5.2')).toEqual(['upstream-addresses-ignored@3:9/warning']);
    expect(findings(upstream(''), '1.7.0')).toEqual(['option-removed@3:9/error']);
    expect(findings('. {\n    auto {\n        upstream 8.8.8.8\n    }\n}\n', '1.14.7')).toEqual([]);
  });

  it('checks options with facts and ignores the others', () => {
    expect(findings('.:53 {\n    health {\n        lameduck 5s\n    }\n}\n', '1.0.4')).toEqual(['option-not-yet-added@3:9/error']);
    expect(findings('.:53 {\n    kubernetes cluster.local {\n        transfer to *\n    }\n}\n', '1.8.0')).toEqual(['option-removed@3:9/error']);
    expect(findings('.:53 {\n    forward . 8.8.8.8 {\n        max_concurrent 1000\n        policy sequential\n    }\n}\n', '1.6.8')).toEqual([]);
    expect(findings('.:53 {\n    forward . 8.8.8.8 {\n        resolver 1.1.1.1\n    }\n}\n', '1.14.3')).toEqual(['option-not-yet-added@3:9/error']);
  });
});
