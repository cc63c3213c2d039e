/**
 * `lint --platform P --coredns-custom CUSTOM`: the base Corefile composed with the overlay
 * ({@link composeOverlay}), linted as CoreDNS reads it, every finding reported where it was
 * written — `coredns-custom[KEY]:LINE:COL` inside a data key, `Corefile:LINE:COL` in the base —
 * plus the findings that only make sense for an overlay (codes `overlay-*`, docs/platforms.md).
 *
 * Pure: no Node APIs.
 */
import type { ConfigMapData } from '../configmap/config-map-data.js';
import { foldedDataKeys } from '../configmap/folded-values.js';
import { CorefileSyntaxError } from '../corefile/errors.js';
import type { Directive, ServerBlock } from '../corefile/model.js';
import { serverBlocks } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import { coreDnsFeatures } from '../coredns/features.js';
import { coreDnsReleaseOf } from '../coredns/resolve-release.js';
import type { CoreDnsReleaseInput } from '../coredns/resolve-release.js';
import { SEVERAL_FORWARDS_PER_BLOCK_FROM } from '../coredns/migration-facts.js';
import { NEWEST_COREDNS_VERSION } from '../coredns/versions.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalName, displayName } from '../dns/names.js';
import { isWithin } from '../dns/zones.js';
import { lintParsedCorefile } from '../lint/lint.js';
import type { SourcePosition } from '../util/source-position.js';
import { checkOverlayData, composeOverlay } from './compose.js';
import type { Composition } from './compose.js';
import { checkOptions } from '../errors/arguments.js';

/** The base an overlay is composed with: the platform's, or the one a cluster really runs (`--base FILE`). */
export interface OverlayBase {
  readonly corefile: string;
  /** What messages call it (`AKS`, `k3s`, `the base`). */
  readonly title: string;
  readonly corefileDirectory?: string;
  readonly customDirectory?: string;
  /** The platform's rule for keys that end in neither .server nor .override, for the message. */
  readonly otherKeys?: string;
}

export interface LintOverlayOptions {
  readonly coredns?: CoreDnsReleaseInput;
  readonly plugins?: readonly string[];
  /** The coredns-custom ConfigMap as written (YAML), to find values YAML folded into one line. */
  readonly text?: string;
}

export interface OverlayLintResult {
  readonly ok: boolean;
  readonly coredns: CoreDnsVersion;
  /** Base findings first, then each key's, in the order of the composed Corefile. */
  readonly diagnostics: readonly Diagnostic[];
  readonly composition: Composition;
}

/** How a finding names the overlay key it is in. */
function overlayKeyName(key: string): string {
  return `coredns-custom[${key}]`;
}

interface Placed {
  readonly directive: Directive;
  readonly block: ServerBlock;
  readonly key: string | undefined;
  readonly position: SourcePosition;
}

