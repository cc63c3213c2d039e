import { describe, expect, it } from 'vitest';
import { describeFailure, isInputFailure, usingCorefile } from '../../src/cli/errors.js';
import { optionValue } from '../../src/cli/options.js';
import { main } from '../../src/cli/main.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { parseCoreDnsVersion } from '../../src/coredns/versions.js';
import { CorefileSyntaxError } from '../../src/corefile/errors.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { RoutingMismatchError } from '../../src/routing/check.js';
import { SelfCheckError } from '../../src/translate/self-check.js';
import { TranslateOptionsError } from '../../src/translate/translate.js';
import { memoryIo } from '../support/memory-io.js';
import { thrown } from '../support/thrown.js';
import { configMapYaml, coreDnsConfigMapYaml } from '../support/kube-dns-manifests.js';

const KUBE_DNS = configMapYaml({ upstreamNameservers: '["8.8.8.8"]' }, { metadata: 'block', apiVersion: false });
const COREFILE = '.:53 {\n    forward . 8.8.8.8\n}\n';
const BROKEN_COREFILE = '.:53 {\n    forward . 8.8.8.8 }\n';
const COREDNS_CONFIGMAP = coreDnsConfigMapYaml(BROKEN_COREFILE, { namespace: null, apiVersion: false });
const STACK_LINE = /\n\s+at /;

async function run(args: readonly string[], files: Record<string, string>, stdin?: string) {
  const io = memoryIo({ files, ...(stdin === undefined ? {} : { stdin }) });
  const status = await main(args, io);
  return { status, out: io.out(), err: io.err() };
}

describe('the one mapping from errors to exit statuses', () => {
  // One input error from each area of the library, through the commands that meet it.
  it.each([
    ['configmap: a value that is not a string', ['cm.yaml'], { 'cm.yaml': 'data:\n  stubDomains: [1]\n' }, 'kube-dns-to-coredns: cm.yaml:2:3: data.stubDomains must be a string'],
    ['configmap: a CoreDNS ConfigMap given as the kube-dns one', ['check', '--kube-dns', 'cm.yaml', '--corefile', 'c'], { 'cm.yaml': COREDNS_CONFIGMAP, c: COREFILE }, "kube-dns-to-coredns: cm.yaml: ConfigMap 'coredns' is a CoreDNS ConfigMap"],
    ['coredns: an unknown release', ['--coredns', '1.8', 'k'], { k: KUBE_DNS }, "kube-dns-to-coredns: --coredns: cannot resolve a CoreDNS release from '1.8': name the patch release"],
    ['coredns: an unknown release for lint', ['lint', '--coredns', '1.4.1', 'c'], { c: COREFILE }, "kube-dns-to-coredns: lint: --coredns: cannot resolve a CoreDNS release from '1.4.1': CoreDNS never released 1.4.1"],
    ['kubedns: an unknown kube-dns release', ['--kube-dns-version', '1.2.3', 'k'], { k: KUBE_DNS }, "kube-dns-to-coredns: --kube-dns-version: kube-dns version '1.2.3' is outside"],
    ['kubedns: an unknown kube-dns release for check', ['check', '--kube-dns', 'k', '--corefile', 'c', '--kube-dns-version', 'x'], { k: KUBE_DNS, c: COREFILE }, "kube-dns-to-coredns: check: --kube-dns-version: kube-dns version 'x' is not a version"],
    ['kubeadm: a release without the translation', ['--kubeadm', '1.21', 'k'], { k: KUBE_DNS }, "kube-dns-to-coredns: --kubeadm: unsupported kubeadm version '1.21'"],
    ['translate: a cluster domain that is not a domain', ['--cluster-domain', 'not a domain', 'k'], { k: KUBE_DNS }, "kube-dns-to-coredns: cluster domain 'not a domain' is not a DNS-1123 subdomain"],
    ['translate: a cluster DNS IP that is not an IP', ['--cluster-dns-ip', 'ten', 'k'], { k: KUBE_DNS }, "kube-dns-to-coredns: cluster DNS IP 'ten' is not an IP address"],
    ['corefile: a syntax error, for lint', ['lint', 'c'], { c: BROKEN_COREFILE }, "c:2:23: Unexpected '}' because no matching opening brace"],
    ['corefile: a syntax error, for fmt', ['fmt', 'c'], { c: BROKEN_COREFILE }, "c:2:23: Unexpected '}' because no matching opening brace"],
    ['corefile: a syntax error, for check', ['check', '--kube-dns', 'k', '--corefile', 'c'], { k: KUBE_DNS, c: BROKEN_COREFILE }, "c:2:23: Unexpected '}' because no matching opening brace"],
    ['corefile: a syntax error, for explain', ['explain', 'a.org', '--kube-dns', 'k', '--corefile', 'c'], { k: KUBE_DNS, c: BROKEN_COREFILE }, "c:2:23: Unexpected '}' because no matching opening brace"],
    ['corefile: a syntax error, for --merge', ['--merge', 'c', 'k'], { k: KUBE_DNS, c: BROKEN_COREFILE }, "c:2:23: Unexpected '}' because no matching opening brace"],
    ['corefile: a syntax error in a ConfigMap, for --merge', ['--merge', 'cm.yaml', 'k'], { k: KUBE_DNS, 'cm.yaml': COREDNS_CONFIGMAP }, "cm.yaml:7:27: Unexpected '}' because no matching opening brace"],
  ])('%s: exit 2, one line, no stack trace', async (_, args, files, message) => {
    const { status, out, err } = await run(args, files);
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err.startsWith(message), err).toBe(true);
    expect(err.split('\n')).toHaveLength(2);
    expect(err).not.toMatch(STACK_LINE);
  });

  it('parses --coredns and --kube-dns-version before reading any input', async () => {
    expect((await run(['--coredns', 'latest', 'missing.yaml'], {})).err).toMatch(/^kube-dns-to-coredns: --coredns: cannot resolve a CoreDNS release from 'latest'/);
    expect((await run(['--kube-dns-version', '9', 'missing.yaml'], {})).err).toMatch(/^kube-dns-to-coredns: --kube-dns-version: /);
    expect((await run(['lint', '--coredns', '0.9.0', 'missing'], {})).err).toMatch(/^kube-dns-to-coredns: lint: --coredns: /);
  });

  it('refuses a bad --kube-dns-version before a --batch starts (was an internal error with a stack trace)', async () => {
    const { status, out, err } = await run(['--kube-dns-version', '1.2.3', '--batch'], {}, '{"id": 1, "data": {}}\n');
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toBe("kube-dns-to-coredns: --kube-dns-version: kube-dns version '1.2.3' is outside the versions whose ConfigMap rules are known (1.14.0 to 1.26.7)\n");
  });

  it('keeps an input error of one --batch case on its line, and goes on', async () => {
    const input = '{"id": 1, "data": {}, "clusterDomain": "not a domain"}\n{"id": 2, "data": {}}\n';
    const { status, out } = await run(['--batch'], {}, input);
    expect(status).toBe(0);
    const [first, second] = out.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: number; ok: boolean; stage?: string; error?: string });
    expect(first).toEqual({ id: 1, ok: false, stage: 'input', error: "line 1: cluster domain 'not a domain' is not a DNS-1123 subdomain" });
    expect(second).toMatchObject({ id: 2, ok: true });
  });

  it('merges into a Corefile it can read', async () => {
    // With the kubernetes plugin, as kube-dns answered the cluster domain (without it, install-merge-routing-differs).
    const corefile = '.:53 {\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    forward . 8.8.8.8\n}\n';
    const { status, out } = await run(['--merge', 'c', 'k'], { k: KUBE_DNS, c: corefile });
    expect(status).toBe(0);
    expect(out).toBe(corefile);
  });
});

