/**
 * A data value that holds kube-dns settings itself — what `kubectl create configmap kube-dns
 * --from-file=kube-dns.yaml` makes of a file written as a ConfigMap or as its data: one data key
 * named after the file, whose text sets `stubDomains:` or `upstreamNameservers:`. kube-dns reads
 * only the data keys of those names, so it ignored all of it.
 */

/** A setting name at the start of a line or after `{`/`,`, quoted or not, followed by a colon (YAML or JSON). */
const SETTING = /(?:^|[{,])[ \t]*["']?(stubDomains|upstreamNameservers|federations)["']?[ \t]*:/gm;

export interface SettingsInValue {
  /** The kube-dns settings the value names, in first-appearance order. */
  readonly settings: readonly string[];
  /** Index in the value of the first setting name. */
  readonly offset: number;
}

/** The kube-dns settings `value` writes as `name:`, or undefined when it writes none. */
export function settingsInValue(value: string): SettingsInValue | undefined {
  const settings: string[] = [];
  let offset: number | undefined;
  for (const match of value.matchAll(SETTING)) {
    const setting = match[1] as string;
    offset ??= match.index + match[0].indexOf(setting);
    if (!settings.includes(setting)) settings.push(setting);
  }
  return offset === undefined ? undefined : { settings, offset };
}
