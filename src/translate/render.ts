/**
 * The translator's render stage: the Corefile model of a plan (plan.ts). It decides nothing and
 * reports nothing: every choice was made, and said, when planning.
 */
import type { Corefile, Directive, ServerBlock } from '../corefile/model.js';
import { kubernetesUpstreamSupport } from '../coredns/availability.js';
import { noDenialCaching } from '../coredns/features.js';
import type { CoreDnsFeatures, NoDenialCaching } from '../coredns/features.js';
import { kubernetesDefaultMainBlock } from '../coredns/kubernetes-default-corefile.js';
import type { DefaultDirective } from '../coredns/kubernetes-default-corefile.js';
import type { ForwardTarget } from '../coredns/forward-targets.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { noDataLines } from '../coredns/template-no-data.js';
import { DNS_PORT } from './plan.js';
import type { CorefilePlan, PlannedStub, PlannedTemplate } from './plan.js';

function toDirective(source: DefaultDirective): Directive {
  const block = source.block === undefined ? {} : { block: { directives: source.block.map(toDirective) } };
  return { name: source.name, arguments: source.args, ...block };
}

/**
 * The directives every stub block has, shared by all of them: models are read-only (the parser
 * shares its frozen one-word and empty lists the same way), and for a large translation these
 * were a third of the model's objects.
 */
const STUB_ERRORS: Directive = Object.freeze({ name: 'errors', arguments: Object.freeze([]) });
const STUB_CACHE: Directive = Object.freeze({ name: 'cache', arguments: Object.freeze(['30']) });
/**
 * `cache 30 { OPTION }` for kube-dns's dnsmasq with --no-negcache, OPTION from the rule of
 * src/coredns ({@link noDenialCaching}: `disable denial`, or `denial 9984 1` before it exists).
 * One frozen directive per answer of the rule.
 */
const CACHE_WITHOUT_DENIAL = new Map<NoDenialCaching, Directive>();

function cacheWithoutDenial(features: CoreDnsFeatures): Directive {
  const rule = noDenialCaching(features);
  let directive = CACHE_WITHOUT_DENIAL.get(rule);
  if (directive === undefined) {
    directive = Object.freeze({
      name: 'cache',
      arguments: Object.freeze(['30']),
      block: Object.freeze({ directives: Object.freeze([Object.freeze({ name: rule.name, arguments: rule.arguments })]) }),
    });
    CACHE_WITHOUT_DENIAL.set(rule, directive);
  }
  return directive;
}
const LOG: Directive = Object.freeze({ name: 'log', arguments: Object.freeze([]) });

/** The cache and log directives of every block, decided once per translation. */
function sharedDirectives(plan: CorefilePlan): { readonly cache: Directive | undefined; readonly log: Directive | undefined } {
  const cache = plan.cache === 'none' ? undefined : plan.cache === 'default' ? STUB_CACHE : cacheWithoutDenial(plan.features);
  return { cache, log: plan.log ? LOG : undefined };
}

function stubDirectives(shared: { readonly cache: Directive | undefined; readonly log: Directive | undefined }, forward: Directive, loop: boolean): Directive[] {
  const directives: Directive[] = [STUB_ERRORS];
  if (shared.log !== undefined) directives.push(shared.log);
  if (shared.cache !== undefined) directives.push(shared.cache);
  if (loop) directives.push(STUB_LOOP);
  directives.push(forward);
  return directives;
}

/** `policy sequential` (--strict-order) and `max_concurrent N` (--dns-forward-max) on a forward. */
function withForwardOptions(forward: Directive, plan: CorefilePlan): Directive {
  if (forward.name !== 'forward' || (!plan.strictOrder && plan.maxConcurrent === undefined)) return forward;
  const existing = (forward.block?.directives ?? []).filter((entry) => !(entry.name === 'max_concurrent' && plan.maxConcurrent !== undefined));
  const added: Directive[] = [];
  if (plan.maxConcurrent !== undefined) added.push({ name: 'max_concurrent', arguments: [String(plan.maxConcurrent)] });
  if (plan.strictOrder) added.push({ name: 'policy', arguments: ['sequential'] });
  return { ...forward, block: { directives: [...existing, ...added] } };
}

const STUB_LOOP: Directive = Object.freeze({ name: 'loop', arguments: Object.freeze([]) });

/** The main block's directives, forwarding to `upstreams`; the kubernetes plugin without the `unserved` zones. */
function mainDirectives(upstreams: readonly string[], federation: Directive | undefined, unserved: readonly string[], plan: CorefilePlan): Directive[] {
  const { features } = plan;
  const main = kubernetesDefaultMainBlock(features.version, { clusterDomain: plan.clusterDomain, upstreams: [...upstreams], forwarder: features.preferredForwarder });
  const shared = sharedDirectives(plan);
  return main.directives.flatMap((entry) => {
    const converted = toDirective(entry);
    if (entry.name === 'cache') return shared.cache === undefined ? [] : [shared.cache];
    if (entry.name === features.preferredForwarder) return [withForwardOptions(converted, plan)];
    if (entry.name === 'errors' && shared.log !== undefined) return [converted, shared.log];
    if (entry.name !== 'kubernetes') return [converted];
    const kubernetes = withExternalNameUpstream(withKubeDnsTtl(unserved.length > 0 ? withoutZones(converted, unserved) : converted), features.version);
    return federation !== undefined ? [kubernetes, federation] : [kubernetes];
  });
}

