import type { Directive } from '../../corefile/model.js';
import { isUsablePort } from '../../coredns/destinations.js';
import type { Destination } from '../../coredns/destinations.js';
import { firstReleaseWith } from '../../coredns/features.js';
import type { SourcePosition } from '../../util/source-position.js';
import type { LintContext, PathText } from '../context.js';
import { holdsOnlyNodeCacheVariables, ORIGIN, quote, where } from '../context.js';

/**
 * The destinations of one `forward`/`proxy` line, as the release reads them (§2.3): how many,
 * and whether each is an address, file or host name the release accepts. Codes:
 * `forward-without-destination`, `too-many-destinations`, `https-destination-unsupported`,
 * `grpc-destination-unsupported`, `destination-invalid`, `destination-not-ip`,
 * `destination-hostname`, `destination-port-invalid`, `placeholder-not-checked`.
 *
 * "§N" is section N of docs/reference/kube-dns-and-coredns.md.
 */
export function checkDestinations(context: LintContext, directive: Directive, label: string): void {
  const { name } = directive;
  const position = directive.position ?? ORIGIN;
  const path = () => where(position, label, name);
  const v = context.version;
  if (directive.arguments.length < 2) {
    const after = directive.arguments[0] ?? name;
    context.report('forward-without-destination', position, path, `${name} has no destination: CoreDNS stops with "Wrong argument count or unexpected line ending after '${after}'"`);
    return;
  }
  const destinations = context.destinations(directive);
  const limit = context.features.upstreamLimit;
  if (destinations.length > limit.max && limit.enforcement !== 'none') {
    const files = limit.counting === 'after-file-expansion' && destinations.some((destination) => destination.kind === 'file') ? ' (each nameserver of a file counts too)' : '';
    context.report(
      'too-many-destinations',
      position,
      path,
      `${destinations.length} destinations${files}: CoreDNS ${v} stops with "more than ${limit.max} TOs configured: ${destinations.length}"${limit.enforcement === 'unverified' ? ' (the limit was not verified for this release)' : ''}`,
      limit.enforcement === 'unverified' ? { severity: 'warning' } : {},
    );
  }
  for (let index = 0; index < destinations.length; index += 1) {
    const destination = destinations[index] as Destination;
    if (holdsOnlyNodeCacheVariables(destination.text)) continue;
    const at = directive.argumentPositions?.[index + 1] ?? position;
    checkDestination(context, name, destination, at, () => where(at, label, name, destination.text));
  }
}

function checkDestination(context: LintContext, plugin: string, destination: Destination, position: SourcePosition, path: PathText): void {
  const { features, version: v } = context;
  const { text } = destination;
  if (destination.kind === 'placeholder') {
    context.report('placeholder-not-checked', position, path, `destination ${quote(text)} holds an environment placeholder and was not checked`);
    return;
  }
  if (plugin === 'forward' && destination.scheme === 'https' && !features.forwardHttpsTargets) {
    context.report('https-destination-unsupported', position, path, `${quote(text)}: forward accepts https:// destinations from CoreDNS ${firstReleaseWith((release) => release.forwardHttpsTargets) ?? '?'} on, not in ${v}`);
    return;
  }
  if (plugin === 'forward' && destination.scheme === 'grpc' && features.forwardRefusesGrpc) {
    context.report('grpc-destination-unsupported', position, path, `${quote(text)}: CoreDNS ${v} stops with "'grpc' is not supported as a destination protocol in forward"`);
    return;
  }
  switch (destination.kind) {
    case 'invalid':
      context.report('destination-invalid', position, path, `${destination.problem}, so CoreDNS ${v} does not start`);
      return;
    case 'file':
      return;
    case 'ip':
      checkPort(context, destination.port, text, position, path);
      return;
    case 'hostname':
      if (plugin === 'proxy') {
        context.report('destination-not-ip', position, path, `${quote(text)} is not an IP address; proxy never accepted host names, so CoreDNS ${v} stops with "not an IP address or file"`);
      } else if (!features.forwardHostnameTargets) {
        context.report('destination-not-ip', position, path, `${quote(text)} is not an IP address: CoreDNS ${v} reads it as a file and stops with "not an IP address or file" (forward takes host names from ${firstReleaseWith((release) => release.forwardHostnameTargets) ?? '?'} on)`);
      } else {
        context.report('destination-hostname', position, path, `${quote(destination.name)} is resolved once when CoreDNS starts (and on reload); if that fails, CoreDNS does not start`);
        checkPort(context, destination.port, text, position, path);
      }
  }
}

function checkPort(context: LintContext, port: string | undefined, text: string, position: SourcePosition, path: PathText): void {
  if (port === undefined || isUsablePort(port)) return;
  context.report('destination-port-invalid', position, path, `${quote(text)}: port ${quote(port)} is not a number from 1 to 65535; CoreDNS starts, but every query sent there fails`);
}
