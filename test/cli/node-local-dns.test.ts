import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { renderCoreDnsConfigMap } from '../../src/configmap/write-configmap.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { memoryIo } from '../support/memory-io.js';
import { configMapYaml, coreDnsConfigMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';

const DATA = { stubDomains: '{"acme.local": ["10.150.0.1"]}', upstreamNameservers: '["8.8.8.8"]' };
const KUBE_DNS = configMapYaml(DATA, { metadata: 'block', values: 'block' });
const HOSTNAME_STUB = configMapYaml({ ...DATA, stubDomains: '{"acme.local": ["ns.acme.local"]}' }, { metadata: 'block', values: 'block' });
const TRANSLATED = translateKubeDns(DATA).corefile ?? '';
const NODE_LOCAL_CONFIGMAP = coreDnsConfigMapYaml('.:53 {\n    bind __PILLAR__LOCAL__DNS__\n    forward . __PILLAR__UPSTREAM__SERVERS__\n}\n', { name: 'node-local-dns' });
const FLAGS = ['--local-ip', '169.254.20.10,10.96.0.10', '--upstream-ip', '10.96.0.20'];
const files = { 'kube-dns.yaml': KUBE_DNS, 'hostname.yaml': HOSTNAME_STUB, Corefile: TRANSLATED, 'node-local-dns.yaml': NODE_LOCAL_CONFIGMAP, 'base.Corefile': '.:53 {\n    forward . __PILLAR__UPSTREAM__SERVERS__\n}\n',
  'deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: kube-dns}\nspec: {template: {spec: {containers: [{name: kubedns, args: ["--domain=corp.example."]}]}}}\n',
};

async function run(args: readonly string[], stdin?: string) {
  const io = memoryIo({ files, ...(stdin === undefined ? {} : { stdin }) });
  const status = await main(args, io);
  return { status, out: io.out(), err: io.err(), written: io.written };
}

describe('kube-dns-to-coredns --node-local-dns RELEASE', () => {
  it('prints what node-cache writes after the bundled template, the notes on stderr', async () => {
    const { status, out, err } = await run(['--node-local-dns', '1.26.7', ...FLAGS, 'kube-dns.yaml']);
    expect(status).toBe(0);
    expect(out.startsWith('cluster.local:53 {\n    errors\n')).toBe(true);
    expect(out).toContain('    bind 169.254.20.10 10.96.0.10\n    forward . 8.8.8.8\n');
    expect(out.endsWith('\nacme.local:53 {\n    errors\n    cache 30\n    bind 169.254.20.10 10.96.0.10\n    forward . 10.150.0.1\n}\n')).toBe(true);
    expect(err).toBe('');
  });

  it('takes the node-local-dns ConfigMap or a bare Corefile as the base, and reads the kube-dns ConfigMap from stdin', async () => {
    const fromConfigMap = await run(['--node-local-dns', '1.22.10', ...FLAGS, '--node-local-dns-base', 'node-local-dns.yaml', '-'], KUBE_DNS);
    expect(fromConfigMap.status).toBe(0);
    expect(fromConfigMap.out.startsWith('.:53 {\n    bind 169.254.20.10 10.96.0.10\n    forward . 8.8.8.8\n}\n\nacme.local:53 {')).toBe(true);
    const bare = await run(['--node-local-dns', '1.22.10', ...FLAGS, '--node-local-dns-base', 'base.Corefile', '--port', '5353', 'kube-dns.yaml']);
    expect(bare.out).toBe('.:53 {\n    forward . 8.8.8.8\n}\n\nacme.local:5353 {\n    errors\n    cache 30\n    bind 169.254.20.10 10.96.0.10\n    forward . 10.150.0.1\n}\n');
  });

  it('refuses an empty --node-local-dns-base (a file or a ConfigMap with an empty Corefile), as bad usage', async () => {
    const emptyConfigMap = NODE_LOCAL_CONFIGMAP.replace(/ {2}Corefile: \|\n(?: {4}.*\n)+/, '  Corefile: ""\n');
    for (const [name, text] of [['empty.Corefile', ''], ['blank.Corefile', '\n  \n'], ['empty-cm.yaml', emptyConfigMap]] as const) {
      const io = memoryIo({ files: { ...files, [name]: text } });
      expect(await main(['--node-local-dns', '1.26.7', ...FLAGS, '--node-local-dns-base', name, 'kube-dns.yaml'], io), name).toBe(2);
      expect(io.out()).toBe('');
      expect(io.err()).toBe(`kube-dns-to-coredns: --node-local-dns-base ${name}: the Corefile is empty; give the node-local-dns ConfigMap or its Corefile\n`);
    }
  });

  it('exits 1 with the reason when node-cache refuses the update, and writes no --out file', async () => {
    const { status, out, err, written } = await run(['--node-local-dns', '1.22.10', ...FLAGS, '--out', 'nl.Corefile', 'hostname.yaml']);
    expect(status).toBe(1);
    expect(out).toBe('');
    expect(written.size).toBe(0);
    expect(err).toContain(`error node-cache-rejects-update stubDomains["acme.local"][0]: 'ns.acme.local' is not an IP address`);
    expect(err).toContain('error: node-cache 1.22.10 refuses the update: node-cache 1.22.10 refuses nameservers that are not IP addresses, for stub domains acme.local (ns.acme.local)');
  });

  it('prints a Corefile that its CoreDNS will not load, with the errors and a warning (before the gate)', async () => {
    const { status, out, err } = await run(['--node-local-dns', '1.22.9', ...FLAGS, 'hostname.yaml']);
    expect(status).toBe(0);
    expect(out).toContain('forward . ns.acme.local\n');
    expect(err).toContain('error hostname-nameserver');
    expect(err).toContain('warning: node-cache 1.22.9 writes a Corefile that its CoreDNS 1.7.0 does not load');
  });

  it('writes --out on success', async () => {
    const { status, written } = await run(['--node-local-dns', '1.26.7', ...FLAGS, '--out', 'nl.Corefile', 'kube-dns.yaml']);
    expect(status).toBe(0);
    expect(written.get('nl.Corefile')).toContain('acme.local:53 {');
  });

  it.each([
    [['--node-local-dns', '1.26.7', 'kube-dns.yaml'], '--node-local-dns needs --local-ip and --upstream-ip'],
    [['--node-local-dns', '1.26.7', '--local-ip', '169.254.20.10', 'kube-dns.yaml'], '--node-local-dns needs --upstream-ip'],
    [['--node-local-dns', '1.15.5', ...FLAGS, 'kube-dns.yaml'], "--node-local-dns: node-cache release '1.15.5' is outside the known ones"],
    [['--node-local-dns', '1.26.7', '--local-ip', '169.254.20.10,x', '--upstream-ip', '10.96.0.20', 'kube-dns.yaml'], "--local-ip: 'x' is not an IP address"],
    [['--node-local-dns', '1.26.7', '--local-ip', '169.254.20.10', '--upstream-ip', 'kube-dns', 'kube-dns.yaml'], "--upstream-ip: 'kube-dns' is not an IP address"],
    [['--node-local-dns', '1.26.7', ...FLAGS, '--port', '0', 'kube-dns.yaml'], '--port must be a number from 1 to 65535'],
    [['--node-local-dns', '1.26.7', ...FLAGS, '--kubeadm', '1.13', 'kube-dns.yaml'], '--kubeadm and --node-local-dns are two profiles'],
    [['--node-local-dns', '1.26.7', ...FLAGS, '--coredns', '1.8.0', 'kube-dns.yaml'], '--coredns does not go with --node-local-dns'],
    [['--local-ip', '169.254.20.10', 'kube-dns.yaml'], '--local-ip belongs to --node-local-dns RELEASE'],
    [['--node-local-dns', '1.26.7', ...FLAGS, '--node-local-dns-base', '-', '-'], 'cannot both read standard input'],
  ])('refuses %j as bad usage (exit 2)', async (args, message) => {
    const { status, out, err } = await run(args);
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
  });
});

describe('kube-dns-to-coredns check --node-local-dns RELEASE (pre-flight)', () => {
  it('exits 0 when node-cache takes the edit and its Corefile loads', async () => {
    const { status, out } = await run(['check', '--node-local-dns', '1.22.10', '--kube-dns', 'kube-dns.yaml']);
    expect(status).toBe(0);
    expect(out).toBe('node-cache 1.22.10 (CoreDNS 1.7.0) takes this ConfigMap, and the Corefile it writes loads.\n');
  });

  it('exits 1 with the reason for an edit node-cache refuses, or whose Corefile does not load', async () => {
    const refused = await run(['check', '--node-local-dns', '1.22.10', '--kube-dns', 'hostname.yaml']);
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/^node-cache 1\.22\.10 \(CoreDNS 1\.7\.0\) refuses this ConfigMap: node-cache 1\.22\.10 refuses nameservers/);
    expect(refused.err).toContain('error node-cache-rejects-update');
    const broken = await run(['check', '--node-local-dns', '1.22.9', '--kube-dns', 'hostname.yaml', '-o', 'json']);
    expect(broken.status).toBe(1);
    const json = JSON.parse(broken.out) as { accepted: boolean; loads: boolean; reason: string; corefile: string };
    expect(json).toMatchObject({ accepted: true, loads: false });
    expect(json.reason).toContain('does not load (hostname-nameserver');
  });
});

