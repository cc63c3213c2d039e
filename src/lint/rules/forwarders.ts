import { isDomainName } from '../../corefile/server-key.js';
import { defaultDestinationPort } from '../../coredns/destinations.js';
import type { Destination } from '../../coredns/destinations.js';
import { isWithin } from '../../dns/zones.js';
import type { SourcePosition } from '../../util/source-position.js';
import type { BlockInfo, LintContext, PathText, PlacedDirective } from '../context.js';
import { bare, FORWARDERS, fqdn, holdsPlaceholder, ORIGIN, placedLabels, quote, where } from '../context.js';

/**
 * `forward`/`proxy` in the context of their server block (after snippet imports, with the block's
 * keys read by the key rules): a second `forward`, a FROM zone the block never sees, resolv.conf
 * with `loop`, destinations on loopback (§2.3, §2.6, §2.9). Codes: `forward-once-per-block`,
 * `forward-from-outside-zones`, `resolv-conf-loop-risk`, `loopback-destination`.
 *
 * "§N" is section N of docs/reference/kube-dns-and-coredns.md.
 */
export function checkForwarders(context: LintContext, info: BlockInfo): void {
  const v = context.version;
  let forwarders: PlacedDirective[] | undefined;
  let forwardCount = 0;
  for (const placed of info.directives) {
    const { name } = placed.directive;
    if (!FORWARDERS.has(name) || !info.plugins.has(name)) continue;
    (forwarders ??= []).push(placed);
    if (name === 'forward') forwardCount += 1;
  }
  if (forwarders === undefined) return;
  if (forwardCount > 1 && !context.features.multipleForwardPerBlock) {
    const forwards = forwarders.filter(({ directive }) => directive.name === 'forward');
    const enforced = context.features.forwardOncePerBlock === true;
    for (const { directive, label } of forwards.slice(1)) {
      const position = directive.position ?? ORIGIN;
      context.report(
        'forward-once-per-block',
        position,
        where(position, placedLabels(info, label), 'forward'),
        `a second forward in block ${quote(info.label)}: CoreDNS ${v} stops with "this plugin can only be used once per Server Block"${enforced ? '' : ' (not verified for this release)'}`,
        enforced ? {} : { severity: 'warning' },
      );
    }
  }
  let zones: string[] | undefined;
  const hasLoop = info.plugins.has('loop');
  const bound = info.written.has('bind');
  for (const { directive, label } of forwarders) {
    const position = directive.position ?? ORIGIN;
    const labels = () => placedLabels(info, label);
    const from = directive.arguments[0];
    // Every zone is within the root: `forward .` (most of them) always overlaps.
    if (from !== undefined && from !== '.' && !holdsPlaceholder(from) && isDomainName(from) && (zones ??= blockZones(info)).length > 0) {
      const overlaps = zones.some((zone) => isWithin(bare(from), zone) || isWithin(zone, bare(from)));
      if (!overlaps) {
        context.report(
          'forward-from-outside-zones',
          position,
          where(position, labels(), directive.name),
          `${directive.name} handles names under ${quote(fqdn(from))} only, but block ${quote(info.label)} serves none of them: the line never forwards`,
        );
      }
    }
    const destinations = context.destinations(directive);
    for (let index = 0; index < destinations.length; index += 1) {
      const destination = destinations[index] as Destination;
      const text = destination.text;
      const at = directive.argumentPositions?.[index + 1] ?? position;
      const path = () => where(at, labels(), directive.name, text);
      if (destination.kind === 'file' && hasLoop) {
        context.report(
          'resolv-conf-loop-risk',
          at,
          path,
          `${quote(text)} lists the node's resolvers; if one is a local cache (127.0.0.53 with systemd-resolved), the loop plugin of block ${quote(info.label)} stops CoreDNS`,
        );
      }
      if ((destination.kind === 'ip' || destination.kind === 'hostname') && destination.loopback) {
        checkLoopback(context, info, destination, at, path, hasLoop, bound);
      }
    }
  }
}

function checkLoopback(
  context: LintContext,
  info: BlockInfo,
  destination: Destination & { kind: 'ip' | 'hostname' },
  at: SourcePosition,
  path: PathText,
  hasLoop: boolean,
  bound: boolean,
): void {
  const written = destination.port ?? defaultDestinationPort(destination.scheme);
  const port = /^[0-9]+$/.test(written) ? String(Number(written)) : written;
  const listens = destination.scheme === 'dns' && !bound && blockPorts(info).has(`dns/${port}`);
  if (listens) {
    const outcome = hasLoop ? 'the loop plugin detects the loop and stops CoreDNS' : 'queries circle until they time out';
    context.report('loopback-destination', at, path, `${quote(destination.text)} is this CoreDNS itself (block ${quote(info.label)} listens on port ${port}): ${outcome}`);
    return;
  }
  const consequence = hasLoop ? '; if it sends queries back here, the loop plugin stops CoreDNS' : '';
  context.report(
    'loopback-destination',
    at,
    path,
    `${quote(destination.text)} is the loopback address: inside the CoreDNS pod that is the pod itself, so only a server beside CoreDNS can answer there${consequence}`,
    { severity: 'warning' },
  );
}

/** The zones of a block's valid keys, as `isWithin` compares them (after the key rules ran). */
function blockZones(info: BlockInfo): string[] {
  return info.keys.flatMap((entry) => entry.reading.zones.map(bare));
}

function blockPorts(info: BlockInfo): Set<string> {
  return new Set(info.keys.map((entry) => `${entry.reading.address.transport}/${entry.reading.address.port ?? ''}`));
}
