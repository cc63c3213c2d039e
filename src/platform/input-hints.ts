/**
 * The quick tests that tell what a FILE holds before any reader is loaded: the readers of Helm
 * values and of the EKS add-on's configurationValues bring the YAML parser, which a bare Corefile
 * never needs (the CLI loads them only when a hint matches).
 */

/** A line only values.yaml (or a HelmChartConfig) has at the top level. */
export const HELM_VALUES_HINT = /^(?:servers|kind:[ \t]*HelmChartConfig)[ \t]*:?/m;

/** A line an EKS configurationValues document may have: a JSON object's start, or a YAML `corefile:` key (in any order of keys). */
export const EKS_ADDON_HINT = /^[ \t]*\{|^[ \t]*"?corefile"?[ \t]*:/m;
