import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { checkRouting, formatRoutingCheck, routingModels } from '../../src/routing/check.js';
import { describeDestination } from '../../src/routing/destination.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import type { TranslateOptions } from '../../src/translate/translate.js';
import { singleLabelPattern } from '../../src/translate/unqualified-names.js';
import { deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';
import { Outcomes } from '../support/outcomes.js';

/** The translation of a Deployment with `extra` dnsmasq flags and a kubedns image of `kubeDns`. */
function translate(extra: readonly string[], kubeDns: string, options: TranslateOptions = {}) {
  const text = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, ...extra], kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${kubeDns}` });
  const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]), options);
  const quirk = translation.diagnostics.filter((entry) => entry.message.startsWith('trailing-dot-domains')).map((entry) => `${entry.severity} ${entry.code}`);
  return { text, translation, quirk, main: (translation.corefile ?? '').split('\n\n')[0] ?? '' };
}

describe('names without a dot under dnsmasq 2.86+ (trailing-dot-domains)', () => {
  it("keeps kubespray's --local=/internal./local./lc./ answering names of one label NXDOMAIN from kube-dns 1.22.1, as its dnsmasq did", () => {
    const kept = translate(['--local=/internal./local./lc./'], '1.22.1');
    expect(kept.quirk).toEqual(['warning kube-dns-quirk-kept']);
    expect(kept.main).toContain('    template ANY ANY {\n        match ^');
    expect(kept.main).toContain('        rcode NXDOMAIN\n        fallthrough\n    }');
    expect(checkRouting({ kubeDns: kept.text, corefile: kept.translation.corefile ?? '' }).equivalent).toBe(true);
    // kube-dns 1.22.0 shipped dnsmasq 2.85, which read the domains one by one: nothing to keep.
    const before = translate(['--local=/internal./local./lc./'], '1.22.0');
    expect(before.quirk).toEqual([]);
    expect(before.main).not.toContain('template');
    expect(checkRouting({ kubeDns: before.text, corefile: before.translation.corefile ?? '' }).equivalent).toBe(true);
  });

  it('before the fix, the same Corefile without the template fails check on the names of one label (the model follows dnsmasq)', () => {
    const kept = translate(['--local=/internal./local./lc./'], '1.26.7');
    const without = (kept.translation.corefile ?? '').replace(/ {4}template ANY ANY \{\n {8}match [^\n]*\n {8}rcode NXDOMAIN\n {8}fallthrough\n {4}\}\n/, '');
    expect(without).not.toContain('match');
    const check = checkRouting({ kubeDns: kept.text, corefile: without });
    expect(check.differences.map((difference) => difference.name)).toEqual(['arpa', 'example', 'x']);
  });

  it('repairs it on request (check --repair expects exactly those names), and reports what it cannot keep', () => {
    const repaired = translate(['--local=/internal./local./lc./'], '1.26.7', { repair: ['trailing-dot-domains'] });
    expect(repaired.quirk).toEqual(['info kube-dns-quirk-repaired']);
    expect(repaired.main).not.toContain('template');
    const check = checkRouting({ kubeDns: repaired.text, corefile: repaired.translation.corefile ?? '', repairs: ['trailing-dot-domains'] });
    expect(check.equivalent).toBe(true);
    expect(check.repaired.map((difference) => difference.name)).toEqual(['arpa', 'example', 'x']);
    // Servers for names without a dot: CoreDNS has no zone to send them elsewhere.
    const servers = translate(['--server=/corp./lan/10.0.0.9'], '1.26.7');
    expect(servers.quirk).toEqual(['warning deployment-flag-not-translated']);
    // `local` too: dnsmasq has no zone of that name here, so its servers got it.
    // check with the same inputs passes on it (#18 trial M1 c19): the names are listed as expected, not failures.
    const serversCheck = checkRouting({ kubeDns: servers.text, corefile: servers.translation.corefile ?? '' });
    expect(serversCheck.ok).toBe(true);
    expect(serversCheck.differences).toEqual([]);
    expect(serversCheck.unavoidable.map((difference) => difference.name)).toEqual(['arpa', 'example', 'local', 'x']);
    expect(formatRoutingCheck(serversCheck)).toContain('Expected (4 names without a dot: dnsmasq sent them to servers it applied to names without a dot');
    // Only those: a name with a dot sent elsewhere still fails.
    const moved = checkRouting({ kubeDns: servers.text, corefile: (servers.translation.corefile ?? '').replace('lan:53 {', 'lan.example:53 {') });
    expect(moved.ok).toBe(false);
    expect(moved.differences.map((difference) => difference.name)).toContain('x.lan');
    // An address answers them with it.
    const address = translate(['--address=/ads./track/192.0.2.7'], '1.26.7');
    expect(address.main).toContain('    template IN A {\n        match ^');
    expect(address.main).toContain('        answer "{{ .Name }} 0 IN A 192.0.2.7"');
    expect(checkRouting({ kubeDns: address.text, corefile: address.translation.corefile ?? '' }).equivalent).toBe(true);
  });

  it('leaves the one-label zones dnsmasq has an entry for to that entry (a cluster domain of one label)', () => {
    const kubedns = ['--domain=local.', '--dns-port=10053'];
    const text = deploymentYaml({ kubedns, dnsmasq: [...STOCK_DNSMASQ_ARGS.map((arg) => arg.replace('cluster.local', 'local')), '--local=/lan./internal/'] });
    const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]), {});
    expect(checkRouting({ kubeDns: text, corefile: translation.corefile ?? '', names: ['local', 'lan', 'internal', 'loc', 'locals', 'other'] }).equivalent).toBe(true);
  });

  it('singleLabelPattern matches exactly the names of one label outside the excluded ones', () => {
    const outcomes = new Outcomes<'excluded' | 'matched' | 'longer name' | 'prefix of an excluded label'>();
    const label = fc.stringMatching(/^[a-c-]{1,4}$/);
    fc.assert(
      // The candidate is one of the excluded labels a third of the time.
      fc.property(fc.uniqueArray(label, { maxLength: 5 }).chain((excluded) => fc.tuple(fc.constant(excluded), excluded.length === 0 ? label : fc.oneof(label, label, fc.constantFrom(...excluded)), fc.boolean())), ([excluded, candidate, dotted]) => {
        const regex = new RegExp(singleLabelPattern(excluded));
        const name = dotted ? `${candidate}.x.` : `${candidate}.`;
        const expected = !dotted && !excluded.includes(candidate);
        expect(regex.test(name), `${singleLabelPattern(excluded)} on ${name}`).toBe(expected);
        expect(regex.test('.')).toBe(false);
        if (dotted) outcomes.add('longer name');
        else if (excluded.includes(candidate)) outcomes.add('excluded');
        else outcomes.add('matched');
        if (!dotted && excluded.some((other) => other !== candidate && other.startsWith(candidate))) outcomes.add('prefix of an excluded label');
      }),
      { numRuns: 600 },
    );
    outcomes.expectAtLeast({ excluded: 30, matched: 100, 'longer name': 100, 'prefix of an excluded label': 10 });
  });
});

describe('every name to kubedns through the default server (#18, found by the real comparison)', () => {
  it('a --local domain above the cluster domain beats the default server: the cluster domain never reached kubedns', () => {
    const text = deploymentYaml({ nanny: false, kubedns: ['--domain=cluster.local.', '--dns-port=10053'], dnsmasq: ['--cache-size=1000', '--no-resolv', '--server=127.0.0.1#10053', '--local=/local/'] });
    const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]), {});
    // Before: translated with cluster.local protected in the main block, though dnsmasq answered every cluster name NXDOMAIN.
    expect(translation.ok).toBe(false);
    expect(translation.diagnostics.filter((entry) => entry.severity === 'error').map((entry) => entry.code)).toEqual(['kube-dns-quirk-kept']);
    // The model: dnsmasq answered them itself (real dnsmasq: test/routing/dnsmasq-coredns-comparison.test.ts).
    const model = routingModels({ kubeDns: text, corefile: '' }).kubeDns;
    expect(describeDestination(model.route('kubernetes.default.svc.cluster.local').destination)).toBe('plugin template');
    expect(describeDestination(model.route('example.com').destination)).toBe('resolv.conf');
    const repaired = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]), { repair: ['unserved-cluster-zones'] });
    expect(repaired.ok).toBe(true);
    expect(checkRouting({ kubeDns: text, corefile: repaired.corefile ?? '', repairs: ['unserved-cluster-zones'] }).equivalent).toBe(true);
  });
});

describe("names without a dot written for them: --address=//IP, --local=//, --server=//IP (dnsmasq SERV_FOR_NODOTS, every release)", () => {
  /** The main block's lines that are about names of one label. */
  const templates = (main: string) => main.split('\n').filter((line) => /template|match|answer|rcode/.test(line)).map((line) => line.trim());

  it.each([
    // dnsmasq 2.86+ (kube-dns 1.22.1+): the address's type, then REFUSED for the others (measured with 2.90).
    ['--address=//192.0.2.7', '1.26.7', ['template IN A {', 'match ^[^.][^.]*\\.$', 'answer "{{ .Name }} 0 IN A 192.0.2.7"', 'template ANY ANY {', 'match ^[^.][^.]*\\.$', 'rcode REFUSED']],
    // dnsmasq 2.85 and older (forward.c search_servers): NODATA for the others.
    ['--address=//192.0.2.7', '1.14.10', ['template IN A {', 'match ^[^.][^.]*\\.$', 'answer "{{ .Name }} 0 IN A 192.0.2.7"', 'template ANY ANY {', 'match ^[^.][^.]*\\.$', 'rcode NOERROR']],
    ['--local=//', '1.26.7', ['template ANY ANY {', 'match ^[^.][^.]*\\.$', 'rcode NXDOMAIN']],
    ['--address=//#', '1.26.7', ['template IN A {', 'match ^[^.][^.]*\\.$', 'answer "{{ .Name }} 0 IN A 0.0.0.0"', 'template IN AAAA {', 'match ^[^.][^.]*\\.$', 'answer "{{ .Name }} 0 IN AAAA ::"', 'template ANY ANY {', 'match ^[^.][^.]*\\.$', 'rcode REFUSED']],
  ] as const)('%s on kube-dns %s: kept by a template of the main block, and check fails on a Corefile without it', (flag, release, expected) => {
    const kept = translate([flag], release);
    expect(kept.translation.ok).toBe(true);
    // `#` alone: dnsmasq answers ANY with both null addresses, a template with one (any-query-one-family).
    const said = flag === '--address=//#' ? ['info dnsmasq-option-translated', 'warning any-query-one-family'] : ['info dnsmasq-option-translated'];
    expect(kept.translation.diagnostics.filter((entry) => entry.path === `[${flag}]`).map((entry) => `${entry.severity} ${entry.code}`)).toEqual(said);
    expect(templates(kept.main)).toEqual(expected);
    const check = checkRouting({ kubeDns: kept.text, corefile: kept.translation.corefile ?? '' });
    expect(check.ok, formatRoutingCheck(check)).toBe(true);
    // Before: the flag was left out with a warning and the model said "not modelled", so check passed on this.
    const without = checkRouting({ kubeDns: kept.text, corefile: (kept.translation.corefile ?? '').replace(/ {4}template [^\n]*\n(?: {8}[^\n]*\n)* {4}\}\n/g, '') });
    expect(without.ok).toBe(false);
    expect(without.differences.map((difference) => difference.name)).toContain('example');
    expect(without.notes.join('\n')).not.toContain('not modelled');
  });

  it('says where an ANY query gets one null address instead of two, with the quirk as well, and check expects exactly that (#18, seed -1864508288)', () => {
    // Found by real dnsmasq against real CoreDNS 1.2.6: dnsmasq 2.90 answered ANY for `example` with A 0.0.0.0 and AAAA ::,
    // CoreDNS with A 0.0.0.0; the note was given only where no trailing-dot domain list applied as well.
    for (const extra of [['--local=/corp.example./x.cluster.local/', '--address=//#'], ['--address=//#']]) {
      const kept = translate(extra, '1.26.7', { coredns: '1.2.6' });
      expect(kept.translation.ok).toBe(true);
      const note = kept.translation.diagnostics.find((entry) => entry.code === 'any-query-one-family');
      expect(note?.path, extra.join(' ')).toBe('[--address=//#]');
      expect(note?.message).toContain('with A 0.0.0.0 only');
      const check = checkRouting({ kubeDns: kept.text, corefile: kept.translation.corefile ?? '', coredns: '1.2.6' });
      expect(check.ok, formatRoutingCheck(check)).toBe(true);
      expect(check.anyAnswers.filter((entry) => entry.name === 'example')).toEqual([{ name: 'example', kubeDns: ['A', 'AAAA'], coreDns: ['A'], unavoidable: true }]);
      expect(formatRoutingCheck(check)).toContain('expected: example ANY: kube-dns answered A and AAAA, the Corefile answers A');
    }
    // Any other address: dnsmasq answers ANY with one family, the first template the same one; no note.
    for (const extra of [['--address=//10.9.9.9', '--address=//#'], ['--address=//fd00::1', '--address=//#'], ['--address=//10.9.9.9', '--address=//fd00::1']]) {
      const kept = translate(extra, '1.26.7');
      expect(kept.translation.diagnostics.map((entry) => entry.code)).not.toContain('any-query-one-family');
      const check = checkRouting({ kubeDns: kept.text, corefile: kept.translation.corefile ?? '' });
      expect(check.ok, formatRoutingCheck(check)).toBe(true);
      expect(check.anyAnswers, extra.join(' ')).toEqual([]);
    }
  });

  it('check fails where a template answers ANY with another family than dnsmasq did', () => {
    const kept = translate(['--address=//10.9.9.9', '--address=//fd00::1'], '1.26.7');
    // The A template first: an ANY query gets A, where dnsmasq 2.90 answered the IPv6 address.
    const swapped = (kept.translation.corefile ?? '').replace(
      /( {4}template IN AAAA \{\n(?: {8}[^\n]*\n)* {4}\}\n)( {4}template IN A \{\n(?: {8}[^\n]*\n)* {4}\}\n)/,
      '$2$1',
    );
    expect(swapped).not.toBe(kept.translation.corefile);
    const check = checkRouting({ kubeDns: kept.text, corefile: swapped });
    expect(check.ok).toBe(false);
    expect(check.differences).toEqual([]);
    expect(check.anyAnswers.find((entry) => entry.name === 'example')).toEqual({ name: 'example', kubeDns: ['AAAA'], coreDns: ['A'] });
    expect(formatRoutingCheck(check)).toContain('but answer differently:\narpa ANY: kube-dns answered AAAA, the Corefile answers A\nexample ANY:');
  });

  it('answers every address of each family, the IPv6 ones first (an ANY query gets them, as from dnsmasq 2.90)', () => {
    // Found by the comparison with real dnsmasq: the first address alone had been kept, so AAAA got REFUSED.
    const both = translate(['--address=//10.9.9.9', '--address=//fd00::1', '--address=//fd00::2'], '1.26.7');
    expect(templates(both.main)).toEqual([
      'template IN AAAA {',
      'match ^[^.][^.]*\\.$',
      'answer "{{ .Name }} 0 IN AAAA fd00::1"',
      'answer "{{ .Name }} 0 IN AAAA fd00::2"',
      'template IN A {',
      'match ^[^.][^.]*\\.$',
      'answer "{{ .Name }} 0 IN A 10.9.9.9"',
      'template ANY ANY {',
      'match ^[^.][^.]*\\.$',
      'rcode REFUSED',
    ]);
    expect(checkRouting({ kubeDns: both.text, corefile: both.translation.corefile ?? '' }).ok).toBe(true);
    // `#` answers the family no address has.
    const zeros = translate(['--address=//10.9.9.9', '--address=//#'], '1.26.7');
    expect(templates(zeros.main).filter((line) => line.startsWith('answer'))).toEqual(['answer "{{ .Name }} 0 IN A 10.9.9.9"', 'answer "{{ .Name }} 0 IN AAAA ::"']);
  });

  it('--server=//IP: CoreDNS has no zone for names without a dot; a warning, and check lists those names as expected', () => {
    const servers = translate(['--server=//10.0.0.9'], '1.22.0');
    expect(servers.translation.diagnostics.filter((entry) => entry.path === '[--server=//10.0.0.9]').map((entry) => `${entry.severity} ${entry.code}`)).toEqual(['warning deployment-flag-not-translated']);
    const check = checkRouting({ kubeDns: servers.text, corefile: servers.translation.corefile ?? '' });
    expect(check.ok).toBe(true);
    expect(check.unavoidable.map((difference) => difference.name)).toEqual(['arpa', 'example', 'local', 'x']);
    expect(describeDestination(check.unavoidable[1]!.kubeDns.destination)).toBe('10.0.0.9:53');
    // Names with a dot are not affected.
    expect(routingModels({ kubeDns: servers.text, corefile: '' }).kubeDns.route('example.com').destination).toEqual({ kind: 'resolv.conf' });
  });

  it('the entries written for names without a dot stay when trailing-dot-domains is repaired', () => {
    const both = translate(['--address=//192.0.2.7', '--local=/internal./lan/'], '1.26.7', { repair: ['trailing-dot-domains'] });
    expect(both.translation.diagnostics.map((entry) => `${entry.severity} ${entry.code}`)).toContain('info kube-dns-quirk-repaired');
    expect(templates(both.main)).toContain('answer "{{ .Name }} 0 IN A 192.0.2.7"');
    expect(checkRouting({ kubeDns: both.text, corefile: both.translation.corefile ?? '', repairs: ['trailing-dot-domains'] }).ok).toBe(true);
    // Unrepaired, the quirk's NXDOMAIN entry comes after the address: the address answers A, NODATA the rest.
    const kept = translate(['--address=//192.0.2.7', '--local=/internal./lan/'], '1.26.7');
    expect(templates(kept.main).filter((line) => line.startsWith('rcode'))).toEqual(['rcode NOERROR']);
    expect(checkRouting({ kubeDns: kept.text, corefile: kept.translation.corefile ?? '' }).ok).toBe(true);
  });

  it('--server=//# is named, not dropped: dnsmasq 2.90 crashes on the first name without a dot with it (measured)', () => {
    const crash = translate(['--server=//#'], '1.26.7');
    expect(crash.translation.diagnostics.filter((entry) => entry.path === '[--server=//#]').map((entry) => `${entry.severity} ${entry.code}`)).toEqual(['warning deployment-flag-not-translated']);
    expect(checkRouting({ kubeDns: crash.text, corefile: crash.translation.corefile ?? '' }).notes.join('\n')).toContain('--server=//#: dnsmasq 2.90 stops');
  });

  it("a one-label --address zone of one family beside an address and servers for names without a dot: its own name answers the other family as dnsmasq did (property seed -1178352845)", () => {
    // dnsmasq 2.90: `arpa` A passes the AAAA-only zone and meets the entries for names without a dot: //# answers 0.0.0.0.
    const zone = translate(['--server=//1.0.0.1', '--address=//#', '--address=/arpa/fd00::1'], '1.26.7', { coredns: '1.2.6' });
    const arpa = (zone.translation.corefile ?? '').split('\n\n').find((block) => block.startsWith('arpa:53')) ?? '';
    expect(arpa).toContain('match ^arpa\\.$');
    expect(arpa).toContain('answer "{{ .Name }} 0 IN A 0.0.0.0"');
    expect(zone.translation.diagnostics.filter((entry) => entry.path === '[--address=/arpa/fd00::1]' && entry.code === 'deployment-flag-not-translated').map((entry) => entry.message)).toEqual([
      "dnsmasq sent the other query types of the name 'arpa' to the --server entries for names without a dot; not kept: the template block sends them upstream (check lists them as expected)",
    ]);
    const check = checkRouting({ kubeDns: zone.text, corefile: zone.translation.corefile ?? '', coredns: '1.2.6' });
    expect(check.ok, formatRoutingCheck(check)).toBe(true);
  });

  it('a domain beside the empty one is still a domain (--server=/corp//IP)', () => {
    const text = translate(['--server=/corp.test//10.0.0.9'], '1.26.7');
    expect(text.translation.corefile).toContain('corp.test:53 {');
    const check = checkRouting({ kubeDns: text.text, corefile: text.translation.corefile ?? '' });
    expect(check.ok).toBe(true);
    expect(check.unavoidable.map((difference) => difference.name)).toContain('example');
  });
});
