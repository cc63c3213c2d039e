import { describe, expect, it } from 'vitest';
import type { DiagnosticCode } from '../../src/diagnostics/codes.js';
import { MAX_SNIPPET_EXPANSIONS } from '../../src/corefile/expand.js';
import { lintCorefile } from '../../src/lint/lint.js';
import { snippetChain } from '../support/hostile-inputs.js';
import { RealCoreDnsLab, REAL_COREDNS_RELEASES, realCoreDnsSkip, useRealCoreDnsLab } from '../support/real-coredns.js';
import type { RealCoreDnsRelease, Verdict } from '../support/real-coredns.js';
import { FULL_CORPUS_VARIABLE, SYNTAX_CORPUS, SYNTAX_CORPUS_SAMPLE } from './plugin-syntax-corpus.js';

/**
 * The linter's "CoreDNS stops" findings against the real program: for each Corefile below and each
 * real release, lint predicts a refusal exactly when the real CoreDNS (moved to loopback, see
 * test/support/real-coredns.ts) does not start. Only the codes that mean "does not start" count;
 * others (an upper-case key that never matches, a zone captured from the kubernetes plugin) are
 * about answers, which starting cannot show.
 */

const skip = realCoreDnsSkip('test/lint/real-coredns.test.ts');

/** Lint codes whose message is "CoreDNS … stops" / "does not start". */
const REFUSALS: ReadonlySet<DiagnosticCode> = new Set<DiagnosticCode>([
  'plugin-removed',
  'plugin-not-yet-added',
  'unknown-directive',
  'option-removed',
  'option-not-yet-added',
  'upstream-address-required',
  'forward-without-destination',
  'too-many-destinations',
  'forward-once-per-block',
  'destination-not-ip',
  'destination-invalid',
  'https-destination-unsupported',
  'grpc-destination-unsupported',
  'invalid-server-key',
  'zone-served-twice',
  'health-bound-twice',
  'option-unknown',
  'argument-count',
  'argument-invalid',
  'plugin-repeated',
  'option-repeated',
  'requirement-missing',
]);

const CASES: ReadonlyArray<readonly [string, string]> = [
  ['health in a block with several keys', '.:53 in-addr.arpa:53 ip6.arpa:53 {\n    errors\n    health\n    forward . 10.0.0.1\n}\n'],
  ['health of two blocks, both without an address', '.:53 {\n    health\n    whoami\n}\nacme.local:53 {\n    health\n    whoami\n}\n'],
  ['health of two blocks on different ports', '.:53 {\n    health :8081\n    whoami\n}\nacme.local:53 {\n    health :8082\n    whoami\n}\n'],
  ['health with lameduck in a block with one key', '.:53 {\n    health {\n        lameduck 5s\n    }\n    whoami\n}\n'],
  [
    'prometheus and pprof in a block with several keys, prometheus again in another block',
    '.:53 in-addr.arpa:53 {\n    prometheus :9153\n    pprof\n    whoami\n}\nacme.local:53 {\n    prometheus :9153\n    whoami\n}\n',
  ],
  ['ready in a block with several keys and in another block', '.:53 in-addr.arpa:53 {\n    ready\n    whoami\n}\nacme.local:53 {\n    ready\n    whoami\n}\n'],
  ['two forwards in one block', '.:53 {\n    forward acme.local 10.0.0.1\n    forward . 10.0.0.2\n}\n'],
  ['proxy', '.:53 {\n    proxy . 10.0.0.1\n}\n'],
  ['a zone served twice', 'acme.local:53 {\n    whoami\n}\nacme.local.:53 {\n    whoami\n}\n'],
  ['a key with an empty host', ':53 {\n    whoami\n}\n'],
  // Ports Go's net.Listen refuses ("address N: invalid port"); 0 asks for any free port.
  ['a key with port 99999', '.:99999 {\n    whoami\n}\n'],
  ['a key with port 65536', '.:65536 {\n    whoami\n}\n'],
  ['a key with port -1', '.:-1 {\n    whoami\n}\n'],
  ['a key with a leading dot', '.acme.local {\n    whoami\n}\n'],
  ['a bare kubernetes upstream', '.:53 {\n    kubernetes cluster.local {\n        upstream\n    }\n}\n'],
  ['forward max_concurrent', '.:53 {\n    forward . 10.0.0.1 {\n        max_concurrent 1000\n    }\n}\n'],
  // A port out of range is a warning: CoreDNS starts, and only queries sent there fail.
  ['a forward destination port out of range', '.:53 {\n    forward . 10.0.0.1:70000 10.0.0.2:0\n}\n'],
  // Plugins by release (plugin.cfg), and names no release has.
  ['whoami alone', '.:53 {\n    whoami\n}\n'],
  ['dns64 (1.7.0 and later)', '.:53 {\n    dns64\n    whoami\n}\n'],
  ['grpc (1.5.0 and later)', '.:53 {\n    grpc . 10.0.0.1\n}\n'],
  ['any (1.5.1 and later)', '.:53 {\n    any\n    whoami\n}\n'],
  ['a typo: forwrd', '.:53 {\n    forwrd . 10.0.0.1\n}\n'],
  ['a directive in the wrong case: Whoami', '.:53 {\n    Whoami\n}\n'],
  ['an external plugin: alias', '.:53 {\n    alias\n    whoami\n}\n'],
  ['a typo in a second block', '.:53 {\n    whoami\n}\nacme.local:53 {\n    whoamii\n}\n'],
];

