import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { kubeDnsRules, UnsupportedKubeDnsVersionError } from '../../src/kubedns/kube-dns-versions.js';
import { stubNameserverProblem, upstreamNameserverProblem } from '../../src/kubedns/nameserver-rules.js';
import { EXAMINED_LIST_ITEMS, readKubeDnsConfig } from '../../src/kubedns/read-kube-dns-config.js';
import { checkRouting } from '../../src/routing/check.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

function lines(data: Record<string, string> | null, kubeDnsVersion?: string): string[] {
  return readKubeDnsConfig(data, kubeDnsVersion === undefined ? {} : { kubeDnsVersion }).diagnostics.map(formatDiagnostic);
}

describe('readKubeDnsConfig', () => {
  it('reads the three keys in first-appearance order, last duplicate winning', () => {
    const reading = readKubeDnsConfig({
      stubDomains: '{"b.local": ["1.1.1.1"], "a.local": ["2.2.2.2", "ns.a.local"], "b.local": ["3.3.3.3:5353"]}',
      upstreamNameservers: '["8.8.8.8", "[2001:db8::1]:53"]',
      federations: 'foo=foo.example.com, bar = bar.example.com',
    });
    expect(reading.acceptedByKubeDns).toBe(true);
    expect(reading.diagnostics).toEqual([]);
    expect(reading.config.stubDomains.map((stub) => [stub.domain, stub.nameservers.map((ns) => ns.value)])).toEqual([
      ['b.local', ['3.3.3.3:5353']],
      ['a.local', ['2.2.2.2', 'ns.a.local']],
    ]);
    expect(reading.config.upstreamNameservers?.map((ns) => ns.value)).toEqual(['8.8.8.8', '[2001:db8::1]:53']);
    expect(reading.config.federations?.map((federation) => [federation.name, federation.domain])).toEqual([
      ['foo', 'foo.example.com'],
      ['bar', 'bar.example.com'],
    ]);
  });

  it('tells an absent upstream key from an empty one', () => {
    expect(readKubeDnsConfig({}).config.upstreamNameservers).toBeUndefined();
    expect(readKubeDnsConfig({ upstreamNameservers: '[]' }).config.upstreamNameservers).toEqual([]);
    expect(readKubeDnsConfig({ upstreamNameservers: 'null' }).config.upstreamNameservers).toEqual([]);
    expect(readKubeDnsConfig(null).config).toEqual({ stubDomains: [], upstreamNameservers: undefined, federations: undefined });
  });

  it('reports JSON syntax errors with Go’s text and the position inside the value', () => {
    expect(lines({ stubDomains: '{\n  "a.com": [1.1.1.1]\n}' })).toEqual([
      "error json-syntax stubDomains: not valid JSON: invalid character '.' after array element",
    ]);
    const [syntax] = readKubeDnsConfig({ stubDomains: '{\n  "a.com": [1.1.1.1]\n}' }).diagnostics;
    expect(syntax?.position).toEqual({ line: 2, column: 16 });
  });

  it('reports every wrong shape with its JSON path', () => {
    expect(lines({ stubDomains: '{"a.com": "1.1.1.1", "b.com": [1, "2.2.2.2"]}', upstreamNameservers: '{"x": 1}' })).toEqual([
      'error json-type stubDomains["a.com"]: must be an array, not a string',
      'error json-type stubDomains["b.com"][0]: must be a string, not a number',
      'error json-type upstreamNameservers: must be an array, not an object',
    ]);
  });

  it('applies kube-dns’s name rules', () => {
    expect(lines({ stubDomains: '{"Acme.Local": [], "acme.local.": [], "bücher.example": [], "": []}' })).toEqual([
      'error kube-dns-invalid-domain stubDomains["Acme.Local"]: \'Acme.Local\' is not a DNS-1123 subdomain',
      'error kube-dns-invalid-domain stubDomains["acme.local."]: \'acme.local.\' is not a DNS-1123 subdomain',
      'error kube-dns-invalid-domain stubDomains["bücher.example"]: \'bücher.example\' is not a DNS-1123 subdomain',
      'error kube-dns-invalid-domain stubDomains[""]: \'\' is not a DNS-1123 subdomain',
    ]);
    expect(lines({ upstreamNameservers: '["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"]' })).toEqual([
      'error kube-dns-too-many-upstreams upstreamNameservers: 4 upstream nameservers; kube-dns accepts at most 3',
    ]);
  });

  it('reads federations as name=domain and flags kubeadm’s JSON reading', () => {
    expect(lines({ federations: 'foo=foo.example.com,bar' })).toEqual(["error federations-format federations: 'bar' is not name=domain"]);
    expect(lines({ federations: 'My_Fed=example.com' })).toEqual(['error kube-dns-invalid-federation federations["My_Fed"]: name \'My_Fed\' is not a DNS-1123 label']);
    const json = readKubeDnsConfig({ federations: '{"foo": "foo.example.com"}' });
    expect(json.diagnostics.map(formatDiagnostic)).toEqual([
      'warning federations-json federations: federations is a JSON object; kube-dns expects name=domain pairs and rejected it',
    ]);
    expect(json.acceptedByKubeDns).toBe(false);
    expect(json.config.federations?.map((entry) => entry.name)).toEqual(['foo']);
    expect(readKubeDnsConfig({ federations: '  ' }).config.federations).toBeUndefined();
  });

  it('reports nameservers kube-dns refused, and all-or-nothing acceptance', () => {
    const reading = readKubeDnsConfig({
      stubDomains: '{"a.local": ["ns.example.com:53", "10.0.0.1"]}',
      upstreamNameservers: '["dns.google"]',
    });
    expect(reading.diagnostics.map(formatDiagnostic)).toEqual([
      "error kube-dns-invalid-nameserver stubDomains[\"a.local\"][0]: 'ns.example.com:53': neither an IP address (with an optional port) nor a hostname without a port",
      "error kube-dns-invalid-upstream upstreamNameservers[0]: 'dns.google': not an IP address or IP:port (kube-dns accepts no hostnames here)",
    ]);
    expect(reading.acceptedByKubeDns).toBe(false);
  });

  it('notes data keys kube-dns does not read', () => {
    expect(lines({ 'stubDomains.bak': '{}' })).toEqual(["info unrelated-key stubDomains.bak: kube-dns does not read data key 'stubDomains.bak'; it is not translated"]);
  });

  it('warns when a data key holds kube-dns settings itself (a file added with kubectl create configmap --from-file)', () => {
    const fromYamlFile = readKubeDnsConfig({
      'kube-dns.yaml': 'stubDomains: |\n  {"acme.local": ["1.2.3.4"]}\nupstreamNameservers: |\n  ["8.8.8.8"]\n',
    });
    expect(fromYamlFile.diagnostics.map(formatDiagnostic)).toEqual([
      "warning settings-in-other-key kube-dns.yaml: data key 'kube-dns.yaml' holds kube-dns settings (stubDomains, upstreamNameservers) in its text; kube-dns reads only data keys of those names, so it ignored them, and they are not translated",
    ]);
    expect(fromYamlFile.diagnostics[0]?.position).toEqual({ line: 1, column: 1 });
    expect(fromYamlFile.acceptedByKubeDns).toBe(true);
    expect(fromYamlFile.config).toEqual({ stubDomains: [], upstreamNameservers: undefined, federations: undefined });
    // A whole ConfigMap as the file, and JSON on one line.
    const wholeConfigMap = configMapYaml({ federations: 'a=b.example' }, { metadata: 'block', namespace: null });
    expect(readKubeDnsConfig({ 'cm.yaml': wholeConfigMap }).diagnostics.map((entry) => [entry.code, entry.position])).toEqual([['settings-in-other-key', { line: 6, column: 3 }]]);
    expect(lines({ 'settings.json': '{"upstreamNameservers": "[\\"8.8.8.8\\"]"}' })[0]).toMatch(/^warning settings-in-other-key settings\.json: .*\(upstreamNameservers\)/);
    // A key that merely mentions a setting is unrelated.
    expect(lines({ notes: 'set upstreamNameservers to the office resolvers' })).toEqual(["info unrelated-key notes: kube-dns does not read data key 'notes'; it is not translated"]);
  });

  it.each(readdirSync(join(import.meta.dirname, '../../golden/realworld/kube-dns')).filter((file) => !file.startsWith('19-')))('never throws on real-world %s', (file) => {
    const text = readFileSync(join(import.meta.dirname, '../../golden/realworld/kube-dns', file), 'utf8');
    const reading = readKubeDnsConfig(readConfigMap(text).data);
    expect(reading.acceptedByKubeDns).toBe(!reading.diagnostics.some((entry) => entry.severity === 'error' || entry.code === 'federations-json'));
  });
});

