import { InternalError } from '../errors/internal-error.js';
import { checkArgument } from '../errors/arguments.js';
import { assertCorefileNotConfigMap } from '../configmap/not-a-configmap.js';
import type { Corefile, CorefileItem, Directive, ServerBlock } from '../corefile/model.js';
import { serverBlocks } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import { parseServerKey } from '../corefile/server-key.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { lintParsedCorefile } from '../lint/lint.js';
import { printBuiltCorefile } from './self-check.js';
import type { TranslationResult } from './translate.js';
import { pushAll } from '../util/lists.js';

/**
 * Merging a translation into an existing CoreDNS Corefile: the translated stub blocks and the
 * main block's upstream are added or updated in place; everything else — other blocks, other
 * plugins, options, comments — is kept. A block the merge would have to rewrite beyond its
 * forwarding line is a conflict, reported and left alone. Merging the result again changes nothing.
 */

/**
 * The outcome of {@link mergeTranslation}, discriminated by `ok`: after `if (result.ok)` the merged
 * Corefile and its model are there; otherwise both are `undefined`.
 */
export type MergeResult =
  | {
      /** The translation was merged. */
      readonly ok: true;
      /** The merged Corefile. */
      readonly corefile: string;
      readonly model: Corefile;
      /** The translation's diagnostics followed by the merge's. */
      readonly diagnostics: readonly Diagnostic[];
    }
  | {
      /** A conflict (or the translation itself) prevented the merge. */
      readonly ok: false;
      readonly corefile: undefined;
      readonly model: undefined;
      /** The translation's diagnostics followed by the merge's. */
      readonly diagnostics: readonly Diagnostic[];
    };

const FORWARDERS = new Set(['forward', 'proxy']);

/** Where a server block listens for a zone: `zone:port` for plain DNS keys, undefined otherwise. */
function servedZones(block: ServerBlock): string[] | undefined {
  const zones: string[] = [];
  for (const key of block.keys) {
    try {
      const address = parseServerKey(key);
      if (address.transport !== 'dns') return undefined;
      pushAll(zones, address.zones.map((zone) => `${zone}:${address.port ?? ''}`));
    } catch {
      return undefined;
    }
  }
  return zones;
}

function isMainBlockCopy(block: ServerBlock): boolean {
  return block.directives.some((directive) => directive.name === 'kubernetes');
}

function isForwardAll(directive: Directive): boolean {
  return FORWARDERS.has(directive.name) && directive.arguments[0] === '.';
}

function sameDirectiveLine(a: Directive, b: Directive): boolean {
  return a.name === b.name && a.arguments.length === b.arguments.length && a.arguments.every((argument, index) => argument === b.arguments[index]);
}

function where(block: ServerBlock): string {
  return `[${block.keys.join(' ')}]${block.position === undefined ? '' : ` (line ${block.position.line})`}`;
}

/**
 * Merges `translation` into the Corefile `existing` (its text). The merged Corefile is linted for
 * the translation's CoreDNS release: each error (a plugin or option the existing Corefile keeps
 * that the release refuses, say kubernetes `upstream` on 1.7.0+, or a typo) is a
 * `merge-target-refuses` error naming `migrate`, and nothing is returned. Throws
 * CorefileSyntaxError when `existing` is not a Corefile CoreDNS would parse, and
 * ConfigMapInputError (`configmap-given`) when it is a ConfigMap's YAML or JSON (pass its
 * `Corefile` entry: `readConfigMap(text).data.Corefile`).
 */
