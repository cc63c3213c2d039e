import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCoreDnsInstall } from '../../src/install/install.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { REAL_COREDNS_RELEASES, realCoreDnsSkip, useRealCoreDnsLab } from '../support/real-coredns.js';

/**
 * The install against the real program: each real CoreDNS release starts with the install's
 * ConfigMap written where the Deployment's volume puts it and read through its `-conf` path, and
 * its health and ready listeners answer on the ports the probes name (moved to loopback).
 */

const skip = realCoreDnsSkip('test/install/real-coredns.test.ts');

const stock = readFileSync(join(import.meta.dirname, '../../golden/install/stock-kube-dns-1.22.20.yaml'), 'utf8');

/** GET http://host:port/path, with its status (0 when nothing answers). */
function get(host: string, port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host, port, path, timeout: 1000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
  });
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(skip !== undefined)('the install on real CoreDNS', () => {
  const lab = useRealCoreDnsLab({ concurrency: 4 });

  it.each(REAL_COREDNS_RELEASES)('CoreDNS %s starts from the ConfigMap at the -conf path; health and ready answer on the probe ports', async (release) => {
    const result = buildCoreDnsInstall(readKubeDnsInstall([{ text: stock, filename: 'kube-dns.yaml' }]), { coredns: release });
    if (!result.ok) throw new Error('refused');
    const configMap = result.objects.find((object) => object['kind'] === 'ConfigMap') as { data: Record<string, string> };
    const pod = (result.objects.find((object) => object['kind'] === 'Deployment') as any).spec.template.spec;
    const container = pod.containers[0];
    const conf = container.args[container.args.indexOf('-conf') + 1] as string;
    const mount = container.volumeMounts.find((entry: { mountPath: string }) => conf.startsWith(`${entry.mountPath}/`));
    const volume = pod.volumes.find((entry: { name: string }) => entry.name === mount.name);
    const item = volume.configMap.items.find((entry: { path: string }) => `${mount.mountPath}/${entry.path}` === conf);
    const corefile = configMap.data[item.key] as string;
    const server = await lab().serve(corefile, release, conf.replace(/^\//, `${release}/`));
    try {
      const portOf = (probe: { httpGet: { port: number | string } }) => {
        const port = probe.httpGet.port;
        return typeof port === 'number' ? port : (container.ports.find((entry: { name: string }) => entry.name === port).containerPort as number);
      };
      for (const probe of [container.livenessProbe, container.readinessProbe]) {
        const port = server.listenPort(portOf(probe));
        expect(port, `${probe.httpGet.path} on ${portOf(probe)}:\n${server.corefile}`).toBeDefined();
        const ok = await eventually(async () => (await get(server.ip, port as number, probe.httpGet.path)) === 200, 10_000);
        expect(ok, `${probe.httpGet.path} on ${server.ip}:${String(port)}\n${server.output()}`).toBe(true);
      }
      expect(container.readinessProbe.httpGet.path).toBe(release === '1.2.6' ? '/health' : '/ready');
    } finally {
      await server.stop();
    }
  });
});
