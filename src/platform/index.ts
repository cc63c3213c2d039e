/**
 * `kube-dns-to-coredns/platform`: where platforms keep CoreDNS configuration — the
 * `coredns-custom` overlays of AKS and k3s (their bases, composition as CoreDNS's `import` does it,
 * lint of the composed Corefile, an overlay written from a translation), the CoreDNS Helm chart's
 * `servers:` values (rendered as chart 1.46.2 renders them, with the value behind each character,
 * and written from a Corefile), and the EKS add-on's configuration values. docs/platforms.md says
 * what each does. Pure: no Node APIs.
 */

// coredns-custom overlays: the platforms' bases, composition, lint, and an overlay from a translation.
export { PLATFORM_BASES, PLATFORM_NAMES } from './bases.js';
export type { PlatformBase, PlatformName } from './bases.js';
export { composeOverlay } from './compose.js';
export type { ComposeOptions, Composition, CompositionProblem, LineOrigin, OverlayImport } from './compose.js';
export { lintOverlay } from './overlay-lint.js';
export type { LintOverlayOptions, OverlayBase, OverlayLintResult } from './overlay-lint.js';
export { overlayFromTranslation } from './overlay-translate.js';
export type { OverlayTranslateOptions, OverlayTranslation } from './overlay-translate.js';

// The CoreDNS Helm chart's values.
export { helmValuesFromCorefile, helmValuesPath, readHelmValues, renderHelmValues } from './helm-values.js';
export type { HelmRender, HelmValueOrigin, HelmValues, HelmValuesStep, HelmValuesTranslation } from './helm-values.js';

// The EKS add-on's configuration values.
export { EKS_ADDON_PROPERTIES, eksProbeDiagnostics, readEksAddonConfiguration, renderEksAddonConfiguration } from './eks-addon.js';
export type { EksAddonConfiguration } from './eks-addon.js';

// Types the signatures above use.
export type { ConfigMapData } from '../configmap/config-map-data.js';
export type {
  CoreDnsImageReference,
  CoreDnsReleaseInput,
  CoreDnsReleaseMapping,
  CoreDnsReleaseNotice,
  CoreDnsReleaseNoticeCode,
  CoreDnsReleaseResult,
  ResolvedCoreDnsRelease,
  UnresolvedCoreDnsReleaseCode,
} from '../coredns/resolve-release.js';
export { UnresolvedCoreDnsReleaseError } from '../coredns/resolve-release.js';
export { COREDNS_VERSIONS } from '../coredns/versions.js';
export type { CoreDnsVersion } from '../coredns/versions.js';
export type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
export { DIAGNOSTIC_CODES } from '../diagnostics/codes.js';
export type { DiagnosticArea, DiagnosticCode, DiagnosticCodeEntry } from '../diagnostics/codes.js';
export type { SourcePosition, ValueLocation } from '../util/source-position.js';

// The base class of every error (see the main entry); an overlay's release is resolved as everywhere else.
export { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
export type { ErrorCategory, ErrorLocation, KubeDnsToCoreDnsErrorOptions } from '../errors/kube-dns-to-coredns-error.js';
