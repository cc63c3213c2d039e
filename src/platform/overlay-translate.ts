/**
 * `-o coredns-custom --platform P`: the kube-dns translation (the translator's Corefile) written as
 * a `coredns-custom` overlay for the platform's base, so that base + overlay routes like kube-dns:
 * stub domains become `.server` keys (one per block, named after its first zone); the main block's
 * directives the base does not have go into one `.override` key; the upstream `forward .` goes into
 * the override where the base imports overrides before its own `forward .` and CoreDNS takes several
 * forwards (1.9.4+), and is otherwise a `platform-base-must-change` error (the base decides); a
 * `cache` or `kubernetes` line that differs from the base's cannot be given twice and is named.
 * On AKS, whose base answers NXDOMAIN itself for reddog.microsoft.com and long names under
 * internal.cloudapp.net, the platform's documented opt-out is applied: a `.server` key forwarding
 * both zones as kube-dns did (`platform-base-answers`). docs/platforms.md#-o-coredns-custom.
 *
 * Pure: no Node APIs.
 */
import type { Directive, ServerBlock } from '../corefile/model.js';
import { serverBlocks } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import { printCorefile } from '../corefile/printer.js';
import { coreDnsFeatures } from '../coredns/features.js';
import { SEVERAL_FORWARDS_PER_BLOCK_FROM } from '../coredns/migration-facts.js';
import { diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalName } from '../dns/names.js';
import { isStrictAncestor } from '../dns/zones.js';
import type { PlatformBase } from './bases.js';
import { composeOverlay } from './compose.js';
import { checkArgument, checkOptions } from '../errors/arguments.js';

export interface OverlayTranslateOptions {
  readonly coredns: string;
  readonly clusterDomain?: string;
  /** Write the overlay even where the base decides (the errors become warnings). */
  readonly force?: boolean;
}

export interface OverlayTranslation {
  readonly ok: boolean;
  /** The coredns-custom data keys, in the order they are written. */
  readonly data: Readonly<Record<string, string>>;
  readonly diagnostics: readonly Diagnostic[];
}

/** The zones the AKS base answers itself (templates since the 2024-10-25 release), and its documented opt-out. */
const AKS_ANSWERED_ZONES = ['internal.cloudapp.net', 'reddog.microsoft.com'];
const AKS_OPT_OUT_KEY = 'aks-search-domains.server';