/**
 * kube-dns answered its records with TTL 30 (kubernetes/dns `pkg/dns/util/util.go`, `defaultTTL`,
 * 1.14.0–1.26.7); the kubernetes plugin's own default is 5 (`defaultTTL` in plugin/kubernetes,
 * v1.0.0 on). kubeadm's default Corefile sets `ttl 30` only from CoreDNS 1.3.1, but every release
 * takes the option (range [5, 3600] before 1.3.0): the translation sets it wherever the block lacks it.
 */
function withKubeDnsTtl(kubernetes: Directive): Directive {
  const options = kubernetes.block?.directives ?? [];
  if (options.some((option) => option.name === 'ttl')) return kubernetes;
  return { ...kubernetes, block: { ...kubernetes.block, directives: [...options, { name: 'ttl', arguments: ['30'] }] } };
}

/**
 * kube-dns answered an ExternalName Service with the CNAME and its target's address (SkyDNS looked
 * the target up with its forwarders). Before 1.5.2 the kubernetes plugin does so only with
 * `upstream` present (see `kubernetesUpstreamSupport`); kubeadm's block has it up to 1.4.0, so
 * 1.5.0 and 1.5.1, which no kubeadm release shipped, get it here.
 */
function withExternalNameUpstream(kubernetes: Directive, version: CoreDnsVersion): Directive {
  const support = kubernetesUpstreamSupport(version);
  if (support === 'no-op' || support === 'removed') return kubernetes;
  const options = kubernetes.block?.directives ?? [];
  if (options.some((option) => option.name === 'upstream')) return kubernetes;
  const at = options.findIndex((option) => option.name === 'fallthrough' || option.name === 'ttl');
  const upstream: Directive = { name: 'upstream', arguments: support === 'addresses-required' ? ['/etc/resolv.conf'] : [] };
  const directives = at < 0 ? [...options, upstream] : [...options.slice(0, at), upstream, ...options.slice(at)];
  return { ...kubernetes, block: { ...kubernetes.block, directives } };
}

/** The kubernetes directive without `zones` among its zones and its fallthrough zones (a fallthrough left with none goes). */
function withoutZones(kubernetes: Directive, zones: readonly string[]): Directive {
  const options = (kubernetes.block?.directives ?? []).flatMap((option) => {
    if (option.name !== 'fallthrough' || option.arguments.length === 0) return [option];
    const kept = option.arguments.filter((zone) => !zones.includes(zone));
    return kept.length === 0 ? [] : [{ ...option, arguments: kept }];
  });
  return { ...kubernetes, arguments: kubernetes.arguments.filter((zone) => !zones.includes(zone)), ...(kubernetes.block === undefined ? {} : { block: { directives: options } }) };
}

/** The Corefile model of `corefile`: the main block (and its copies), the stub blocks, the template blocks. */
export function renderCorefile(corefile: CorefilePlan): Corefile {
  const { mainKeys, splitMainBlock, upstreams, stubs, templates, reverseBlockZones, resolver, unserved, features, mainTemplates } = corefile;
  const federation = federationDirective(corefile);
  const directives = mainDirectives(upstreams, federation, unserved, corefile);
  if (mainTemplates.length > 0) directives.splice(directives.findIndex((directive) => directive.name === 'errors') + 1, 0, ...mainTemplates);
  const mainBlocks: ServerBlock[] = splitMainBlock
    ? [
        { kind: 'server-block', keys: mainKeys.slice(0, 1), directives },
        { kind: 'server-block', keys: mainKeys.slice(1), directives: directives.filter((directive) => directive.name !== 'health') },
      ]
    : [{ kind: 'server-block', keys: mainKeys, directives }];
  if (reverseBlockZones.length > 0) {
    // kubedns forwarded the reverse names it has no records for to its own resolver: a copy of the main block that does the same.
    const reverse = mainDirectives(resolver, federation, unserved, corefile).filter((directive) => directive.name !== 'health');
    mainBlocks.push({ kind: 'server-block', keys: reverseBlockZones.map((zone) => `${zone}:${DNS_PORT}`), directives: reverse });
  }
  const shared = sharedDirectives(corefile);
  // Lists are built at their final length: a list grown by push reserves many more slots, and
  // every block of a large translation stays alive to the end.
  const first = mainBlocks.length;
  const items = new Array<ServerBlock>(stubs.length + first + templates.length);
  for (let index = 0; index < first; index += 1) items[index] = mainBlocks[index] as ServerBlock;
  for (let index = 0; index < stubs.length; index += 1) {
    const { zone, targets } = stubs[index] as PlannedStub;
    items[index + first] = { kind: 'server-block', keys: [`${zone}:${DNS_PORT}`], directives: stubDirectives(shared, forwardTo(targets, corefile), features.loop) };
  }
  // A copy of the main block for a zone of the cluster's: its own plugins, not the templates for names without a dot.
  const mainCopy = mainTemplates.length === 0 ? directives : directives.filter((directive) => !mainTemplates.includes(directive));
  const blockOf = templateBlocks(corefile, mainCopy, mainBlocks[mainBlocks.length - 1] as ServerBlock, shared);
  for (let index = 0; index < templates.length; index += 1) items[index + first + stubs.length] = blockOf(templates[index] as PlannedTemplate);
  return { items };
}