export function mergeTranslation(existing: string, translation: TranslationResult, filename = 'Corefile'): MergeResult {
  checkArgument('mergeTranslation', 'existing', existing, 'string');
  checkArgument('mergeTranslation', 'translation', translation, 'object');
  checkArgument('mergeTranslation', 'filename', filename, 'string?');
  assertCorefileNotConfigMap(existing, 'mergeTranslation', filename);
  const diagnostics: Diagnostic[] = [...translation.diagnostics];
  if (!translation.ok || translation.model === undefined) return { ok: false, corefile: undefined, model: undefined, diagnostics };
  const report = (code: DiagnosticCode, path: string, message: string) => diagnostic(code, { key: 'Corefile', path, message });
  const { corefile: current } = parseCorefile(existing, { filename });
  const [translatedMain, ...translatedRest] = serverBlocks(translation.model);
  if (translatedMain === undefined) throw new InternalError('a translation always has a main block');
  // For CoreDNS 1.1.0–1.6.5 the zones a stub would capture get a copy of the main block without
  // health (see main-block-split); stub blocks never hold the kubernetes plugin.
  const translatedCopies = translatedRest.filter(isMainBlockCopy);
  const translatedStubs = translatedRest.filter((block) => !isMainBlockCopy(block));

  const items: CorefileItem[] = [...current.items];
  const zonesOf = new Map<ServerBlock, string[] | undefined>(serverBlocks(current).map((block) => [block, servedZones(block)]));
  const blockServing = (zone: string) => [...zonesOf].filter(([, zones]) => zones?.includes(zone)).map(([block]) => block);
  let conflicts = 0;
  const conflict = (path: string, message: string) => {
    conflicts += 1;
    diagnostics.push(report('merge-conflict', path, message));
  };
  const replace = (before: ServerBlock, after: ServerBlock) => {
    items[items.indexOf(before)] = after;
    zonesOf.set(after, servedZones(after));
    zonesOf.delete(before);
  };

  const [main] = blockServing('.:53');
  let mergedMain: ServerBlock;
  if (main === undefined) {
    mergedMain = translatedMain;
    items.unshift(translatedMain);
    zonesOf.set(translatedMain, servedZones(translatedMain));
    diagnostics.push(report('merge-main-block-added', '[.:53]', 'no block served the root zone on port 53; the translated main block was added'));
  } else {
    mergedMain = mergeMainBlock(main, translatedMain, blockServing, conflict, (entry) => diagnostics.push(entry), report);
    replace(main, mergedMain);
  }

  for (const copy of translatedCopies) {
    const path = `[${copy.keys.join(' ')}]`;
    const keys: string[] = [];
    let existingCopy: ServerBlock | undefined;
    for (const key of copy.keys) {
      const zone = servedZones({ ...copy, keys: [key] })?.[0] ?? key;
      const [server] = blockServing(zone);
      if (server === undefined) keys.push(key);
      else if (server === mergedMain) continue;
      else if (isMainBlockCopy(server) && !server.directives.some((directive) => directive.name === 'health')) existingCopy = server;
      else conflict(path, `'${key}' must be served by a copy of the main block (a stub domain is its parent), but ${where(server)} serves it`);
    }
    const mainForward = mergedMain.directives.find(isForwardAll);
    if (existingCopy !== undefined) {
      const forward = existingCopy.directives.find(isForwardAll);
      if (forward !== undefined && mainForward !== undefined && !sameDirectiveLine(forward, mainForward)) {
        replace(existingCopy, { ...existingCopy, directives: existingCopy.directives.map((directive) => (directive === forward ? { ...forward, name: mainForward.name, arguments: mainForward.arguments } : directive)) });
        diagnostics.push(report('merge-block-updated', where(existingCopy), `'${forward.name} ${forward.arguments.join(' ')}' becomes '${mainForward.name} ${mainForward.arguments.join(' ')}', as in the main block`));
      }
    }
    if (keys.length === 0) continue;
    const added: ServerBlock = { kind: 'server-block', keys, directives: mergedMain.directives.filter((directive) => directive.name !== 'health') };
    items.splice(items.indexOf(mergedMain) + 1, 0, added);
    zonesOf.set(added, servedZones(added));
    diagnostics.push(report('merge-block-added', `[${keys.join(' ')}]`, `block '${keys.join(' ')}' added: the main block's plugins without health (see main-block-split)`));
  }

  for (const stub of translatedStubs) {
    const [zone = ''] = servedZones(stub) ?? [];
    const key = stub.keys.join(' ');
    const path = `[${key}]`;
    const existingBlocks = blockServing(zone);
    const [only] = existingBlocks;
    const translatedForward = stub.directives.find(isForwardAll);
    if (only === undefined) {
      items.push(stub);
      zonesOf.set(stub, servedZones(stub));
      diagnostics.push(report('merge-block-added', path, `block '${key}' added`));
      continue;
    }
    const forwards = only.directives.filter(isForwardAll);
    const [forward] = forwards;
    if (existingBlocks.length > 1 || (zonesOf.get(only)?.length ?? 0) > 1 || forwards.length !== 1 || forward === undefined || translatedForward === undefined) {
      conflict(path, `the existing block ${where(only)} serves '${key}' but is not a plain stub block (other zones, or not exactly one 'forward .'); merge it by hand`);
      continue;
    }
    if (sameDirectiveLine(forward, translatedForward)) continue;
    replace(only, { ...only, directives: only.directives.map((directive) => (directive === forward ? { ...forward, name: translatedForward.name, arguments: translatedForward.arguments } : directive)) });
    const change = `'${forward.name} ${forward.arguments.join(' ')}' becomes '${translatedForward.name} ${translatedForward.arguments.join(' ')}'`;
    if (sameDestinations(forward, translatedForward)) {
      diagnostics.push(report('merge-block-updated', path, change));
    } else {
      // The running CoreDNS sent this zone elsewhere than kube-dns: one of them was not what the cluster meant.
      diagnostics.push(report('merge-stub-server-replaced', path, `${change}: the running CoreDNS sent '${zone.slice(0, zone.lastIndexOf(':')).replace(/\.$/, '')}' to other servers than kube-dns did`));
    }
  }

  if (conflicts > 0) return { ok: false, corefile: undefined, model: undefined, diagnostics };
  const cachingAsTranslated = cachingOfTranslation(translatedMain, translation.diagnostics);
  for (const block of serverBlocks({ ...current, items })) {
    const updated = withCachingOf(block, cachingAsTranslated, (message) => diagnostics.push(report('merge-block-updated', where(block), message)));
    if (updated !== block) items[items.indexOf(block)] = updated;
  }
  const model: Corefile = { ...current, items };
  const corefile = printBuiltCorefile(model, 'merged');
  const refusals = targetRefusals(model, translation.coredns, filename);
  if (refusals.length > 0) return { ok: false, corefile: undefined, model: undefined, diagnostics: [...diagnostics, ...refusals] };
  return { ok: true, corefile, model, diagnostics };
}

