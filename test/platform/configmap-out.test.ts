import { describe, expect, it } from 'vitest';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { writeBackConfigMap } from '../../src/platform/configmap-out.js';

describe('writeBackConfigMap', () => {
  it('names the server-set fields left out and an immutable ConfigMap whose Corefile changed; nothing for a clean one', () => {
    const live = readConfigMap('kind: ConfigMap\nmetadata:\n  name: coredns\n  uid: x\n  resourceVersion: "3"\nimmutable: true\ndata:\n  Corefile: "a {\\n}\\n"\n').object;
    if (live === undefined) throw new Error('expected a ConfigMap object');
    const written = writeBackConfigMap(live, 'b {\n}\n');
    expect(written.diagnostics.map((entry) => [entry.code, entry.severity, entry.message])).toEqual([
      ['configmap-server-fields-dropped', 'info', 'ConfigMap coredns is written without the fields the API server sets: metadata.uid, metadata.resourceVersion'],
      ['configmap-immutable', 'warning', "ConfigMap coredns is immutable: true and 'Corefile' changed: the API server refuses to update it (delete and create it again)"],
    ]);
    expect(readConfigMap(written.text).data).toEqual({ Corefile: 'b {\n}\n' });
    const clean = readConfigMap('kind: ConfigMap\nmetadata:\n  name: coredns\nimmutable: true\ndata:\n  Corefile: "a {\\n}\\n"\n').object;
    expect(writeBackConfigMap(clean ?? {}, 'a {\n}\n').diagnostics).toEqual([]);
    expect(JSON.parse(writeBackConfigMap(clean ?? {}, 'a {\n}\n', { json: true }).text)).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'coredns' }, immutable: true, data: { Corefile: 'a {\n}\n' } });
    // No ConfigMap (a bare Corefile): the kube-system/coredns ConfigMap.
    expect(readConfigMap(writeBackConfigMap(undefined, 'a {\n}\n').text)).toMatchObject({ name: 'coredns', namespace: 'kube-system', data: { Corefile: 'a {\n}\n' } });
  });
});