/** Lints `base` composed with the overlay's `data`. */
export function lintOverlay(base: OverlayBase, data: ConfigMapData, options: LintOverlayOptions = {}): OverlayLintResult {
  checkOptions('lintOverlay', 'base', base, { corefile: 'string', title: 'string', corefileDirectory: 'string?', customDirectory: 'string?', otherKeys: 'string?' }, true);
  checkOverlayData('lintOverlay', data);
  checkOptions('lintOverlay', 'options', options, { coredns: 'string|object?', plugins: 'array?', text: 'string?' });
  const release = coreDnsReleaseOf(options.coredns ?? NEWEST_COREDNS_VERSION);
  const features = coreDnsFeatures(release.version);
  const composeOptions = { ...(base.corefileDirectory === undefined ? {} : { corefileDirectory: base.corefileDirectory }), ...(base.customDirectory === undefined ? {} : { customDirectory: base.customDirectory }) };
  const composition = composeOverlay(base.corefile, data, composeOptions);
  const located = (position: SourcePosition): { key: string; position: SourcePosition } => {
    const origin = composition.locate(position);
    return { key: origin.key === undefined ? 'Corefile' : overlayKeyName(origin.key), position: origin.position };
  };
  const diagnostics: Diagnostic[] = [];

  for (const key of options.text === undefined ? [] : foldedDataKeys(options.text)) {
    if (!(key in data)) continue;
    diagnostics.push(
      diagnostic('overlay-key-folded', {
        key: overlayKeyName(key),
        path: ':1:1',
        position: { line: 1, column: 1 },
        message: `'${key}' is written over several lines without '|': YAML folded them into one line (${JSON.stringify(shorten(data[key] as string))}), which CoreDNS reads as one directive`,
      }),
    );
  }
  for (const key of composition.unimported) diagnostics.push(notImported(key, base, composition));
  for (const problem of composition.problems) {
    const key = problem.key === undefined ? 'Corefile' : overlayKeyName(problem.key);
    diagnostics.push(diagnostic('overlay-syntax-error', { key, path: `:${problem.position.line}:${problem.position.column}`, position: problem.position, message: `CoreDNS stops: ${problem.message}` }));
  }

  let parsed;
  try {
    parsed = parseCorefile(composition.text, { filename: 'Corefile', tokenPositions: true });
  } catch (error) {
    if (!(error instanceof CorefileSyntaxError) || error.position === undefined) throw error;
    const where = located(error.position);
    diagnostics.push(
      diagnostic('overlay-syntax-error', {
        key: where.key,
        path: `:${where.position.line}:${where.position.column}`,
        position: where.position,
        message: `the composed Corefile does not parse, so CoreDNS does not start (or keeps its old configuration on reload): ${error.reason}`,
      }),
    );
    // The other keys' traps are still worth knowing: lint again with that key's file empty (as if
    // it were fixed), once per key that breaks the parse, and add what that finds.
    const origin = composition.locate(error.position).key;
    if (origin !== undefined && data[origin] !== '') {
      const { text: _text, ...others } = options;
      const rest = lintOverlay(base, { ...data, [origin]: '' }, others);
      const seen = new Set(diagnostics.map(diagnosticKey));
      for (const finding of rest.diagnostics) if (!seen.has(diagnosticKey(finding))) diagnostics.push(finding);
    }
    return { ok: false, coredns: features.version, diagnostics, composition };
  }
  const linted = lintParsedCorefile(parsed.corefile, { coredns: release, warnings: parsed.warnings, ...(options.plugins === undefined ? {} : { plugins: options.plugins }) });

  // Every top-level directive of every block, with where it was written.
  const placed = new Map<string, Placed>();
  for (const block of serverBlocks(parsed.corefile)) {
    for (const directive of block.directives) {
      if (directive.position === undefined) continue;
      const origin = composition.locate(directive.position);
      placed.set(`${directive.position.line}:${directive.position.column}`, { directive, block, key: origin.key, position: origin.position });
    }
  }
  const baseTitle = base.title;
  for (const finding of linted.diagnostics) {
    if (finding.position === undefined) {
      diagnostics.push(finding);
      continue;
    }
    const where = located(finding.position);
    const path = (finding.path ?? '').replace(/^:\d+:\d+/, `:${where.position.line}:${where.position.column}`);
    const at = placed.get(`${finding.position.line}:${finding.position.column}`);
    const inOverlay = at?.key !== undefined;
    if (inOverlay && at.key?.endsWith('.override') === true && (finding.code === 'plugin-repeated' || finding.code === 'forward-once-per-block')) {
      const name = at.directive.name;
      const first = at.block.directives.find((other) => other.name === name && other !== at.directive && other.position !== undefined);
      const firstAt = first?.position === undefined ? undefined : composition.locate(first.position);
      const firstWhere = firstAt === undefined ? '' : firstAt.key === undefined ? ` (${baseTitle} base line ${firstAt.position.line})` : ` (${overlayKeyName(firstAt.key)} line ${firstAt.position.line})`;
      diagnostics.push(
        diagnostic('overlay-override-refused', {
          key: where.key,
          path,
          position: where.position,
          message: `${name} is already in block ${quoteZone(at.block)}${firstWhere}: CoreDNS ${features.version} allows it once per server block and stops with "this plugin can only be used once per Server Block"${name === 'forward' ? ` (a second forward is allowed from CoreDNS ${SEVERAL_FORWARDS_PER_BLOCK_FROM})` : ''}`,
        }),
      );
      continue;
    }
    if (finding.code === 'zone-served-twice' && where.key !== 'Corefile') {
      diagnostics.push(
        diagnostic('overlay-zone-redefined', {
          key: where.key,
          path,
          position: where.position,
          message: `a .server key defines a zone the ${baseTitle} base already serves: ${finding.message}`,
        }),
      );
      continue;
    }
    diagnostics.push({ ...finding, key: where.key, path, position: where.position });
  }
  diagnostics.push(...shadowedForwards(parsed.corefile.items.filter((item): item is ServerBlock => item.kind === 'server-block'), composition, linted.diagnostics, baseTitle));
  return { ok: !hasErrors(diagnostics), coredns: features.version, diagnostics, composition };
}

