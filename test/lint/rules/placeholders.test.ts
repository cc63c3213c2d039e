import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintCorefile } from '../../../src/lint/lint.js';
import { findings } from '../../support/lint-findings.js';

/** The node-local-dns template of Kubernetes 1.19 (golden/realworld), `__PILLAR__` variables and all. */
const TEMPLATE = readFileSync(new URL('../../../golden/realworld/corefiles/07-k8s-1.19-nodelocaldns-four-blocks-bind-pillars.Corefile', import.meta.url), 'utf8');

describe('placeholders', () => {
  it('reports environment placeholders where they are', () => {
    expect(findings('{$ZONE}:53 {\n    forward . {$UPSTREAM}\n}\n')).toEqual(['placeholder-not-checked@1:1/info', 'placeholder-not-checked@2:15/info']);
  });

  it('reads node-cache variables as placeholders, said once for the whole template', () => {
    for (const release of ['1.2.6', '1.6.7', '1.14.7']) {
      const { diagnostics, ok } = lintCorefile(TEMPLATE, { coredns: release });
      expect(ok, release).toBe(true);
      // No bind, destination or key findings about the variables: only the one note.
      expect(diagnostics.map((entry) => entry.code), release).toEqual(['placeholder-not-checked']);
      const [note] = diagnostics;
      expect(note?.position).toEqual({ line: 2, column: 1 });
      expect(note?.message).toBe(
        '__PILLAR__DNS__DOMAIN__ (line 2), __PILLAR__LOCAL__DNS__ (line 10), __PILLAR__DNS__SERVER__ (line 10), __PILLAR__CLUSTER__DNS__ (line 11), __PILLAR__UPSTREAM__SERVERS__ (line 45) are template variables that are filled in before CoreDNS reads the Corefile (by node-cache for a node-local-dns template, by the cluster\'s set-up scripts for the kube-up addon manifests), so the keys, addresses and destinations holding them were not checked',
      );
    }
  });

  it('still checks what is not a variable, and says both kinds of placeholder', () => {
    const text = '__PILLAR__DNS__DOMAIN__:53 {\n    bind 10.0.0.1 __PILLAR__LOCAL__DNS__\n    forward . __PILLAR__CLUSTER__DNS__ {$OTHER} 10.0.0.1:0\n    proxy . 1.1.1.1\n}\n';
    expect(findings(text, '1.14.7')).toEqual(['placeholder-not-checked@1:1/info', 'placeholder-not-checked@3:40/info', 'destination-port-invalid@3:49/warning', 'plugin-removed@4:5/error']);
  });
});
