import { describe, expect, it } from 'vitest';
import { ConfigMapInputError } from '../../src/configmap/config-map-data.js';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { configMapYaml, deploymentYaml, serviceYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';

describe('readKubeDnsInstall', () => {
  it('reads the three objects from separate texts, each container as its program reads it', () => {
    const install = readKubeDnsInstall([
      { text: configMapYaml({ stubDomains: '{"acme.local": ["1.2.3.4"]}' }), filename: 'cm.yaml' },
      { text: deploymentYaml(), filename: 'deploy.yaml' },
      { text: serviceYaml('10.0.0.10'), filename: 'svc.yaml' },
    ]);
    expect(install.configMap?.data).toEqual({ stubDomains: '{"acme.local": ["1.2.3.4"]}' });
    expect(install.service?.clusterIP).toBe('10.0.0.10');
    const deployment = install.deployment;
    expect(deployment?.kubedns?.args.values).toMatchObject({ domain: 'cluster.local.', dnsPort: 10053, configDir: '/kube-dns-config' });
    expect(deployment?.dnsmasq?.nanny?.configDir).toBe('/etc/k8s/dns/dnsmasq-nanny');
    expect(deployment?.dnsmasq?.dnsmasqArgs).toEqual(STOCK_DNSMASQ_ARGS);
    expect(deployment?.dnsmasq?.dnsmasq.noNegcache).toBe(true);
    expect(deployment?.sidecar?.args.probes.map((entry) => entry.probe.name)).toEqual(['kubernetes.default.svc.cluster.local.', 'kubernetes.default.svc.cluster.local.']);
    expect(install.diagnostics).toEqual([]);
  });

  it('reads them from one List, naming what it does not use', () => {
    const text = `kind: List\nitems:\n${[deploymentYaml({ kind: 'ReplicationController' }), 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: kube-dns}\n', serviceYaml()]
      .map((document) => document.trimEnd().replace(/^/gm, '  ').replace(/^ {2}/, '- '))
      .join('\n')}\n`;
    const install = readKubeDnsInstall([{ text, filename: 'all.yaml' }]);
    expect(install.deployment?.kind).toBe('ReplicationController');
    expect(install.configMap).toBeUndefined();
    expect(install.diagnostics.map(formatDiagnostic)).toEqual([
      "info unused-object all.yaml:19:3: ServiceAccount kube-dns plays no part in kube-dns's DNS settings; not read",
    ]);
  });

  it('runs dnsmasq directly when the image is dnsmasq itself (manifests before the nanny)', () => {
    const text = deploymentYaml().replace('k8s-dns-dnsmasq-nanny:1.26.7', 'kube-dnsmasq-amd64:1.4').replace(/args: \["-v=2", "-logtostderr", "-configDir=[^"]*", "-restartDnsmasq=true", "--", /, 'args: [');
    const install = readKubeDnsInstall([{ text }]);
    expect(install.deployment?.dnsmasq?.nanny).toBeUndefined();
    expect(install.deployment?.dnsmasq?.dnsmasq.cacheSize).toBe(1000);
  });

  it('reports unknown containers, references known only at run time and arguments a program refuses', () => {
    const text = deploymentYaml({ kubedns: ['--domain=$(DOMAIN)', '--no-such-flag'] }).replace(
      '      - name: sidecar',
      '      - name: healthz\n        image: registry.k8s.io/exechealthz-amd64:1.2\n      - name: sidecar',
    );
    const install = readKubeDnsInstall([{ text, filename: 'd.yaml' }]);
    expect(install.diagnostics.map((entry) => `${entry.severity} ${entry.code} ${entry.path ?? ''}`)).toEqual([
      'warning container-args-unresolved [container kubedns].args[0]',
      'info unused-container [container healthz]',
      'error deployment-program-exits [container kubedns]',
      'error deployment-program-exits [container kubedns]',
    ]);
  });

  it('refuses a second ConfigMap among the texts', () => {
    const cm = configMapYaml({ upstreamNameservers: '["8.8.8.8"]' });
    expect(() => readKubeDnsInstall([{ text: cm }, { text: cm, filename: 'b.yaml' }])).toThrowError(ConfigMapInputError);
  });
});
