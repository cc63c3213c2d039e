import type { CorefileWarning } from '../corefile/errors.js';
import type { Corefile, Directive, ServerBlock, SnippetDefinition } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import { isDomainName } from '../corefile/server-key.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import { coreDnsOptionAvailability, coreDnsPluginAvailability, isUsable } from '../coredns/availability.js';
import type { Availability } from '../coredns/availability.js';
import { coreDnsFeatures } from '../coredns/features.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { isCoreDnsVersionAtLeast, NEWEST_COREDNS_VERSION } from '../coredns/versions.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { isWithin } from '../dns/zones.js';
import type { SourcePosition } from '../util/source-position.js';
import { defaultDestinationPort, hasPlaceholder, isUsablePort, readDestination } from '../coredns/destinations.js';
import type { Destination } from '../coredns/destinations.js';
import { readServerKey, storedAddressKey } from './server-keys.js';
import type { KeyReading } from './server-keys.js';
import { HEALTH_DEFAULT_ADDRESS, healthListenersOfBlock, listenAddressesCollide } from '../coredns/listen-addresses.js';
import { ALREADY_DEFINED_WORDING_FROM, FORWARD_ONCE_PER_BLOCK_ENFORCED_FROM, FORWARD_REFUSES_GRPC_FROM } from '../coredns/version-facts.js';

/**
 * The Corefile linter: what a given CoreDNS release makes of a Corefile, as diagnostics of the
 * shared registry (`src/diagnostics/codes.ts`, area `lint`). Errors mean CoreDNS refuses to start
 * or names become unreachable; warnings mean it behaves differently than the text reads; infos are
 * worth knowing (docs/lint.md lists every check with the fact behind it).
 *
 * "§N" below is section N of docs/reference/kube-dns-and-coredns.md.
 *
 * Every diagnostic has `key: 'Corefile'`, a `position` (line and column in the Corefile text) and a
 * `path` that repeats the position and names the place: `:LINE:COL [BLOCK] DIRECTIVE[ > OPTION]`,
 * where BLOCK is the block's keys (the first two and `…` when there are more) or `(name)` for a
 * snippet, so that `formatDiagnostic` prints `error code Corefile:12:5 [acme.local:53] forward: …`.
 *
 * Pure: no Node APIs.
 */

export interface LintOptions {
  /** The CoreDNS release to lint against (default: the newest the package knows). */
  readonly coredns?: string;
  /** Name used in syntax error messages (default `Corefile`). */
  readonly filename?: string;
}

export interface LintModelOptions {
  /** The CoreDNS release to lint against (default: the newest the package knows). */
  readonly coredns?: string;
  /** The parser's warnings for the model, reported as `syntax-warning`. */
  readonly warnings?: readonly CorefileWarning[];
}

