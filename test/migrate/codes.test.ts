import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
import type { DiagnosticCode } from '../../src/diagnostics/codes.js';
import { main } from '../../src/cli/main.js';
import { migrateCorefile } from '../../src/migrate/migrate-corefile.js';
import type { MigrateOptions } from '../../src/migrate/options.js';
import { memoryIo } from '../support/memory-io.js';
import { coreDnsConfigMapYaml } from '../support/kube-dns-manifests.js';

/** A migration that emits each `migrate-*` code, so that every registered code is reachable. */
const EMITTERS: Readonly<Record<string, { corefile: string; options: MigrateOptions }>> = {
  'migrate-release-resolved': { corefile: '. {\n    errors\n}\n', options: { from: '1.6.7-eksbuild.1', to: '1.8.0' } },
  'migrate-release-assumed': { corefile: '. {\n    errors\n}\n', options: { from: '1.8.0', to: '1.99.0' } },
  'migrate-proxy-to-forward': { corefile: '. {\n    proxy . 1.1.1.1\n}\n', options: { from: '1.4.0', to: '1.5.0' } },
  'migrate-proxy-option-mapped': { corefile: '. {\n    proxy . 1.1.1.1 {\n        policy first\n    }\n}\n', options: { from: '1.4.0', to: '1.5.0' } },
  'migrate-proxy-option-dropped': { corefile: '. {\n    proxy . 1.1.1.1 {\n        spray\n    }\n}\n', options: { from: '1.4.0', to: '1.5.0' } },
  'migrate-proxy-unmappable': { corefile: '. {\n    proxy . 1.1.1.1 {\n        protocol grpc insecure\n    }\n}\n', options: { from: '1.4.0', to: '1.5.0' } },
  'migrate-forward-split': { corefile: '. {\n    proxy a.example 1.1.1.1\n    proxy . 8.8.8.8\n}\n', options: { from: '1.4.0', to: '1.5.0' } },
  'migrate-forward-split-refused': { corefile: 'a.example b.example {\n    proxy c.example 1.1.1.1\n    proxy . 8.8.8.8\n}\n', options: { from: '1.4.0', to: '1.5.0' } },
  'migrate-option-removed': { corefile: '. {\n    kubernetes cluster.local {\n        upstream\n    }\n}\n', options: { from: '1.6.7', to: '1.7.0' } },
  'migrate-option-trimmed': { corefile: '. {\n    kubernetes cluster.local {\n        endpoint https://a:6443 https://b:6443\n    }\n}\n', options: { from: '1.3.1', to: '1.4.0' } },
  'migrate-option-deprecated': { corefile: '. {\n    proxy . 1.1.1.1\n}\n', options: { from: '1.3.1', to: '1.4.0' } },
  'migrate-transfer-moved': { corefile: '. {\n    kubernetes cluster.local {\n        transfer to 10.0.0.1\n    }\n}\n', options: { from: '1.7.0', to: '1.8.0' } },
  'migrate-transfer-folded': { corefile: '. {\n    kubernetes cluster.local\n    transfer cluster.local {\n        to 10.0.0.1\n    }\n}\n', options: { from: '1.8.0', to: '1.7.0' } },
  'migrate-transfer-refused': { corefile: '. {\n    file db.example example.org\n    transfer example.org {\n        to 10.0.0.1\n    }\n}\n', options: { from: '1.8.0', to: '1.7.0' } },
  'migrate-federation-removed': { corefile: '. {\n    kubernetes cluster.local\n    federation cluster.local {\n        prod prod.example\n    }\n}\n', options: { from: '1.6.7', to: '1.7.0' } },
  'migrate-federation-dropped': { corefile: '. {\n    kubernetes cluster.local\n    federation cluster.local {\n        prod prod.example\n    }\n}\n', options: { from: '1.6.7', to: '1.7.0', dropFederations: true } },
  'migrate-new-default': { corefile: '. {\n    health\n}\n', options: { from: '1.6.2', to: '1.6.5' } },
  'migrate-upstream-added': { corefile: '. {\n    kubernetes cluster.local {\n        pods insecure\n    }\n    forward . 1.1.1.1\n}\n', options: { from: '1.8.0', to: '1.4.0' } },
  'migrate-default-removed': { corefile: '. {\n    ready\n    forward . 1.1.1.1\n}\n', options: { from: '1.6.7', to: '1.3.1' } },
  'migrate-plugin-unavailable': { corefile: '. {\n    whoami\n    view one {\n        expr true\n    }\n}\n', options: { from: '1.12.0', to: '1.9.3' } },
  'migrate-plugin-unknown': { corefile: '. {\n    alias\n    forward . 1.1.1.1\n}\n', options: { from: '1.8.0', to: '1.9.3' } },
  'migrate-option-unavailable': { corefile: '. {\n    kubernetes cluster.local {\n        transfer from 10.0.0.1\n    }\n}\n', options: { from: '1.7.0', to: '1.8.0' } },
  'migrate-option-approximated': { corefile: '. {\n    cache 30 {\n        disable denial\n    }\n    forward . 1.1.1.1\n}\n', options: { from: '1.14.7', to: '1.8.0' } },
  'migrate-approximation-undone': { corefile: '. {\n    cache 30 {\n        denial 9984 1\n    }\n    forward . 1.1.1.1\n}\n', options: { from: '1.8.0', to: '1.9.4' } },
  'migrate-import-not-migrated': { corefile: '. {\n    import custom/*.server\n    forward . 1.1.1.1\n}\n', options: { from: '1.6.7', to: '1.8.0' } },
  'migrate-target-refuses': { corefile: '. {\n    forward . https://1.1.1.1/dns-query\n}\n', options: { from: '1.14.7', to: '1.14.3' } },
  'migrate-not-in-place': { corefile: '. { proxy . 1.1.1.1\n}\n', options: { from: '1.4.0', to: '1.5.0' } },
};