describe('kube-dns-to-coredns check --node-local-dns RELEASE: options that only the routing uses', () => {
  it.each([
    [['--name', 'example.com'], '--name'],
    [['--port', '5353'], '--port'],
    [['--kube-dns-version', '1.14.13'], '--kube-dns-version'],
  ])('refuses %j without --corefile (exit 2)', async (extra, option) => {
    const { status, err } = await run(['check', '--node-local-dns', '1.26.7', '--kube-dns', 'kube-dns.yaml', ...extra]);
    expect(status).toBe(2);
    expect(err).toBe(`kube-dns-to-coredns: check: ${option} needs --corefile (the pre-flight of --node-local-dns routes no names); see 'check --help'\n`);
  });
});

describe('kube-dns-to-coredns check --node-local-dns RELEASE --corefile (two tiers)', () => {
  const withCorp = renderCoreDnsConfigMap(`${TRANSLATED}corp.internal:53 {\n    forward . 10.150.0.9\n}\n`);

  it('exits 0 when every name ends where CoreDNS alone and kube-dns alone send it', async () => {
    const { status, out } = await run(['check', '--node-local-dns', '1.26.7', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', ...FLAGS]);
    expect(status).toBe(0);
    expect(out).toMatch(/^pod → node-local-dns → CoreDNS routes all \d+ checked names as CoreDNS alone and kube-dns alone do\.\n$/);
  });

  it('exits 1 with a table for a stub CoreDNS has and the kube-dns ConfigMap lacks', async () => {
    const io = memoryIo({ files: { ...files, 'coredns.yaml': withCorp } });
    const status = await main(['check', '--node-local-dns', '1.26.7', '--kube-dns', 'kube-dns.yaml', '--corefile', 'coredns.yaml', ...FLAGS], io);
    expect(status).toBe(1);
    const lines = io.out().split('\n');
    expect(lines[0]).toMatch(/^pod → node-local-dns → CoreDNS routes 2 of \d+ checked names elsewhere than CoreDNS alone or kube-dns alone:$/);
    expect(lines[2]).toMatch(/^NAME +POD → NODE-LOCAL-DNS → … +COREDNS ALONE +KUBE-DNS ALONE$/);
    expect(lines[3]).toMatch(/^corp\.internal +8\.8\.8\.8:53 +10\.150\.0\.9:53 +8\.8\.8\.8:53$/);
  });

  it('needs --local-ip and --upstream-ip with --corefile', async () => {
    const { status, err } = await run(['check', '--node-local-dns', '1.26.7', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile']);
    expect(status).toBe(2);
    expect(err).toBe("kube-dns-to-coredns: check: --node-local-dns needs --local-ip and --upstream-ip; see 'check --help'\n");
  });
});

describe('kube-dns-to-coredns explain NAME --node-local-dns RELEASE', () => {
  it('shows both tiers, as a table or as JSON', async () => {
    const table = await run(['explain', 'api.acme.local.', '--node-local-dns', '1.26.7', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', ...FLAGS]);
    expect(table.status).toBe(0);
    expect(table.out).toContain('NODE-LOCAL-DNS');
    const json = await run(['explain', 'my-svc', '--node-local-dns', '1.26.7', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', ...FLAGS, '-o', 'json']);
    const parsed = JSON.parse(json.out) as { candidates: { name: string; twoTier: { nodeLocal: { text: string }; coreDns?: { text: string } }; same: boolean }[] };
    expect(parsed.candidates[0]).toMatchObject({ name: 'my-svc.default.svc.cluster.local', twoTier: { nodeLocal: { text: '10.96.0.20:53' }, coreDns: { text: 'cluster cluster.local' } }, same: true });
  });

  it('the two-tier kube-dns-alone column follows the Deployment plain check follows: dnsmasq --server=/corp.internal/… (in the file or --kube-dns-deployment)', async () => {
    const deployment = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/corp.internal/10.9.9.9'] });
    const list = `apiVersion: v1\nkind: List\nitems:\n- ${KUBE_DNS.trimEnd().replace(/\n/g, '\n  ')}\n- ${deployment.trimEnd().replace(/\n/g, '\n  ')}\n`;
    const extra = { 'corp.yaml': deployment, 'list.yaml': list };
    const runWith = async (args: readonly string[]) => {
      const io = memoryIo({ files: { ...files, ...extra } });
      const status = await main(args, io);
      return { status, out: io.out(), err: io.err() };
    };
    // Plain check sees the flag: the translated ConfigMap alone does not route corp.internal there.
    const plain = await runWith(['check', '--kube-dns', 'kube-dns.yaml', '--kube-dns-deployment', 'corp.yaml', '--corefile', 'Corefile', '--name', 'host.corp.internal', '-o', 'json']);
    const plainJson = JSON.parse(plain.out) as { differences: { name: string; kubeDns: { text: string } }[] };
    expect(plainJson.differences.find((difference) => difference.name === 'host.corp.internal')?.kubeDns.text).toBe('10.9.9.9:53');
    for (const kubeDns of [['--kube-dns', 'kube-dns.yaml', '--kube-dns-deployment', 'corp.yaml'], ['--kube-dns', 'list.yaml']]) {
      const check = await runWith(['check', '--node-local-dns', '1.26.7', ...kubeDns, '--corefile', 'Corefile', ...FLAGS, '--name', 'host.corp.internal', '-o', 'json']);
      expect(check.status, kubeDns.join(' ')).toBe(1);
      const json = JSON.parse(check.out) as { differences: { name: string; kubeDnsAlone: { text: string } }[] };
      expect(json.differences.find((difference) => difference.name === 'host.corp.internal')?.kubeDnsAlone.text, kubeDns.join(' ')).toBe('10.9.9.9:53');
      const explain = await runWith(['explain', 'host.corp.internal.', '--node-local-dns', '1.26.7', ...kubeDns, '--corefile', 'Corefile', ...FLAGS, '-o', 'json']);
      const candidates = (JSON.parse(explain.out) as { candidates: { kubeDnsAlone: { text: string }; same: boolean }[] }).candidates;
      expect(candidates[0]).toMatchObject({ kubeDnsAlone: { text: '10.9.9.9:53' }, same: false });
    }
    // The List's Deployment is read now, not named as unused.
    const fromList = await runWith(['check', '--node-local-dns', '1.26.7', '--kube-dns', 'list.yaml', '--corefile', 'Corefile', ...FLAGS]);
    expect(fromList.err).not.toContain('node-cache reads only the kube-dns ConfigMap');
    // The pre-flight routes no names: --kube-dns-deployment there is refused, like the routing options.
    const preflight = await runWith(['check', '--node-local-dns', '1.26.7', '--kube-dns', 'kube-dns.yaml', '--kube-dns-deployment', 'corp.yaml']);
    expect(preflight.status).toBe(2);
    expect(preflight.err).toContain('check: --kube-dns-deployment needs --corefile');
    expect((await run(['--node-local-dns', '1.26.7', ...FLAGS, '--kube-dns-deployment', 'deploy.yaml', 'kube-dns.yaml'])).status).toBe(2);
  });

  it('refuses node-local-dns options without --node-local-dns', async () => {
    const { status, err } = await run(['explain', 'x', '--kube-dns', 'kube-dns.yaml', '--upstream-ip', '10.96.0.20']);
    expect(status).toBe(2);
    expect(err).toContain('--upstream-ip belongs to --node-local-dns RELEASE');
  });
});