export interface LintResult {
  /** True when no diagnostic is an error. */
  readonly ok: boolean;
  /** The release linted against. */
  readonly coredns: CoreDnsVersion;
  /** Ordered by position. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Lints Corefile text against a CoreDNS release.
 *
 * @throws {CorefileSyntaxError} when CoreDNS could not even parse the text.
 * @throws {UnknownCoreDnsVersionError} when `options.coredns` is not a known release.
 */
export function lintCorefile(text: string, options: LintOptions = {}): LintResult {
  const features = coreDnsFeatures(options.coredns ?? NEWEST_COREDNS_VERSION);
  const { corefile, warnings } = parseCorefile(text, { filename: options.filename ?? 'Corefile', tokenPositions: true });
  return lintParsedCorefile(corefile, { coredns: features.version, warnings });
}

/**
 * Lints a Corefile model. Positions come from the model (parse it with `tokenPositions: true` for
 * argument and key positions); nodes without one are reported at line 1, column 1.
 */
export function lintParsedCorefile(corefile: Corefile, options: LintModelOptions = {}): LintResult {
  const features = coreDnsFeatures(options.coredns ?? NEWEST_COREDNS_VERSION);
  const linter = new Linter(corefile, features);
  for (const warning of options.warnings ?? []) {
    linter.report('syntax-warning', warning.position, where(warning.position), warning.reason);
  }
  linter.run();
  const diagnostics = linter.sorted();
  return { ok: !hasErrors(diagnostics), coredns: features.version, diagnostics };
}

// ---------------------------------------------------------------------------------------------

const ORIGIN: SourcePosition = { line: 1, column: 1 };
const FORWARDERS = new Set(['forward', 'proxy']);
const MAX_SNIPPET_DEPTH = 10;

/** `:LINE:COL [LABEL] NAME > NAME` (see the module comment); several labels for a snippet inside a block. */
function where(position: SourcePosition, label?: string | readonly string[], ...names: readonly string[]): string {
  const labels = label === undefined ? [] : typeof label === 'string' ? [label] : label;
  const block = labels.map((text) => ` [${text}]`).join('');
  const path = names.length === 0 ? '' : ` ${names.join(' > ')}`;
  return `:${position.line}:${position.column}${block}${path}`;
}

/** `[block]`, or `[block] [(snippet)]` for a directive a snippet brought into the block. */
function placedLabels(info: { readonly label: string }, label: string): readonly string[] {
  return label === info.label ? [label] : [info.label, label];
}

function blockLabel(keys: readonly string[]): string {
  if (keys.length <= 2) return keys.join(' ');
  return `${keys[0]} ${keys[1]} …`;
}

function quote(text: string): string {
  return `'${text}'`;
}

/** A zone in the form `isWithin` compares: lower case, no trailing dot, `''` for the root. */
function bare(zone: string): string {
  const lower = zone.toLowerCase();
  if (lower === '.') return '';
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

function fqdn(zone: string): string {
  const lower = zone.toLowerCase();
  return lower.endsWith('.') ? lower : `${lower}.`;
}

/** A directive of a server block after snippet imports are expanded. */
interface PlacedDirective {
  readonly directive: Directive;
  /** The label of the place it is written: the block, or `(snippet)`. */
  readonly label: string;
}

/** One server key with where it is written and how the release reads it. */
interface KeyEntry {
  readonly block: BlockInfo;
  readonly key: string;
  readonly position: SourcePosition;
  readonly reading: KeyReading & { kind: 'ok' };
}

interface BlockInfo {
  readonly block: ServerBlock;
  readonly label: string;
  readonly position: SourcePosition;
  readonly directives: readonly PlacedDirective[];
  /** Names of the plugins the release has that the block uses (after imports). */
  readonly plugins: ReadonlySet<string>;
  /** Every directive name of the block (after imports), with facts or not (`view` has none). */
  readonly written: ReadonlySet<string>;
  readonly keys: KeyEntry[];
}

class Linter {
  readonly #corefile: Corefile;
  readonly #features: CoreDnsFeatures;
  readonly #version: CoreDnsVersion;
  readonly #diagnostics: Diagnostic[] = [];
  readonly #reportedOnce = new Set<string>();
  /** Snippets by name with their index among the items. */
  readonly #snippets = new Map<string, { readonly snippet: SnippetDefinition; readonly index: number }>();
  readonly #usedSnippets = new Set<SnippetDefinition>();

  constructor(corefile: Corefile, features: CoreDnsFeatures) {
    this.#corefile = corefile;
    this.#features = features;
    this.#version = features.version;
  }

  report(code: DiagnosticCode, position: SourcePosition, path: string, message: string, extra: { severity?: Severity; hint?: string } = {}): void {
    this.#diagnostics.push(diagnostic(code, { key: 'Corefile', path, position, message, ...extra }));
  }

  /** Reports only the first time `once` is seen. */
  #reportOnce(once: string, code: DiagnosticCode, position: SourcePosition, path: string, message: string): void {
    if (this.#reportedOnce.has(once)) return;
    this.#reportedOnce.add(once);
    this.report(code, position, path, message);
  }

  sorted(): Diagnostic[] {
    const order = (entry: Diagnostic) => entry.position ?? ORIGIN;
    return this.#diagnostics
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => order(a.entry).line - order(b.entry).line || order(a.entry).column - order(b.entry).column || a.index - b.index)
      .map(({ entry }) => entry);
  }

  run(): void {
    const blocks: BlockInfo[] = [];
    this.#corefile.items.forEach((item, index) => {
      if (item.kind === 'snippet') this.#snippets.set(item.name, { snippet: item, index });
    });
    this.#corefile.items.forEach((item, index) => {
      if (item.kind === 'import') {
        const position = item.position ?? ORIGIN;
        this.report('import-not-checked', position, where(position, undefined, 'import'), `${quote(item.pattern)} is imported at the top level; its server blocks were not linted`);
      } else if (item.kind === 'server-block') {
        blocks.push(this.#blockInfo(item, index));
      }
    });
    this.#checkKeys(blocks);
    // Directive checks, once per written directive: server blocks and the snippets they import.
    for (const item of this.#corefile.items) {
      if (item.kind === 'server-block') this.#checkDirectives(item.directives, blockLabel(item.keys));
      else if (item.kind === 'snippet' && this.#usedSnippets.has(item)) this.#checkDirectives(item.directives, `(${item.name})`);
    }
    for (const block of blocks) this.#checkBlock(block);
    this.#checkHealthListeners(blocks);
  }

  // ── blocks and imports ──────────────────────────────────────────────────────────────────────

  #blockInfo(block: ServerBlock, index: number): BlockInfo {
    const label = blockLabel(block.keys);
    const directives: PlacedDirective[] = [];
    this.#expand(block.directives, label, index, directives, 0);
    const written = new Set(directives.map((placed) => placed.directive.name));
    const plugins = new Set([...written].filter((name) => !hasPlaceholder(name) && isUsable(coreDnsPluginAvailability(name, this.#version))));
    return { block, label, position: block.position ?? ORIGIN, directives, plugins, written, keys: [] };
  }

  /** Expands `import SNIPPET` of snippets defined before the block; other imports are reported. */
  #expand(list: readonly Directive[], label: string, blockIndex: number, into: PlacedDirective[], depth: number): void {
    for (const directive of list) {
      if (directive.name !== 'import') {
        into.push({ directive, label });
        continue;
      }
      const name = directive.arguments[0] ?? '';
      const found = this.#snippets.get(name);
      const position = directive.position ?? ORIGIN;
      if (found === undefined || found.index > blockIndex || depth >= MAX_SNIPPET_DEPTH) {
        const what =
          found === undefined
            ? `${quote(name)} is a file pattern`
            : found.index > blockIndex
              ? `snippet ${quote(name)} is defined after this block, so CoreDNS reads ${quote(name)} as a file pattern`
              : `snippet ${quote(name)} is imported more than ${MAX_SNIPPET_DEPTH} snippets deep`;
        this.#reportOnce(`import ${position.line}:${position.column}`, 'import-not-checked', position, where(position, label, 'import'), `${what}; what it imports was not linted`);
        continue;
      }
      this.#usedSnippets.add(found.snippet);
      this.#expand(found.snippet.directives, `(${found.snippet.name})`, blockIndex, into, depth + 1);
    }
  }

  // ── directive checks (plugins, options, destinations) ──────────────────────────────────────

  #checkDirectives(list: readonly Directive[], label: string): void {
    for (const directive of list) {
      if (directive.name === 'import') continue;
      this.#checkDirective(directive, label);
    }
  }

  #checkDirective(directive: Directive, label: string): void {
    const { name } = directive;
    const position = directive.position ?? ORIGIN;
    const path = where(position, label, name);
    if (hasPlaceholder(name)) {
      this.report('placeholder-not-checked', position, path, `directive ${quote(name)} holds an environment placeholder; which plugin it names is not known`);
      return;
    }
    const availability = coreDnsPluginAvailability(name, this.#version);
    if (!this.#checkPluginAvailability(name, availability, position, path)) return;
    for (const option of directive.block?.directives ?? []) this.#checkOption(name, option, label);
    if (FORWARDERS.has(name)) this.#checkDestinations(directive, label);
  }

  /** Reports what the release says about the plugin; false when nothing more should be checked. */
  #checkPluginAvailability(name: string, availability: Availability, position: SourcePosition, path: string): boolean {
    const v = this.#version;
    switch (availability.status) {
      case 'removed': {
        const instead = availability.replacement === undefined ? 'remove it' : `use ${availability.replacement} instead`;
        this.report('plugin-removed', position, path, `plugin ${quote(name)} was removed in CoreDNS ${availability.removedIn ?? '?'}: CoreDNS ${v} stops with "Unknown directive '${name}'"; ${instead}`);
        return false;
      }
      case 'not-yet-added':
        this.report('plugin-not-yet-added', position, path, `plugin ${quote(name)} was added in CoreDNS ${availability.since ?? '?'}: CoreDNS ${v} stops with "Unknown directive '${name}'"`);
        return false;
      case 'unknown': {
        const detail =
          availability.since === undefined
            ? `no version facts are recorded for plugin ${quote(name)}`
            : `plugin ${quote(name)} is confirmed in CoreDNS ${availability.since} and later only; ${v} was not checked`;
        this.#reportOnce(`plugin ${name}`, 'plugin-without-facts', position, path, `${detail}: if CoreDNS ${v} (or your build) lacks it, CoreDNS stops with "Unknown directive '${name}'"`);
        return false;
      }
      case 'deprecated': {
        const removal = availability.removedIn === undefined ? '' : ` and removed in ${availability.removedIn}`;
        const instead = availability.replacement === undefined ? '' : `; use ${availability.replacement}`;
        this.report('plugin-deprecated', position, path, `plugin ${quote(name)} is deprecated since CoreDNS ${availability.deprecatedIn ?? '?'}${removal}${instead}`);
        break;
      }
      case 'available':
        break;
    }
    if (availability.caveat !== undefined) this.report('version-caveat', position, path, `CoreDNS ${v}, plugin ${quote(name)}: ${availability.caveat}`);
    return true;
  }

  #checkOption(plugin: string, option: Directive, label: string): void {
    const { name } = option;
    if (name === 'import' || hasPlaceholder(name)) return;
    const position = option.position ?? ORIGIN;
    const path = where(position, label, plugin, name);
    const v = this.#version;
    if (plugin === 'kubernetes' && name === 'upstream') {
      this.#checkKubernetesUpstream(option, position, path);
      return;
    }
    const availability = coreDnsOptionAvailability(plugin, name, v);
    switch (availability.status) {
      case 'removed': {
        const instead = availability.replacement === undefined ? '' : `; use ${availability.replacement} instead`;
        this.report('option-removed', position, path, `option ${quote(name)} of ${plugin} was removed in CoreDNS ${availability.removedIn ?? '?'}: CoreDNS ${v} stops with a parse error${instead}`);
        return;
      }
      case 'not-yet-added':
        this.report('option-not-yet-added', position, path, `option ${quote(name)} of ${plugin} was added in CoreDNS ${availability.since ?? '?'}: CoreDNS ${v} stops with a parse error`);
        return;
      case 'deprecated': {
        const removal = availability.removedIn === undefined ? '' : ` and removed in ${availability.removedIn}`;
        this.report('option-deprecated', position, path, `option ${quote(name)} of ${plugin} is deprecated since CoreDNS ${availability.deprecatedIn ?? '?'}${removal}`);
        return;
      }
      case 'unknown':
        return;
      case 'available':
        if (availability.caveat !== undefined) this.report('version-caveat', position, path, `CoreDNS ${v}, ${plugin} option ${quote(name)}: ${availability.caveat}`);
    }
  }

  #checkKubernetesUpstream(option: Directive, position: SourcePosition, path: string): void {
    const v = this.#version;
    const hasAddresses = option.arguments.length > 0;
    switch (this.#features.kubernetesUpstream) {
      case 'addresses-required':
        if (!hasAddresses) this.report('upstream-address-required', position, path, `a bare 'upstream' needs CoreDNS 1.0.6; CoreDNS ${v} stops with an argument error`);
        return;
      case 'addresses-optional':
        return;
      case 'arguments-ignored':
      case 'no-op': {
        const effect =
          this.#features.kubernetesUpstream === 'no-op'
            ? `has no effect in CoreDNS ${v}: ExternalName targets are always resolved through CoreDNS itself`
            : `is deprecated in CoreDNS ${v}: its presence makes CoreDNS resolve ExternalName targets itself`;
        if (hasAddresses) {
          this.report('upstream-addresses-ignored', position, path, `'upstream ${option.arguments.join(' ')}' ${effect}; the addresses are ignored`);
        } else {
          this.report('option-deprecated', position, path, `'upstream' ${effect}; it is removed in CoreDNS 1.7.0`);
        }
        return;
      }
      case 'removed':
        this.report('option-removed', position, path, `option 'upstream' of kubernetes was removed in CoreDNS 1.7.0: CoreDNS ${v} stops with "unknown property 'upstream'"`);
    }
  }

  #checkDestinations(directive: Directive, label: string): void {
    const { name } = directive;
    const position = directive.position ?? ORIGIN;
    const path = where(position, label, name);
    const v = this.#version;
    if (directive.arguments.length < 2) {
      const after = directive.arguments[0] ?? name;
      this.report('forward-without-destination', position, path, `${name} has no destination: CoreDNS stops with "Wrong argument count or unexpected line ending after '${after}'"`);
      return;
    }
    const destinations = directive.arguments.slice(1);
    const limit = this.#features.upstreamLimit;
    if (destinations.length > limit.max && limit.enforcement !== 'none') {
      const files = limit.counting === 'after-file-expansion' && destinations.some((text) => readDestination(text).kind === 'file') ? ' (each nameserver of a file counts too)' : '';
      this.report(
        'too-many-destinations',
        position,
        path,
        `${destinations.length} destinations${files}: CoreDNS ${v} stops with "more than ${limit.max} TOs configured: ${destinations.length}"${limit.enforcement === 'unverified' ? ' (the limit was not verified for this release)' : ''}`,
        limit.enforcement === 'unverified' ? { severity: 'warning' } : {},
      );
    }
    destinations.forEach((text, index) => {
      const at = directive.argumentPositions?.[index + 1] ?? position;
      this.#checkDestination(name, readDestination(text), at, where(at, label, name, text));
    });
  }

  #checkDestination(plugin: string, destination: Destination, position: SourcePosition, path: string): void {
    const v = this.#version;
    const { text } = destination;
    if (destination.kind === 'placeholder') {
      this.report('placeholder-not-checked', position, path, `destination ${quote(text)} holds an environment placeholder and was not checked`);
      return;
    }
    if (plugin === 'forward' && destination.scheme === 'https' && !this.#features.forwardHttpsTargets) {
      this.report('https-destination-unsupported', position, path, `${quote(text)}: forward accepts https:// destinations from CoreDNS 1.14.5 on, not in ${v}`);
      return;
    }
    if (plugin === 'forward' && destination.scheme === 'grpc' && isCoreDnsVersionAtLeast(v, FORWARD_REFUSES_GRPC_FROM)) {
      this.report('grpc-destination-unsupported', position, path, `${quote(text)}: CoreDNS ${v} stops with "'grpc' is not supported as a destination protocol in forward"`);
      return;
    }
    switch (destination.kind) {
      case 'invalid':
        this.report('destination-invalid', position, path, `${destination.problem}, so CoreDNS ${v} does not start`);
        return;
      case 'file':
        return;
      case 'ip':
        this.#checkPort(destination.port, text, position, path);
        return;
      case 'hostname':
        if (plugin === 'proxy') {
          this.report('destination-not-ip', position, path, `${quote(text)} is not an IP address; proxy never accepted host names, so CoreDNS ${v} stops with "not an IP address or file"`);
        } else if (!this.#features.forwardHostnameTargets) {
          this.report('destination-not-ip', position, path, `${quote(text)} is not an IP address: CoreDNS ${v} reads it as a file and stops with "not an IP address or file" (forward takes host names from 1.14.4 on)`);
        } else {
          this.report('destination-hostname', position, path, `${quote(destination.name)} is resolved once when CoreDNS starts (and on reload); if that fails, CoreDNS does not start`);
          this.#checkPort(destination.port, text, position, path);
        }
    }
  }

  #checkPort(port: string | undefined, text: string, position: SourcePosition, path: string): void {
    if (port === undefined || isUsablePort(port)) return;
    this.report('destination-port-invalid', position, path, `${quote(text)}: port ${quote(port)} is not a number from 1 to 65535; CoreDNS starts, but every query sent there fails`);
  }

  // ── block checks (need the block's keys and the plugins imported into it) ───────────────────

  #checkBlock(info: BlockInfo): void {
    const v = this.#version;
    const forwarders = info.directives.filter(({ directive }) => FORWARDERS.has(directive.name) && info.plugins.has(directive.name));
    const forwards = forwarders.filter(({ directive }) => directive.name === 'forward');
    if (forwards.length > 1 && !this.#features.multipleForwardPerBlock) {
      const enforced = isCoreDnsVersionAtLeast(v, FORWARD_ONCE_PER_BLOCK_ENFORCED_FROM);
      for (const { directive, label } of forwards.slice(1)) {
        const position = directive.position ?? ORIGIN;
        this.report(
          'forward-once-per-block',
          position,
          where(position, placedLabels(info, label), 'forward'),
          `a second forward in block ${quote(info.label)}: CoreDNS ${v} stops with "this plugin can only be used once per Server Block"${enforced ? '' : ' (not verified for this release)'}`,
          enforced ? {} : { severity: 'warning' },
        );
      }
    }
    const zones = this.#blockZones(info);
    const hasLoop = info.plugins.has('loop');
    const bound = info.written.has('bind');
    for (const { directive, label } of forwarders) {
      const position = directive.position ?? ORIGIN;
      const context = placedLabels(info, label);
      const from = directive.arguments[0];
      if (from !== undefined && !hasPlaceholder(from) && isDomainName(from) && zones.length > 0) {
        const overlaps = zones.some((zone) => isWithin(bare(from), zone) || isWithin(zone, bare(from)));
        if (!overlaps) {
          this.report(
            'forward-from-outside-zones',
            position,
            where(position, context, directive.name),
            `${directive.name} handles names under ${quote(fqdn(from))} only, but block ${quote(info.label)} serves none of them: the line never forwards`,
          );
        }
      }
      directive.arguments.slice(1).forEach((text, index) => {
        const at = directive.argumentPositions?.[index + 1] ?? position;
        const destination = readDestination(text);
        const path = where(at, context, directive.name, text);
        if (destination.kind === 'file' && hasLoop) {
          this.report(
            'resolv-conf-loop-risk',
            at,
            path,
            `${quote(text)} lists the node's resolvers; if one is a local cache (127.0.0.53 with systemd-resolved), the loop plugin of block ${quote(info.label)} stops CoreDNS`,
          );
        }
        if ((destination.kind === 'ip' || destination.kind === 'hostname') && destination.loopback) {
          this.#checkLoopback(info, destination, at, path, hasLoop, bound);
        }
      });
    }
    if (info.plugins.has('federation') && !info.plugins.has('kubernetes')) {
      for (const { directive, label } of info.directives.filter((placed) => placed.directive.name === 'federation')) {
        const position = directive.position ?? ORIGIN;
        this.report(
          'federation-without-kubernetes',
          position,
          where(position, placedLabels(info, label), 'federation'),
          `block ${quote(info.label)} has no kubernetes plugin, so federation answers nothing`,
        );
      }
    }
  }

  #checkLoopback(info: BlockInfo, destination: Destination & { kind: 'ip' | 'hostname' }, at: SourcePosition, path: string, hasLoop: boolean, bound: boolean): void {
    const written = destination.port ?? defaultDestinationPort(destination.scheme);
    const port = /^[0-9]+$/.test(written) ? String(Number(written)) : written;
    const listens = destination.scheme === 'dns' && !bound && this.#blockPorts(info).has(`dns/${port}`);
    if (listens) {
      const outcome = hasLoop ? 'the loop plugin detects the loop and stops CoreDNS' : 'queries circle until they time out';
      this.report('loopback-destination', at, path, `${quote(destination.text)} is this CoreDNS itself (block ${quote(info.label)} listens on port ${port}): ${outcome}`);
      return;
    }
    const consequence = hasLoop ? '; if it sends queries back here, the loop plugin stops CoreDNS' : '';
    this.report(
      'loopback-destination',
      at,
      path,
      `${quote(destination.text)} is the loopback address: inside the CoreDNS pod that is the pod itself, so only a server beside CoreDNS can answer there${consequence}`,
      { severity: 'warning' },
    );
  }

  /**
   * `health` listeners that collide where the release binds each one with a plain listen
   * (1.1.0–1.6.5): a block sets health up once per key, every block with health once more, and
   * the second listener on an address stops CoreDNS. The plugin reads all its lines of a block and
   * keeps the last address, so the last line counts.
   */
  #checkHealthListeners(blocks: readonly BlockInfo[]): void {
    if (this.#features.healthListener !== 'exclusive') return;
    const v = this.#version;
    const bound: Array<{ readonly address: string; readonly info: BlockInfo }> = [];
    for (const info of blocks) {
      if (!info.plugins.has('health')) continue;
      const placed = info.directives.filter((entry) => entry.directive.name === 'health').at(-1);
      if (placed === undefined) continue;
      const { directive, label } = placed;
      const address = directive.arguments[0] ?? HEALTH_DEFAULT_ADDRESS;
      if (hasPlaceholder(address)) continue;
      const position = directive.position ?? ORIGIN;
      const path = where(position, placedLabels(info, label), 'health');
      const failure = `"listen tcp ${address}: bind: address already in use"`;
      const earlier = bound.find((entry) => listenAddressesCollide(entry.address, address));
      const listeners = healthListenersOfBlock(this.#features, info.block.keys.length);
      if (earlier !== undefined) {
        const same = earlier.address === address ? '' : ` (written ${quote(earlier.address)})`;
        this.report(
          'health-bound-twice',
          position,
          path,
          `health listens on ${address}, which the health of block ${quote(earlier.info.label)} (line ${earlier.info.position.line}) already holds${same}: CoreDNS ${v} stops with ${failure}`,
        );
      } else if (listeners > 1) {
        this.report(
          'health-bound-twice',
          position,
          path,
          `block ${quote(info.label)} has ${listeners} keys and CoreDNS ${v} sets health up once per key: the second listener on ${address} stops it with ${failure}`,
        );
      }
      bound.push({ address, info });
    }
  }

  /** The zones of a block's valid keys, as `isWithin` compares them (after `#checkKeys`). */
  #blockZones(info: BlockInfo): string[] {
    return info.keys.flatMap((entry) => entry.reading.zones.map(bare));
  }

  #blockPorts(info: BlockInfo): Set<string> {
    return new Set(info.keys.map((entry) => `${entry.reading.address.transport}/${entry.reading.address.port ?? ''}`));
  }

  // ── key checks (across blocks) ──────────────────────────────────────────────────────────────

  #checkKeys(blocks: readonly BlockInfo[]): void {
    const v = this.#version;
    const entries: KeyEntry[] = [];
    for (const info of blocks) {
      info.block.keys.forEach((key, index) => {
        const position = info.block.keyPositions?.[index] ?? info.position;
        const path = where(position, key);
        const reading = readServerKey(key, this.#features);
        if (reading.kind === 'placeholder') {
          this.report('placeholder-not-checked', position, path, `key ${quote(key)} holds an environment placeholder and was not checked`);
          return;
        }
        if (reading.kind === 'invalid') {
          this.report('invalid-server-key', position, path, `${quote(key)}: ${reading.error.reason}`);
          return;
        }
        if (reading.upperCase) this.#reportUpperCase(key, position, path);
        const entry = { block: info, key, position, reading };
        info.keys.push(entry);
        entries.push(entry);
      });
    }
    this.#checkDuplicates(entries, v);
    this.#checkPorts(entries);
    this.#checkKubernetesCapture(blocks, entries);
  }

  #reportUpperCase(key: string, position: SourcePosition, path: string): void {
    const v = this.#version;
    switch (this.#features.zoneKeyCase) {
      case 'upper-case-unreachable':
        this.report('upper-case-zone', position, path, `${quote(key)} has upper-case letters: CoreDNS ${v} compares lower-cased query names with the key as written, so this zone never matches (fixed in 1.14.7)`);
        return;
      case 'case-sensitive':
        this.report('upper-case-zone', position, path, `${quote(key)} has upper-case letters: CoreDNS ${v} matches it only for queries spelled in the same case`, { severity: 'warning' });
        return;
      case 'case-insensitive':
        return;
    }
  }

  #checkDuplicates(entries: readonly KeyEntry[], v: CoreDnsVersion): void {
    const seen = new Map<string, KeyEntry>();
    for (const entry of entries) {
      const { address, storedZones } = entry.reading;
      for (const zone of storedZones) {
        const stored = storedAddressKey(address, zone);
        const first = seen.get(stored);
        if (first === undefined) {
          seen.set(stored, entry);
          continue;
        }
        // Different bind addresses, or the view plugin, may serve one zone twice.
        const exempt = [first.block, entry.block].some((info) => info.written.has('bind') || info.written.has('view'));
        if (exempt) continue;
        const wording = isCoreDnsVersionAtLeast(v, ALREADY_DEFINED_WORDING_FROM) ? `"cannot serve ${stored} - it is already defined"` : `"cannot serve ${stored} - zone already defined for …"`;
        const place = first.block === entry.block ? `by key ${quote(first.key)} of the same block` : `by block ${quote(first.block.label)}`;
        this.report('zone-served-twice', entry.position, where(entry.position, entry.key), `${quote(entry.key)} is ${zone} on port ${address.port ?? '-'}, served ${place} (line ${first.position.line}) already: CoreDNS ${v} stops with ${wording}`);
        break;
      }
    }
  }

  /** Blocks on a port that has no root block, while another port has one (§2.9). */
  #checkPorts(entries: readonly KeyEntry[]): void {
    const dns = entries.filter((entry) => entry.reading.address.transport === 'dns');
    const rootPorts = new Set(dns.filter((entry) => entry.reading.zones.includes('.')).map((entry) => entry.reading.address.port ?? ''));
    if (rootPorts.size === 0) return;
    const servedOnRootPort = new Set(dns.filter((entry) => rootPorts.has(entry.reading.address.port ?? '')).flatMap((entry) => entry.reading.zones));
    const roots = [...rootPorts].join(', ');
    for (const entry of dns) {
      const port = entry.reading.address.port ?? '';
      if (rootPorts.has(port)) continue;
      if (entry.reading.zones.every((zone) => zone === '.' || servedOnRootPort.has(zone))) continue;
      this.report(
        'zone-on-other-port',
        entry.position,
        where(entry.position, entry.key),
        `${quote(entry.key)} listens on port ${port}, the root block on ${roots}: queries for ${entry.reading.zones.join(' ')} arriving on ${roots} are answered by the root block, never by this one`,
      );
    }
  }

  /** A block whose key is the longest match for a zone that the kubernetes plugin of another block serves (§2.9). */
  #checkKubernetesCapture(blocks: readonly BlockInfo[], entries: readonly KeyEntry[]): void {
    const reported = new Set<string>();
    for (const info of blocks) {
      if (!info.plugins.has('kubernetes')) continue;
      for (const { directive } of info.directives.filter((placed) => placed.directive.name === 'kubernetes')) {
        const pluginZones = directive.arguments.filter((zone) => !hasPlaceholder(zone) && isDomainName(zone)).map(bare);
        for (const own of info.keys) {
          const group = entries.filter(
            (entry) => entry.reading.address.transport === own.reading.address.transport && entry.reading.address.port === own.reading.address.port,
          );
          for (const ownZone of own.reading.zones.map(bare)) {
            // The zones the plugin answers for in this block: its zones inside the key, or the key inside one of its zones.
            const served = pluginZones.flatMap((zone) => (isWithin(zone, ownZone) ? [zone] : isWithin(ownZone, zone) ? [ownZone] : []));
            for (const zone of served) {
              const owner = longestMatch(group, zone);
              if (owner === undefined || owner.block === info || owner.block.plugins.has('kubernetes')) continue;
              const once = `${owner.position.line}:${owner.position.column} ${zone}`;
              if (reported.has(once)) continue;
              reported.add(once);
              const shown = zone === '' ? '.' : `${zone}.`;
              this.report(
                'zone-captures-kubernetes',
                owner.position,
                where(owner.position, owner.key),
                `${quote(owner.key)} is the most specific key for ${shown}, which the kubernetes plugin of block ${quote(info.label)} (line ${info.position.line}) serves: those names are answered by this block instead`,
              );
            }
          }
        }
      }
    }
  }
}

/** The entry whose zone is the longest one containing `zone` (the block CoreDNS picks, §2.9). */
function longestMatch(entries: readonly KeyEntry[], zone: string): KeyEntry | undefined {
  let best: { entry: KeyEntry; length: number } | undefined;
  for (const entry of entries) {
    for (const candidate of entry.reading.zones.map(bare)) {
      if (!isWithin(zone, candidate)) continue;
      const length = candidate === '' ? 0 : candidate.length + 1;
      if (best === undefined || length > best.length) best = { entry, length };
    }
  }
  return best?.entry;
}