describe.skipIf(skip !== undefined)('lint against real CoreDNS', () => {
  const lab = useRealCoreDnsLab({ concurrency: 8 });

  it('predicts a refusal exactly where the real release does not start', async () => {
    const rows = (
      await Promise.all(
        REAL_COREDNS_RELEASES.map(async (version) => {
          const variants = CASES.map(([name, corefile]) => ({ name, corefile, codes: lintRefusal(corefile, version) })).map((variant) => ({ ...variant, predicted: variant.codes.length > 0 }));
          const verdicts = await judgeCorpus(lab(), version, variants);
          return variants.map(({ name, codes, predicted }) => {
            const verdict = verdicts.get(name) as Verdict;
            return {
              name,
              version,
              predicted,
              refused: !verdict.accepted,
              detail: `${name} @${version}: lint ${predicted ? codes.join(', ') : 'starts'}; CoreDNS ${verdict.accepted ? 'started' : `refused: ${verdict.reason}`}`,
            };
          });
        }),
      )
    ).flat();
    expect(rows.filter((row) => row.predicted !== row.refused).map((row) => row.detail)).toEqual([]);
    // Both outcomes occur for every release, and the health rule is exercised on both sides of 1.6.6.
    for (const version of REAL_COREDNS_RELEASES) {
      expect(rows.filter((row) => row.version === version && row.refused).length, version).toBeGreaterThanOrEqual(2);
      expect(rows.filter((row) => row.version === version && !row.refused).length, version).toBeGreaterThanOrEqual(4);
    }
    const outcomes = (name: string) => rows.filter((row) => row.name === name).map((row) => `${row.version} ${row.refused ? 'refused' : 'started'}`);
    expect(outcomes('health in a block with several keys')).toEqual(['1.2.6 refused', '1.6.9 started', '1.8.0 started', '1.14.7 started']);
    // Plugins that arrive between the real releases, on both sides of their first release.
    expect(outcomes('dns64 (1.7.0 and later)')).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 started', '1.14.7 started']);
    expect(outcomes('grpc (1.5.0 and later)')).toEqual(['1.2.6 refused', '1.6.9 started', '1.8.0 started', '1.14.7 started']);
    expect(outcomes('a typo: forwrd')).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 refused']);
    for (const name of ['a key with port 99999', 'a key with port 65536', 'a key with port -1']) {
      expect(outcomes(name), name).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 refused']);
    }
    expect(outcomes('a forward destination port out of range')).toEqual(['1.2.6 started', '1.6.9 started', '1.8.0 started', '1.14.7 started']);
    // CoreDNS names the unknown directive, as the linter's message says.
    expect(rows.filter((row) => row.name === 'a typo: forwrd').every((row) => row.detail.includes("Unknown directive 'forwrd'"))).toBe(true);
  });

  it('startAll gives each Corefile of a group the verdict it gets alone: a refusal among others is found with its own reason, and only collisions within a Corefile stay', async () => {
    const corefiles = [
      '.:53 {\n    health\n    whoami\n}\n',
      '.:53 {\n    forwrd . 10.0.0.1\n}\n',
      // The same health port as the first: apart, both start.
      '.:53 {\n    health :8080\n    prometheus :9153\n    whoami\n}\n',
      // 1.2.6 binds health once per key: refused, alone and in the group.
      '.:53 in-addr.arpa:53 {\n    health\n    whoami\n}\n',
      'acme.local:53 {\n    errors\n    whoami\n}\n',
    ];
    const started = lab().started;
    const together = await lab().startAll(corefiles, '1.2.6', 8);
    // One start for the group, then halves: [0, 1, 2] and [3, 4], [0, 1] and [2], [0] and [1], [3] and [4].
    expect(lab().started - started).toBe(9);
    const alone = await Promise.all(corefiles.map((corefile) => lab().start(corefile, '1.2.6')));
    expect(together.map((verdict) => verdict.accepted)).toEqual([true, false, true, false, true]);
    expect(alone.map((verdict) => verdict.accepted)).toEqual([true, false, true, false, true]);
    expect(together[1]?.accepted ? '' : together[1]?.reason).toContain("Unknown directive 'forwrd'");
    for (const verdicts of [together, alone]) expect(verdicts[3]?.accepted ? '' : verdicts[3]?.reason).toMatch(/address already in use$/);
    // The two with health on :8080 (and the third) in one process: one start.
    const before = lab().started;
    const apart = await lab().startAll([corefiles[0], corefiles[2], corefiles[4]] as string[], '1.2.6');
    expect(apart.map((verdict) => verdict.accepted)).toEqual([true, true, true]);
    expect(lab().started - before).toBe(1);
  });

  it('1.14.7 starts with 10,000 snippet imports and refuses the 10,001st at the same import as lint', async () => {
    // A chain, not 10,000 imports in one block: CoreDNS splices the tokens of every import into the
    // rest of the block (a block of 10,000 imports takes it 15 s), a chain keeps that short.
    const atBound = snippetChain(MAX_SNIPPET_EXPANSIONS - 1, 'whoami');
    const past = snippetChain(MAX_SNIPPET_EXPANSIONS, 'whoami');
    const [started, refused] = await Promise.all([lab().start(atBound, '1.14.7'), lab().start(past, '1.14.7')]);
    expect(started.accepted).toBe(true);
    expect(lintCorefile(atBound, { coredns: '1.14.7' }).diagnostics).toEqual([]);
    expect(refused.accepted ? '' : refused.reason).toMatch(/:\d+ - Error during parsing: maximum snippet import depth \(10000\) exceeded$/);
    expect(lintCorefile(past, { coredns: '1.14.7' }).diagnostics.map((entry) => `${entry.code} ${entry.position?.line}`)).toEqual(['snippet-expansion-limit 5']);
  });
});