/** `forward . TARGETS…` (or the release's forwarder) with the options every forward gets. */
function forwardTo(targets: readonly { readonly text: string }[], corefile: CorefilePlan): Directive {
  const destinations = new Array<string>(targets.length + 1);
  destinations[0] = '.';
  for (let target = 0; target < targets.length; target += 1) destinations[target + 1] = (targets[target] as ForwardTarget).text;
  return withForwardOptions({ name: corefile.features.preferredForwarder, arguments: destinations }, corefile);
}

/**
 * The blocks of the dnsmasq `--address` (or `--local`) zones: templates answering the addresses (or
 * NXDOMAIN), then what the other query types get — NODATA, a forward, or the plugins of the block
 * that serves the zone without the template (the main block, the reverse copy, a parent zone's
 * template block), which a parent template block has before its children.
 */
function templateBlocks(corefile: CorefilePlan, main: readonly Directive[], reverse: ServerBlock, shared: ReturnType<typeof sharedDirectives>): (template: PlannedTemplate) => ServerBlock {
  const { features } = corefile;
  const byZone = new Map(corefile.templates.map((template) => [template.zone, template]));
  const done = new Map<string, Directive[]>();
  const directivesOf = (template: PlannedTemplate): Directive[] => {
    const known = done.get(template.zone);
    if (known !== undefined) return known;
    const { answers, otherTypes, anyFirst = 'AAAA' } = template;
    // One template per type, with every address of it: dnsmasq answers with all of them (measured with 2.90).
    // `anyFirst` first: an ANY query gets the first template's records, and dnsmasq 2.86+ answers ANY with a
    // domain's written IPv6 addresses, else its IPv4 ones, else both null addresses (measured with 2.90).
    const byType = new Map<'A' | 'AAAA', string[]>();
    for (const { type, address } of answers) byType.set(type, [...(byType.get(type) ?? []), address]);
    const answering: Directive[] = [...byType]
      .sort(([a], [b]) => Number(b === anyFirst) - Number(a === anyFirst))
      .map(([type, addresses]) => ({ name: 'template', arguments: ['IN', type], block: { directives: addresses.map((address): Directive => ({ name: 'answer', arguments: [`{{ .Name }} 0 IN ${type} ${address}`] })) } }));
    if (template.apex !== undefined) answering.push(...template.apex);
    let directives: Directive[];
    if (answers.length === 0) directives = [STUB_ERRORS, { name: 'template', arguments: ['ANY', 'ANY'], block: { directives: [{ name: 'rcode', arguments: ['NXDOMAIN'] }] } }];
    else if (otherTypes.kind === 'nodata') directives = [STUB_ERRORS, ...answering, { name: 'template', arguments: ['ANY', 'ANY'], block: { directives: noDataLines(template.zone, features.version) } }];
    else if (otherTypes.kind === 'forward') directives = withAfterErrors(stubDirectives(shared, forwardTo(otherTypes.targets, corefile), features.loop), answering);
    else if (otherTypes.kind === 'template') {
      // Templates are planned from every zone at once; a parent zone's is known (it is in the plan).
      const parent = byZone.get(otherTypes.zone) as PlannedTemplate;
      directives = withAfterErrors(directivesOf(parent), answering);
    } else {
      const copied = (otherTypes.kind === 'main' ? main : reverse.directives).filter((directive) => directive.name !== 'health');
      directives = withAfterErrors(copied, answering);
    }
    done.set(template.zone, directives);
    return directives;
  };
  return (template) => ({ kind: 'server-block', keys: [`${template.zone}:${DNS_PORT}`], directives: directivesOf(template) });
}

/** `directives` with `added` right after `errors` (or first). */
function withAfterErrors(directives: readonly Directive[], added: readonly Directive[]): Directive[] {
  const at = directives.findIndex((directive) => directive.name === 'errors') + 1;
  return [...directives.slice(0, at), ...added, ...directives.slice(at)];
}

/** `federation CLUSTER_DOMAIN { NAME DOMAIN … }`, when the plan has federations. */
function federationDirective(plan: CorefilePlan): Directive | undefined {
  const { federations } = plan;
  if (federations === undefined) return undefined;
  return {
    name: 'federation',
    arguments: [plan.clusterDomain],
    block: { directives: federations.map((entry) => ({ name: entry.name, arguments: [entry.domain] })) },
  };
}