function diagnosticKey(entry: Diagnostic): string {
  return JSON.stringify([entry.code, entry.key, entry.path, entry.message]);
}

/** `overlay-forward-shadowed`: an overlay's forward after a forward of its block whose FROM covers it (the second forward is allowed, 1.9.4+). */
function shadowedForwards(blocks: readonly ServerBlock[], composition: Composition, findings: readonly Diagnostic[], baseTitle: string): Diagnostic[] {
  const refused = new Set(findings.filter((finding) => finding.code === 'forward-once-per-block' && finding.position !== undefined).map((finding) => `${finding.position?.line}:${finding.position?.column}`));
  const out: Diagnostic[] = [];
  for (const block of blocks) {
    const forwards = block.directives.filter((directive) => directive.name === 'forward' && directive.position !== undefined);
    forwards.forEach((later, index) => {
      const position = later.position as SourcePosition;
      const origin = composition.locate(position);
      if (origin.key === undefined || refused.has(`${position.line}:${position.column}`)) return;
      const from = canonicalName(later.arguments[0] ?? '.');
      const earlier = forwards.slice(0, index).find((candidate) => covers(candidate, from));
      if (earlier === undefined) return;
      const earlierOrigin = composition.locate(earlier.position as SourcePosition);
      const earlierWhere = earlierOrigin.key === undefined ? `the ${baseTitle} base's` : `${overlayKeyName(earlierOrigin.key)}'s`;
      out.push(
        diagnostic('overlay-forward-shadowed', {
          key: overlayKeyName(origin.key),
          path: `:${origin.position.line}:${origin.position.column} [${quoteZone(block)}] forward`,
          position: origin.position,
          message: `forward ${displayName(from)} never sees a query: ${earlierWhere} forward ${displayName(canonicalName(earlier.arguments[0] ?? '.'))} (line ${earlierOrigin.position.line}) comes first in block ${quoteZone(block)} and takes every name under ${displayName(from)} (from CoreDNS ${SEVERAL_FORWARDS_PER_BLOCK_FROM} several forwards are tried in the order written)`,
        }),
      );
    });
  }
  return out;
}

/** The forward handles every name under `zone`: its FROM contains the zone and no `except` name carves the zone out. */
function covers(forward: Directive, zone: string): boolean {
  const from = canonicalName(forward.arguments[0] ?? '.');
  if (!isWithin(zone, from)) return false;
  const excepts = (forward.block?.directives ?? []).filter((directive) => directive.name === 'except').flatMap((directive) => directive.arguments.map(canonicalName));
  return !excepts.some((except) => isWithin(zone, except));
}

function notImported(key: string, base: OverlayBase, composition: Composition): Diagnostic {
  const fragment = /\.(?:server|override)$/.test(key);
  const path = `${base.customDirectory ?? '/etc/coredns/custom'}/${key}`;
  const referenced = composition.text.includes(path) || composition.text.includes(`custom/${key}`);
  const rule = base.otherKeys === undefined ? '' : ` (${base.otherKeys})`;
  const message = fragment
    ? `'${key}' is not imported: no import of the ${base.title} base matches it${rule}`
    : referenced
      ? `'${key}' ends in neither .server nor .override, so it is not imported; a plugin reads it as the file ${path}${rule}`
      : `'${key}' ends in neither .server nor .override, so it is not imported, and no plugin reads the file ${path}${rule}`;
  return diagnostic('overlay-key-not-imported', { key: overlayKeyName(key), message, ...(referenced && !fragment ? { severity: 'info' as const } : {}) });
}

function quoteZone(block: ServerBlock): string {
  return block.keys.join(' ');
}

function shorten(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}