/** Variants started together at most (see {@link judgeCorpus}). */
const GROUP_SIZE = 8;

/** Whether lint says `version` refuses `corefile`, and the codes that say so. */
function lintRefusal(corefile: string, version: RealCoreDnsRelease): readonly DiagnosticCode[] {
  return lintCorefile(corefile, { coredns: version }).diagnostics.filter((entry) => REFUSALS.has(entry.code)).map((entry) => entry.code);
}

/**
 * The real verdict on every variant for one release, with few starts: the variants lint expects
 * to start are started together, several in one process (RealCoreDnsLab.startAll: each on ports of
 * its own; a group that does not start is halved until every refusal is a single variant's).
 * Variants lint expects to be refused start alone (a refusal is quick, and its reason is its own).
 */
async function judgeCorpus(lab: RealCoreDnsLab, version: RealCoreDnsRelease, variants: ReadonlyArray<{ name: string; corefile: string; predicted: boolean }>): Promise<Map<string, Verdict>> {
  const verdicts = new Map<string, Verdict>();
  const starting = variants.filter((variant) => !variant.predicted);
  const refusing = variants.filter((variant) => variant.predicted);
  // Groups of a few: one CoreDNS with dozens of kubernetes blocks takes longer than all of them apart.
  const [together, alone] = await Promise.all([
    lab.startAll(
      starting.map((variant) => variant.corefile),
      version,
      GROUP_SIZE,
    ),
    Promise.all(refusing.map((variant) => lab.start(variant.corefile, version))),
  ]);
  starting.forEach((variant, index) => verdicts.set(variant.name, together[index] as Verdict));
  refusing.forEach((variant, index) => verdicts.set(variant.name, alone[index] as Verdict));
  return verdicts;
}

