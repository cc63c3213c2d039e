import { describe, expect, it } from 'vitest';
import { settingsInValue } from '../../src/kubedns/settings-in-value.js';

describe('settingsInValue', () => {
  it('finds settings written as YAML keys, quoted keys or JSON members, each once, in order', () => {
    expect(settingsInValue('  upstreamNameservers: |\n    ["1.1.1.1"]\n  stubDomains: |\n    {}\nupstreamNameservers: x\n')).toEqual({
      settings: ['upstreamNameservers', 'stubDomains'],
      offset: 2,
    });
    expect(settingsInValue("'federations' : a=b")).toEqual({ settings: ['federations'], offset: 1 });
    expect(settingsInValue('{"a": 1, "stubDomains": "{}"}')).toEqual({ settings: ['stubDomains'], offset: 10 });
  });

  it('finds none in values that only mention a setting or are kube-dns values themselves', () => {
    for (const value of ['', '["8.8.8.8"]', '{"acme.local": ["1.2.3.4"]}', 'see stubDomains: below', 'mystubDomains: x', 'stubDomainsOld: x']) {
      expect(settingsInValue(value)).toBeUndefined();
    }
  });
});
