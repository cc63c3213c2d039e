import { describe, expect, it } from 'vitest';
import { rewriteConfigMap } from '../../src/configmap/rewrite-configmap.js';
import { configMapRewriteDiagnostics } from '../../src/platform/configmap-out.js';

describe('configMapRewriteDiagnostics', () => {
  it('names the server-set fields left out and an immutable ConfigMap whose data changed; nothing for a clean one', () => {
    const live = 'kind: ConfigMap\nmetadata:\n  name: coredns\n  uid: x\n  resourceVersion: "3"\nimmutable: true\ndata:\n  Corefile: "a {\\n}\\n"\n';
    const diagnostics = configMapRewriteDiagnostics(rewriteConfigMap(live, { Corefile: 'b {\n}\n' }));
    expect(diagnostics.map((entry) => [entry.code, entry.severity, entry.message])).toEqual([
      ['configmap-server-fields-dropped', 'info', 'ConfigMap coredns is written without the fields the API server sets: metadata.uid, metadata.resourceVersion'],
      ['configmap-immutable', 'warning', "ConfigMap coredns is immutable: true and 'Corefile' changed: the API server refuses to update it (delete and create it again)"],
    ]);
    expect(configMapRewriteDiagnostics(rewriteConfigMap('kind: ConfigMap\nmetadata:\n  name: coredns\nimmutable: true\ndata:\n  Corefile: "a {\\n}\\n"\n', { Corefile: 'a {\n}\n' }))).toEqual([]);
  });
});