/** Whether two forwarding lines send to the same servers (in any order). */
function sameDestinations(a: Directive, b: Directive): boolean {
  const servers = (directive: Directive) => [...new Set(directive.arguments.slice(1))].sort().join(' ');
  return servers(a) === servers(b);
}

/**
 * The target check every translation gets, for the merged Corefile: each lint error for the
 * target release is a `merge-target-refuses` error. The merged model keeps the existing
 * Corefile's positions (the lines it keeps are where they were written); the translated lines have none.
 */
function targetRefusals(model: Corefile, target: CoreDnsVersion, filename: string): Diagnostic[] {
  return lintParsedCorefile(model, { coredns: target })
    .diagnostics.filter((finding) => finding.severity === 'error')
    .map((finding) => {
      const place = (finding.path ?? '').replace(/^:\d+:\d+ ?/, '');
      return diagnostic('merge-target-refuses', {
        key: 'Corefile',
        ...(finding.path === undefined ? {} : { path: finding.path }),
        ...(finding.position === undefined ? {} : { position: finding.position }),
        message:
          `the merged Corefile fails for CoreDNS ${target} (lint ${finding.code}${place === '' ? '' : ` at ${place}`}): ${finding.message}. ` +
          `What the merge keeps from ${filename} must suit CoreDNS ${target}: migrate it first (the migrate command: migrate --from RUNNING --to ${target} ${filename}), or fix that line, then merge again`,
      });
    });
}