describe.skipIf(skip !== undefined)('lint against real CoreDNS: plugin arguments and options', () => {
  const lab = useRealCoreDnsLab({ concurrency: 8 });

  it('agrees with the real release on every variant of the corpus', async () => {
    const full = process.env[FULL_CORPUS_VARIABLE] === 'full';
    const corpus = full ? SYNTAX_CORPUS : SYNTAX_CORPUS.filter(([name]) => SYNTAX_CORPUS_SAMPLE.has(name));
    const rows = (
      await Promise.all(
        REAL_COREDNS_RELEASES.map(async (version) => {
          const variants = corpus.map(([name, corefile]) => ({ name, corefile, codes: lintRefusal(corefile, version) })).map((variant) => ({ ...variant, predicted: variant.codes.length > 0 }));
          const verdicts = await judgeCorpus(lab(), version, variants);
          return variants.map((variant) => {
            const verdict = verdicts.get(variant.name);
            return {
              name: variant.name,
              version,
              predicted: variant.predicted,
              refused: verdict !== undefined && !verdict.accepted,
              detail: `${variant.name} @${version}: lint ${variant.predicted ? variant.codes.join(', ') : 'starts'}; CoreDNS ${verdict === undefined ? '?' : verdict.accepted ? 'started' : `refused: ${verdict.reason}`}`,
            };
          });
        }),
      )
    ).flat();
    const disagreements = rows.filter((row) => row.predicted !== row.refused);
    console.log(
      `plugin syntax corpus (${full ? 'full' : `sample; ${FULL_CORPUS_VARIABLE}=full for all ${SYNTAX_CORPUS.length}`}): ${corpus.length} variants x ${REAL_COREDNS_RELEASES.length} releases, ` +
        `${rows.length - disagreements.length} of ${rows.length} verdicts agree, ${lab().started} CoreDNS starts`,
    );
    expect(disagreements.map((row) => `${row.name} @${row.version}`)).toEqual(EXCEPTIONS.filter((entry) => corpus.some(([name]) => entry.startsWith(`${name} @`))));
    expect(rows.length).toBeGreaterThanOrEqual(full ? 590 : 110);
    for (const version of REAL_COREDNS_RELEASES) {
      expect(rows.filter((row) => row.version === version && row.refused).length, version).toBeGreaterThanOrEqual(full ? 60 : 8);
      expect(rows.filter((row) => row.version === version && !row.refused).length, version).toBeGreaterThanOrEqual(full ? 20 : 3);
    }
    const outcomes = (name: string) => rows.filter((row) => row.name === name).map((row) => `${row.version} ${row.refused ? 'refused' : 'started'}`);
    // 1.6.x reads resyncperiod without its argument (the duration is then an unknown option); 1.7.0 drops it.
    expect(outcomes('kubernetes resyncperiod 30s')).toEqual(['1.2.6 started', '1.6.9 refused', '1.8.0 refused', '1.14.7 refused']);
    expect(outcomes('kubernetes bare resyncperiod')).toEqual(['1.2.6 refused', '1.6.9 started', '1.8.0 refused', '1.14.7 refused']);
    expect(rows.find((row) => row.name === 'kubernetes resyncperiod 30s' && row.version === '1.6.9')?.detail).toContain("unknown property '30s'");
    // Issue 18 item 10: template's class and type, loadbalance's arguments from 1.10.1, acl's sections.
    expect(outcomes('template with an invalid query class')).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 refused']);
    expect(outcomes('loadbalance round_robin with a second argument')).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 refused']);
    expect(outcomes('acl bare block')).toEqual(['1.2.6 refused', '1.6.9 started', '1.8.0 started', '1.14.7 started']);
    expect(outcomes('acl upper-case action')).toEqual(['1.2.6 refused', '1.6.9 started', '1.8.0 started', '1.14.7 started']);
    // A template answering NOERROR with no record in the answer or authority section: "no answer section for template found" up to 1.5.0.
    for (const name of ['template NOERROR without a record', 'template without a block', 'template NOERROR with an additional record only', 'template rcode NXDOMAIN then NOERROR']) {
      expect(outcomes(name), name).toEqual(['1.2.6 refused', '1.6.9 started', '1.8.0 started', '1.14.7 started']);
    }
    expect(rows.find((row) => row.name === 'template NOERROR without a record' && row.version === '1.2.6')?.detail).toContain('no answer section for template found');
    expect(outcomes('template NOERROR with an authority SOA')).toEqual(['1.2.6 started', '1.6.9 started', '1.8.0 started', '1.14.7 started']);
    // template's rcode: a key of the release's dns library, as written (NOTIMP from 1.3.0, DSOTYPENI from 1.12.2).
    for (const name of ['template rcode BOGUS', 'template rcode in lower case', 'template rcode as a number']) {
      expect(outcomes(name), name).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 refused']);
    }
    expect(rows.find((row) => row.name === 'template rcode in lower case' && row.version === '1.14.7')?.detail).toContain('unknown rcode nxdomain');
    expect(outcomes('template rcode NOTIMP')).toEqual(['1.2.6 refused', '1.6.9 started', '1.8.0 started', '1.14.7 started']);
    expect(outcomes('template rcode DSOTYPENI')).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 started']);
    // ederror (1.10.1): an unsigned 16-bit code (strconv.ParseUint).
    expect(outcomes('template ederror 65536')).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 refused']);
    expect(rows.find((row) => row.name === 'template ederror with a sign' && row.version === '1.14.7')?.detail).toContain('error parsing extended DNS error code');
    // Go regular expressions: invalid everywhere; `(?<name>…)` from the Go 1.22 builds (the lab's 1.2.6–1.8.0 are Go 1.19 builds, 1.14.7 Go 1.26).
    for (const name of ['rewrite name regex with an unclosed group', 'rewrite name regex using a group it does not have', 'template match with an unclosed group']) {
      expect(outcomes(name), name).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 refused']);
    }
    expect(outcomes('rewrite name regex with an angle-bracket named group')).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 started']);
    expect(outcomes('bind an interface this machine lacks')).toEqual(['1.2.6 refused', '1.6.9 refused', '1.8.0 refused', '1.14.7 refused']);
  }, 120_000);

  it('has a sample drawn from the corpus, with no name twice', () => {
    const names = SYNTAX_CORPUS.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of SYNTAX_CORPUS_SAMPLE) expect(names, name).toContain(name);
  });
});

/**
 * Variants where lint and a real release disagree, `NAME @RELEASE`, each with its reason.
 */
const EXCEPTIONS: readonly string[] = [
  // From 1.8.4 a bind argument that is no IP names an interface of the machine CoreDNS runs on, which
  // lint cannot see: it warns (bind-interface-not-checked) where this machine's CoreDNS refuses.
  'bind an interface this machine lacks @1.14.7',
];