describe('kube-dns nameserver rules per version', () => {
  const newest = kubeDnsRules();
  const v1_22 = kubeDnsRules('1.22.20');
  const v1_16 = kubeDnsRules('1.16.0');
  const v1_14_1 = kubeDnsRules('1.14.1');

  it.each([
    ['1.2.3.4', newest, undefined],
    ['1.2.3.4:5353', newest, undefined],
    ['1.2.3.4:0', newest, undefined],
    ['2001:db8::1', newest, undefined],
    ['[2001:db8::1]:5353', newest, undefined],
    ['ns.example.com', newest, undefined],
    ['ns.example.com:53', newest, /neither an IP/],
    ['[2001:db8::1]', newest, /neither an IP/],
    ['NS.example.com', newest, /neither an IP/],
    ['1.2.3.4:65536', newest, /port '65536'/],
    ['2001:DB8::1', v1_22, undefined],
    ['2001:DB8::1', newest, /canonical IP text/],
    ['010.0.0.1', v1_22, undefined],
    // Not canonical IP text, but a valid DNS-1123 subdomain: accepted as a hostname.
    ['010.0.0.1', newest, undefined],
    ['::FFFF:1.2.3.4', newest, /canonical IP text/],
    ['2001:db8::1', v1_16, /IPv6 addresses are refused \(accepted from 1\.17\.0\)/],
    ['1.2.3.4:53', v1_16, undefined],
    ['1.2.3.4:53', v1_14_1, /no port on stub nameservers/],
  ] as const)('stub %s', (nameserver, rules, problem) => {
    const found = stubNameserverProblem(nameserver, rules);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  it.each([
    ['8.8.8.8', newest, undefined],
    ['8.8.8.8:53', newest, undefined],
    ['[2001:db8::1]:53', newest, undefined],
    ['8.8.8.8:0', newest, /port '0'/],
    ['[2001:db8::1]', newest, /not an IP address or IP:port/],
    ['dns.google:53', newest, /'dns\.google' is not an IP/],
    ['8.8.8.8:53', kubeDnsRules('1.14.8'), /only bare IP addresses here \(ports from 1\.14\.9\)/],
  ] as const)('upstream %s', (nameserver, rules, problem) => {
    const found = upstreamNameserverProblem(nameserver, rules);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  it('knows its version range', () => {
    expect(newest.version).toBe('1.26.7');
    expect(() => kubeDnsRules('1.13.0')).toThrow(UnsupportedKubeDnsVersionError);
    expect(() => kubeDnsRules('1.27.0')).toThrow(/1\.14\.0 to 1\.26\.7/);
    expect(() => kubeDnsRules('latest')).toThrow(/not a version like 1\.22\.20/);
    expect(() => kubeDnsRules('1.27.0')).toThrow(expect.objectContaining({ code: 'out-of-range', category: 'input' }));
    expect(() => kubeDnsRules('latest')).toThrow(expect.objectContaining({ code: 'syntax' }));
    expect(kubeDnsRules('v1.15.1').stubHostnamesResolved).toBe(true);
    expect(kubeDnsRules('1.15.0').stubHostnamesResolved).toBe(false);
  });
});

describe('readKubeDnsConfig on lists too long to translate', () => {
  const addresses = (count: number, make = (index: number) => `10.0.${index >> 8}.${index & 255}`) => Array.from({ length: count }, (_, index) => make(index));

  it(`reads ${EXAMINED_LIST_ITEMS} upstream nameservers, counts the rest, and says so once`, () => {
    const reading = readKubeDnsConfig({ upstreamNameservers: JSON.stringify(addresses(100_000, () => 'not an address')) });
    expect(reading.acceptedByKubeDns).toBe(false);
    expect(reading.config.upstreamNameservers).toHaveLength(EXAMINED_LIST_ITEMS);
    expect(reading.config.listedUpstreamNameservers).toBe(100_000);
    const counts = new Map<string, number>();
    for (const entry of reading.diagnostics) counts.set(entry.code, (counts.get(entry.code) ?? 0) + 1);
    // One count error and one note, and no more item diagnostics than items read (not 100,000).
    expect(Object.fromEntries(counts)).toEqual({ 'kube-dns-too-many-upstreams': 1, 'long-list-not-examined': 1, 'kube-dns-invalid-upstream': EXAMINED_LIST_ITEMS });
    expect(reading.diagnostics.slice(0, 2).map(formatDiagnostic)).toEqual([
      'error kube-dns-too-many-upstreams upstreamNameservers: 100000 upstream nameservers; kube-dns accepts at most 3',
      `warning long-list-not-examined upstreamNameservers: only the first ${EXAMINED_LIST_ITEMS} of 100000 upstream nameservers were examined`,
    ]);
  });

  it(`keeps a list of ${EXAMINED_LIST_ITEMS} whole, with no note`, () => {
    const reading = readKubeDnsConfig({ stubDomains: JSON.stringify({ 'a.example': addresses(EXAMINED_LIST_ITEMS) }) });
    expect(reading.diagnostics).toEqual([]);
    expect(reading.config.stubDomains[0]?.nameservers).toHaveLength(EXAMINED_LIST_ITEMS);
    expect(reading.config.stubDomains[0]).not.toHaveProperty('listedNameservers');
    expect(reading.config).not.toHaveProperty('listedUpstreamNameservers');
  });

  it('notes a long stub list and still finds an item of the wrong type after the ones read', () => {
    const list: unknown[] = addresses(EXAMINED_LIST_ITEMS + 50);
    list[EXAMINED_LIST_ITEMS + 10] = 7;
    list[EXAMINED_LIST_ITEMS + 20] = ['nested'];
    list[EXAMINED_LIST_ITEMS + 30] = null;
    const text = JSON.stringify({ 'b.example': ['1.1.1.1'], 'a.example': list });
    const reading = readKubeDnsConfig({ stubDomains: text });
    expect(reading.diagnostics.map(formatDiagnostic)).toEqual([
      `error json-type stubDomains["a.example"][${EXAMINED_LIST_ITEMS + 10}]: must be a string, not a number (and 1 more item of another type after it)`,
      `warning long-list-not-examined stubDomains["a.example"]: 'a.example': only the first ${EXAMINED_LIST_ITEMS} of ${EXAMINED_LIST_ITEMS + 50} nameservers were examined`,
    ]);
    // The type error points at the item in the value's text.
    const typeError = reading.diagnostics[0];
    expect(typeError?.position).toEqual({ line: 1, column: text.indexOf(',7,') + 2 });
    expect(reading.acceptedByKubeDns).toBe(false);
    expect(reading.config.stubDomains.map((stub) => [stub.domain, stub.nameservers.length, stub.listedNameservers])).toEqual([
      ['b.example', 1, undefined],
      ['a.example', EXAMINED_LIST_ITEMS, EXAMINED_LIST_ITEMS + 50],
    ]);
  });

  it('reads a key repeated 100,000 times as one stub domain: first position, last value', () => {
    const members = Array.from({ length: 100_000 }, (_, index) => `"a.example": ["10.0.${index >> 8}.${index & 255}"]`);
    const text = `{"z.example": [], ${members.join(', ')}}`;
    const reading = readKubeDnsConfig({ stubDomains: text });
    expect(reading.diagnostics).toEqual([]);
    expect(reading.config.stubDomains.map((stub) => [stub.domain, stub.offset, stub.nameservers.map((entry) => entry.value)])).toEqual([
      ['z.example', 1, []],
      ['a.example', text.indexOf('"a.example"'), [`10.0.${99_999 >> 8}.${99_999 & 255}`]],
    ]);
    expect(reading.config.stubDomains[1]?.nameservers[0]?.offset).toBe(text.lastIndexOf('"10.0.'));
  });
});

describe("GKE's kube-dns on CoreDNS as the reader (kubeDnsVersion 'gke-coredns')", () => {
  const upstreams = (count: number) => JSON.stringify(Array.from({ length: count }, (_, index) => `10.0.${index >> 8}.${(index & 255) + 1}`));

  it('takes up to 15 upstream nameservers and keeps every one, where kube-dns refuses a fourth', () => {
    for (const count of [4, 15]) {
      const reading = readKubeDnsConfig({ upstreamNameservers: upstreams(count) }, { kubeDnsVersion: 'gke-coredns' });
      expect([reading.acceptedByKubeDns, reading.diagnostics, reading.config.upstreamNameservers?.length]).toEqual([true, [], count]);
      expect(readKubeDnsConfig({ upstreamNameservers: upstreams(count) }).acceptedByKubeDns).toBe(false);
    }
  });

  it('refuses a 16th, with the reader and its limit in the message, and keeps kube-dns’s other rules', () => {
    expect(lines({ upstreamNameservers: upstreams(16) }, 'gke-coredns')).toEqual([
      "error kube-dns-too-many-upstreams upstreamNameservers: 16 upstream nameservers; GKE's kube-dns on CoreDNS accepts at most 15",
    ]);
    expect(readKubeDnsConfig({ upstreamNameservers: upstreams(16) }, { kubeDnsVersion: 'gke-coredns' }).acceptedByKubeDns).toBe(false);
    // Everything but the limit is the newest kube-dns's: the same diagnostics for the same values.
    const other = { stubDomains: '{"Acme.Local": ["010.0.0.1"], "ok.local": ["ns.ok.local:53"]}', upstreamNameservers: '["dns.google", null, 5]' };
    expect(lines(other, 'gke-coredns')).toEqual(lines(other));
    const { reader, maxUpstreamNameservers, ...rest } = kubeDnsRules('gke-coredns');
    const { reader: kubeReader, maxUpstreamNameservers: kubeMax, ...newest } = kubeDnsRules();
    expect([reader, maxUpstreamNameservers, kubeReader, kubeMax]).toEqual(['gke-coredns', 15, 'kube-dns', 3]);
    expect(rest).toEqual(newest);
  });

  it('is named as the reader where a rejected ConfigMap is reported (the translation, check and explain), not as kube-dns 1.26.7', () => {
    const data = { upstreamNameservers: upstreams(16) };
    const translation = translateKubeDns(data, { kubeDnsVersion: 'gke-coredns' });
    expect(translation.diagnostics.find((entry) => entry.code === 'kube-dns-would-ignore')?.message).toBe("GKE's kube-dns on CoreDNS rejected this ConfigMap (1 problem) and ran without it");
    const check = checkRouting({ kubeDns: data, corefile: '.:53 {\n    forward . 8.8.8.8\n}\n', kubeDnsVersion: 'gke-coredns' });
    expect(check.notes.find((note) => note.includes('rejects this ConfigMap'))).toMatch(/^kube-dns: GKE's kube-dns on CoreDNS rejects this ConfigMap \(1 problem/);
    expect(translateKubeDns(data).diagnostics.find((entry) => entry.code === 'kube-dns-would-ignore')?.message).toMatch(/^kube-dns 1\.\d+\.\d+ rejected this ConfigMap/);
  });
});