/** The existing main block with the translated upstream, federation and extra zone keys. */
function mergeMainBlock(
  main: ServerBlock,
  translated: ServerBlock,
  blockServing: (zone: string) => ServerBlock[],
  conflict: (path: string, message: string) => void,
  note: (entry: Diagnostic) => void,
  report: (code: DiagnosticCode, path: string, message: string) => Diagnostic,
): ServerBlock {
  const path = `[${main.keys.join(' ')}]`;
  const keys = [...main.keys];
  for (const key of translated.keys.slice(1)) {
    const zone = servedZones({ ...translated, keys: [key] })?.[0] ?? key;
    const servers = blockServing(zone);
    if (servers.includes(main)) continue;
    if (servers.length > 0) {
      conflict(path, `'${key}' must be served by the main block (a stub domain is its parent), but ${where(servers[0] as ServerBlock)} serves it`);
      continue;
    }
    keys.push(key);
    note(report('merge-key-added', path, `'${key}' added to the main block's keys`));
  }
  let directives = [...main.directives];
  const translatedForward = translated.directives.find(isForwardAll);
  const forward = directives.find(isForwardAll);
  if (translatedForward !== undefined) {
    if (forward === undefined) {
      const kubernetes = directives.findIndex((directive) => directive.name === 'kubernetes');
      directives.splice(kubernetes + 1, 0, translatedForward);
      note(report('merge-upstream-replaced', path, `'${translatedForward.name} ${translatedForward.arguments.join(' ')}' added`));
    } else if (!sameDirectiveLine(forward, translatedForward)) {
      directives = directives.map((directive) => (directive === forward ? { ...forward, name: translatedForward.name, arguments: translatedForward.arguments } : directive));
      note(report('merge-upstream-replaced', path, `'${forward.name} ${forward.arguments.join(' ')}' becomes '${translatedForward.name} ${translatedForward.arguments.join(' ')}'`));
    }
  }
  const federation = translated.directives.find((directive) => directive.name === 'federation');
  if (federation !== undefined) {
    const index = directives.findIndex((directive) => directive.name === 'federation');
    if (index >= 0) directives[index] = { ...federation, ...(directives[index]?.leadingComments ? { leadingComments: directives[index]?.leadingComments } : {}) };
    else directives.splice(directives.findIndex((directive) => directive.name === 'kubernetes') + 1, 0, federation);
  }
  return { ...main, keys, directives };
}

/**
 * How the translation caches, for the blocks of the existing Corefile that answer on port 53:
 * `cache-off` when kube-dns's dnsmasq cached nothing (`--cache-size=0`); the options that switch
 * negative caching off (`disable denial`, or `denial 9984 1` before 1.9.4) when it ran with
 * `--no-negcache`; `undefined` when the translation caches NXDOMAIN like any existing cache.
 */
type TranslatedCaching = 'cache-off' | readonly Directive[] | undefined;

function cachingOfTranslation(translatedMain: ServerBlock, diagnostics: readonly Diagnostic[]): TranslatedCaching {
  const cache = translatedMain.directives.find((directive) => directive.name === 'cache');
  if (cache === undefined) return diagnostics.some((entry) => entry.code === 'cache-disabled') ? 'cache-off' : undefined;
  const options = (cache.block?.directives ?? []).filter(isNegativeCachingOption);
  return options.length === 0 ? undefined : options;
}

function isNegativeCachingOption(option: Directive): boolean {
  return option.name === 'denial' || (option.name === 'disable' && option.arguments[0] === 'denial');
}

/**
 * `block` with its caches made to cache as the translation does (kube-dns's behaviour wins over
 * the existing Corefile's, as for the upstream), other cache options kept. Blocks that do not
 * answer plain DNS on port 53 were never kube-dns's, and stay as they are.
 */
function withCachingOf(block: ServerBlock, caching: TranslatedCaching, note: (message: string) => void): ServerBlock {
  if (caching === undefined || !block.directives.some((directive) => directive.name === 'cache')) return block;
  const zones = servedZones(block);
  if (zones === undefined || !zones.every((zone) => zone.endsWith(':') || zone.endsWith(':53'))) return block;
  const line = (directive: Directive): string => [directive.name, ...directive.arguments].join(' ');
  if (caching === 'cache-off') {
    note("'cache' removed: kube-dns's dnsmasq cached nothing (--cache-size=0)");
    return { ...block, directives: block.directives.filter((directive) => directive.name !== 'cache') };
  }
  const directives = block.directives.map((directive) => {
    if (directive.name !== 'cache') return directive;
    const options = directive.block?.directives ?? [];
    if (caching.every((wanted) => options.some((option) => sameDirectiveLine(option, wanted)))) return directive;
    note(`'${line(directive)}' gets '${caching.map(line).join('; ')}': kube-dns's dnsmasq never cached NXDOMAIN (--no-negcache)`);
    return { ...directive, block: { ...directive.block, directives: [...options.filter((option) => !isNegativeCachingOption(option)), ...caching] } };
  });
  return { ...block, directives };
}