describe('describeFailure', () => {
  it('reports usage errors and input errors by their message, escaped to one line', () => {
    expect(describeFailure(new UsageError('--out needs a FILE'))).toEqual({ status: 2, text: 'kube-dns-to-coredns: --out needs a FILE\n' });
    expect(describeFailure(new TranslateOptionsError('invalid-cluster-domain', "cluster domain 'a\nb' is not a DNS-1123 subdomain"))).toEqual({
      status: 2,
      text: "kube-dns-to-coredns: cluster domain 'a\\nb' is not a DNS-1123 subdomain\n",
    });
  });

  it('writes a Corefile error as FILE:LINE:COL: reason, into the FILE it was read from', () => {
    const error = thrown(() => parseCorefile('. {\n    x }\n', { filename: 'Corefile' }));
    expect(error).toBeInstanceOf(CorefileSyntaxError);
    expect(describeFailure(error)).toEqual({ status: 2, text: "Corefile:2:7: Unexpected '}' because no matching opening brace\n" });
    const source = { name: 'cm.yaml', corefile: '. {\n    x }\n', locate: (position: { line: number; column: number }, message: string) => `cm.yaml:${position.line + 6}:${position.column + 4}: ${message}` };
    const located = thrown(() => usingCorefile(source, (corefile) => parseCorefile(corefile, { filename: 'cm.yaml' })));
    expect(describeFailure(located)).toEqual({ status: 2, text: "cm.yaml:8:11: Unexpected '}' because no matching opening brace\n" });
  });

  it('exits 1 for a refusal, keeping the lines of its table', () => {
    const check = { ok: false, equivalent: false, names: ['a.org'], differences: [], notes: [] };
    const failure = describeFailure(new RoutingMismatchError(check as never));
    expect(failure.status).toBe(1);
    expect(failure.text).toMatch(/^kube-dns-to-coredns: kube-dns and the Corefile route 0 of 1 checked names differently:\n/);
  });

  it('calls a bug a bug: internal errors and unexpected exceptions ask for a report, with the stack', () => {
    for (const error of [new SelfCheckError('zone-served-twice', 'zone a.org. is served twice'), new TypeError('x is undefined')]) {
      const failure = describeFailure(error);
      expect(failure.status).toBe(1);
      expect(failure.text).toMatch(/^kube-dns-to-coredns: internal error, please report it:\n/);
      expect(failure.text).toMatch(STACK_LINE);
    }
    expect(describeFailure('a string').text).toBe('kube-dns-to-coredns: internal error, please report it:\na string\n');
  });

  it('tells input failures from the rest', () => {
    expect(isInputFailure(new UsageError('bad'))).toBe(true);
    expect(isInputFailure(new TranslateOptionsError('invalid-cluster-dns-ip', 'bad'))).toBe(true);
    expect(isInputFailure(new SelfCheckError('no-destination', 'bad'))).toBe(false);
    expect(isInputFailure(new Error('bad'))).toBe(false);
  });
});

describe('optionValue', () => {
  it('names the option in an input error of the library, and lets anything else through', () => {
    expect(optionValue('', '--coredns', 'v1.8.0', parseCoreDnsVersion)).toBe('1.8.0');
    expect(() => optionValue('lint', '--coredns', '1.8', parseCoreDnsVersion)).toThrow(new UsageError("lint: --coredns: unknown CoreDNS version '1.8': name the patch release, one of 1.8.0, 1.8.1, 1.8.2, 1.8.3, 1.8.4, 1.8.5, 1.8.6, 1.8.7; '1.8' is not taken to mean any of them (known releases: 1.0.0 to 1.14.7)"));
    expect(() => optionValue('', '--x', 'y', () => {
      throw new RangeError('a bug');
    })).toThrow(RangeError);
  });
});