/** The overlay for `platform` that makes its base route like the translated Corefile `corefile`. */
export function overlayFromTranslation(corefile: string, platform: PlatformBase, options: OverlayTranslateOptions): OverlayTranslation {
  checkArgument('overlayFromTranslation', 'corefile', corefile, 'string');
  checkOptions('overlayFromTranslation', 'platform', platform, { platform: 'string', title: 'string', corefile: 'function' }, true);
  checkOptions('overlayFromTranslation', 'options', options, { coredns: 'string', clusterDomain: 'string?', force: 'boolean?' }, true);
  const features = coreDnsFeatures(options.coredns);
  const severity = options.force === true ? ('warning' as const) : undefined;
  const blocks = serverBlocks(parseCorefile(corefile).corefile);
  const base = parseCorefile(composeOverlay(platform.corefile(options.clusterDomain), {}).text).corefile;
  const baseMain = serverBlocks(base).find(isRootBlock);
  const main = blocks.find(isRootBlock);
  const data: Record<string, string> = {};
  const diagnostics: Diagnostic[] = [];
  const stubZones = new Set<string>();

  for (const block of blocks) {
    if (block === main) continue;
    const zone = canonicalName(block.keys[0]?.replace(/:\d+$/, '') ?? '');
    stubZones.add(zone);
    data[`${zone}.server`] = printCorefile({ items: [block] });
  }
  const override: Directive[] = [];
  const mainKeys = main?.keys ?? [];
  if (mainKeys.length > 1) {
    // Each extra key is there so that a stub domain above it does not capture its names (main-block-key-added): name those stubs.
    const extra = mainKeys.slice(1);
    const zoneOf = (key: string) => canonicalName(key.replace(/:\d+$/, ''));
    const parents = [...stubZones].filter((stub) => extra.some((key) => isStrictAncestor(stub, zoneOf(key))));
    const because = parents.length === 0 ? '' : ` because the stub domain${parents.length === 1 ? '' : 's'} ${parents.map((zone) => `'${zone}'`).join(', ')} ${parents.length === 1 ? 'is a parent' : 'are parents'} of ${extra.map(zoneOf).join(', ')}, whose names kube-dns answered itself`;
    diagnostics.push(diagnostic('platform-base-must-change', { key: 'coredns-custom', message: `the translation's main block also serves ${extra.join(', ')}${because}: an overlay cannot add keys to the ${platform.title} base's .:53 block`, ...(severity === undefined ? {} : { severity }) }));
  }
  const forwardFirst = overridesBeforeForward(platform, options.clusterDomain);
  for (const directive of main?.directives ?? []) {
    const inBase = baseMain?.directives.find((candidate) => candidate.name === directive.name);
    if (inBase === undefined) {
      override.push(directive);
      continue;
    }
    // forward: where it sends names (FROM and TOs) is what counts; its options are the translation's.
    if (directive.name === 'forward' ? directive.arguments.join(' ') === inBase.arguments.join(' ') : same(directive, inBase)) continue;
    if (directive.name === 'forward') {
      if (forwardFirst && features.multipleForwardPerBlock) {
        override.push(directive);
      } else {
        diagnostics.push(
          diagnostic('platform-base-must-change', {
            key: 'coredns-custom',
            message: `the upstream (${line(directive)}) cannot be set through coredns-custom on ${platform.title}: ${forwardFirst ? `CoreDNS ${features.version} takes one forward per block (a second one is allowed from ${SEVERAL_FORWARDS_PER_BLOCK_FROM})` : "the base's forward . /etc/resolv.conf comes before the overrides and takes every name"}; names outside the cluster and the stub domains go to the node's resolvers`,
            ...(severity === undefined ? {} : { severity }),
          }),
        );
      }
    } else if (directive.name === 'cache') {
      diagnostics.push(
        diagnostic('platform-base-must-change', {
          key: 'coredns-custom',
          severity: 'warning',
          message: `the translation caches with '${line(directive)}', the ${platform.title} base with '${line(inBase)}', and cache can be given once per block: the base's caching stays (NXDOMAIN answers are cached up to 30 s where kube-dns's dnsmasq ran with --no-negcache)`,
        }),
      );
    } else if (directive.name === 'kubernetes' && !sameZones(directive, inBase)) {
      diagnostics.push(diagnostic('platform-base-must-change', { key: 'coredns-custom', message: `the translation's kubernetes plugin serves '${directive.arguments.join(' ')}', the ${platform.title} base's '${inBase.arguments.join(' ')}' (give --cluster-domain the cluster's domain)`, ...(severity === undefined ? {} : { severity }) }));
    }
  }
  if (override.length > 0) data['kube-dns.override'] = printDirectives(override);

  if (platform.platform === 'aks') {
    const forward = main?.directives.find((directive) => directive.name === 'forward');
    const cache = main?.directives.find((directive) => directive.name === 'cache');
    const zones = AKS_ANSWERED_ZONES.filter((zone) => !stubZones.has(zone));
    if (zones.length > 0 && forward !== undefined) {
      const blocksText = zones.map((zone) => printCorefile({ items: [{ kind: 'server-block', keys: [`${zone}:53`], directives: [{ name: 'errors', arguments: [] }, ...(cache === undefined ? [] : [cache]), forward] } as ServerBlock] }));
      data[AKS_OPT_OUT_KEY] = blocksText.join('\n');
      diagnostics.push(
        diagnostic('platform-base-answers', {
          key: `coredns-custom[${AKS_OPT_OUT_KEY}]`,
          severity: 'info',
          message: `the AKS base answers NXDOMAIN itself for ${zones.join(' and ')} (long names only under internal.cloudapp.net), which kube-dns forwarded: the overlay forwards ${zones.length === 1 ? 'it' : 'both'} as kube-dns did (AKS's documented opt-out)`,
        }),
      );
    }
  }
  return { ok: !hasErrors(diagnostics), data, diagnostics };
}

function isRootBlock(block: ServerBlock): boolean {
  return block.keys.some((key) => key === '.' || key === '.:53' || key === 'dns://.:53' || key === 'dns://.');
}

/** Whether the base imports overrides before its `forward .` (the override's forward is then tried first). */
function overridesBeforeForward(platform: PlatformBase, clusterDomain: string | undefined): boolean {
  const text = platform.corefile(clusterDomain);
  const override = text.search(/^\s*import \S*\*\.override\s*$/m);
  const forward = text.search(/^\s*forward \. /m);
  return override >= 0 && forward >= 0 && override < forward;
}

/** A directive on one line, its block too: `cache 30 { disable denial }`. */
function line(directive: Directive): string {
  const head = [directive.name, ...directive.arguments].join(' ');
  return directive.block === undefined ? head : `${head} { ${directive.block.directives.map(line).join('; ')} }`;
}

function same(a: Directive, b: Directive): boolean {
  return printDirectives([a]) === printDirectives([b]);
}

function sameZones(a: Directive, b: Directive): boolean {
  return a.arguments.map(canonicalName).join(' ') === b.arguments.map(canonicalName).join(' ');
}

/** Directives as the lines of an .override key (no enclosing block). */
function printDirectives(directives: readonly Directive[]): string {
  const printed = printCorefile({ items: [{ kind: 'server-block', keys: ['.'], directives } as ServerBlock] });
  const lines = printed.split('\n').slice(1, -2);
  return `${lines.map((text) => text.replace(/^ {4}/, '')).join('\n')}\n`;
}
