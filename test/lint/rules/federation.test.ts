import { describe, expect, it } from 'vitest';
import { findings } from '../../support/lint-findings.js';

describe('federation', () => {
  it('flags federation without kubernetes in the block', () => {
    expect(findings('acme.local {\n    federation cluster.local {\n        a b.com\n    }\n}\n', '1.6.9')).toEqual(['version-caveat@2:5/info', 'federation-without-kubernetes@2:5/warning']);
  });
});