/** Codes the CLI adds (about its input, not the Corefile): the command line and files that emit each. */
const CLI_EMITTERS: Readonly<Record<string, { args: readonly string[]; files: Readonly<Record<string, string>> }>> = {
  'migrate-configmap-key-not-migrated': {
    args: ['migrate', '--from', '1.6.7', '--to', '1.8.0', 'coredns.yaml'],
    files: { 'coredns.yaml': coreDnsConfigMapYaml('. {\n    forward . 1.1.1.1\n}\n', { namespace: null, apiVersion: false, otherKeys: { NodeHosts: '10.0.0.1 node1\n' } }) },
  },
};

describe('the migrate codes', () => {
  const registered = Object.entries(DIAGNOSTIC_CODES)
    .filter(([, entry]) => entry.area === 'migrate')
    .map(([code]) => code);

  it('has an emitter for every registered migrate code, and no other', () => {
    expect([...Object.keys(EMITTERS), ...Object.keys(CLI_EMITTERS)].sort()).toEqual([...registered].sort());
  });

  it.each(Object.keys(CLI_EMITTERS))('%s is emitted by the CLI, with the registered severity', async (code) => {
    const emitter = CLI_EMITTERS[code]!;
    const io = memoryIo({ files: emitter.files });
    expect(await main([...emitter.args], io)).toBe(0);
    expect(io.err()).toContain(`${DIAGNOSTIC_CODES[code as DiagnosticCode].severity} ${code} `);
  });

  it.each(registered.filter((code) => !(code in CLI_EMITTERS)))('%s is emitted, with the registered severity', (code) => {
    const emitter = EMITTERS[code];
    expect(emitter).toBeDefined();
    const result = migrateCorefile(emitter!.corefile, emitter!.options);
    const found = result.notices.find((notice) => notice.code === code);
    expect(found, result.notices.map((notice) => `${notice.code}: ${notice.message}`).join('\n')).toBeDefined();
    expect(found?.severity).toBe(DIAGNOSTIC_CODES[code as DiagnosticCode].severity);
    expect(result.ok).toBe(!result.notices.some((notice) => notice.severity === 'error'));
  });
});
