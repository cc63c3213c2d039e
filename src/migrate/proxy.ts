/**
 * proxy → forward: the destinations kept, proxy's options mapped to forward's (or dropped, or
 * refused), `https_google` refused where it is gone (docs/migrate.md, "What changes").
 *
 * Pure: no Node APIs.
 */
import { isUsable } from '../coredns/availability.js';
import { PROXY_DEPRECATED_IN, PROXY_HTTPS_GOOGLE_REMOVED_IN, PROXY_REMOVED_IN, PROXY_OPTION_MAPPINGS, PROXY_POLICY_TO_FORWARD } from '../coredns/migration-facts.js';
import type { MigrationPlan, PlannedDirective } from './plan.js';

/** Replaces a proxy line by forward where the target has no proxy (or with --deprecations from 1.4.0), mapping its options. */
export function migrateProxy(plan: MigrationPlan, entry: PlannedDirective): void {
  const directive = entry.directive;
  const position = directive.position === undefined ? {} : { position: directive.position };
  const proxy = plan.plugin('proxy');
  if (isUsable(proxy) && plan.targetHas(PROXY_HTTPS_GOOGLE_REMOVED_IN)) {
    for (const option of directive.block?.directives ?? []) {
      if (option.name !== 'protocol' || option.arguments[0] !== 'https_google') continue;
      plan.notice('migrate-proxy-unmappable', {
        action: 'refused',
        plugin: 'proxy',
        option: 'protocol',
        ...(option.position === undefined ? {} : { position: option.position }),
        releases: plan.spanTo(PROXY_HTTPS_GOOGLE_REMOVED_IN),
        message: `proxy protocol https_google is gone from ${PROXY_HTTPS_GOOGLE_REMOVED_IN} (CoreDNS refuses it); removing it would send the queries as plain DNS to the listed hosts instead, so it is left to you`,
      });
    }
  }
  if (isUsable(proxy)) {
    if (proxy.status === 'deprecated' && !plan.options.deprecations) {
      plan.notice('migrate-option-deprecated', {
        action: 'kept',
        plugin: 'proxy',
        ...position,
        releases: plan.spanTo(PROXY_DEPRECATED_IN),
        message: `proxy is deprecated from ${PROXY_DEPRECATED_IN} and removed in ${PROXY_REMOVED_IN}; kept for CoreDNS ${plan.to} (--deprecations replaces it with forward)`,
      });
      return;
    }
    if (proxy.status !== 'deprecated') return;
  }
  if (!isUsable(plan.plugin('forward'))) {
    plan.notice('migrate-plugin-unavailable', { action: 'refused', plugin: 'proxy', ...position, message: `CoreDNS ${plan.to} has neither proxy nor forward` });
    return;
  }
  if (entry.lines === null || entry.span === undefined || directive.position === undefined) {
    plan.notInPlace(directive);
    return;
  }
  const first = entry.lines[0] ?? '';
  const chars = [...first];
  const column = directive.position.column - 1;
  if (chars.slice(column, column + 5).join('') !== 'proxy') {
    plan.notInPlace(directive);
    return;
  }
  entry.lines[0] = [...chars.slice(0, column), 'forward', ...chars.slice(column + 5)].join('');
  entry.changed = true;
  entry.name = 'forward';
  let refused = false;
  directive.block?.directives.forEach((option, index) => {
    const optionPosition = option.position === undefined ? {} : { position: option.position };
    const indent = option.position === undefined ? plan.optionIndent(entry) : plan.editor.indentation(option.position.line);
    const mapping = Object.hasOwn(PROXY_OPTION_MAPPINGS, option.name) ? PROXY_OPTION_MAPPINGS[option.name] : undefined;
    const drop = (why: string): void => {
      plan.notice('migrate-proxy-option-dropped', { action: 'removed', plugin: 'proxy', option: option.name, ...optionPosition, message: `proxy ${option.name} dropped: ${why}` });
      plan.removeOption(entry, index);
    };
    const mapOption = (written: string, why: string): void => {
      plan.notice('migrate-proxy-option-mapped', { action: 'replaced', plugin: 'proxy', option: option.name, ...optionPosition, message: `proxy ${option.name} ${option.arguments.join(' ')} became '${written}': ${why}` });
    };
    const refuse = (why: string): void => {
      refused = true;
      plan.notice('migrate-proxy-unmappable', { action: 'refused', plugin: 'proxy', option: option.name, ...optionPosition, releases: plan.spanTo(PROXY_REMOVED_IN), message: why });
    };
    if (mapping === undefined) return refuse(`proxy option ${option.name} has no forward equivalent (forward would refuse it)`);
    if (mapping.kind === 'same') return;
    if (mapping.kind === 'drop') return drop(mapping.why);
    if (option.name === 'policy') {
      const policy = option.arguments[0] ?? '';
      const mapped = Object.hasOwn(PROXY_POLICY_TO_FORWARD, policy) ? PROXY_POLICY_TO_FORWARD[policy] : undefined;
      if (mapped === undefined) return drop(`forward has no policy '${policy}' (it has random, round_robin and sequential); its default, random, applies`);
      if (mapped !== policy) {
        plan.replaceOption(entry, index, [`${indent}policy ${mapped}`]);
        mapOption(`policy ${mapped}`, `proxy's '${policy}' policy is forward's '${mapped}'`);
      }
      return;
    }
    // protocol
    const protocol = option.arguments[0] ?? '';
    if (protocol === 'dns') {
      if (option.arguments.includes('force_tcp')) {
        plan.replaceOption(entry, index, [`${indent}force_tcp`]);
        return mapOption('force_tcp', 'forward sends DNS over TCP with its force_tcp option');
      }
      return drop('plain DNS over UDP (and TCP for truncated answers) is what forward does by default');
    }
    return refuse(
      protocol === 'grpc'
        ? 'proxy protocol grpc: forward does not speak gRPC; use the grpc plugin for this zone'
        : `proxy protocol ${protocol}: forward has no such protocol (DNS over HTTPS to Google is not supported); forward to a DNS-over-TLS upstream (tls://) instead`,
    );
  });
  if (refused) return;
  plan.collapseEmptyBlock(entry);
  plan.addDefaultOption(entry, 'forward');
  plan.notice('migrate-proxy-to-forward', {
    action: 'replaced',
    plugin: 'proxy',
    ...position,
    releases: plan.spanTo(plan.targetHas(PROXY_REMOVED_IN) ? PROXY_REMOVED_IN : PROXY_DEPRECATED_IN),
    message: `proxy replaced by forward with the same destinations: proxy is ${plan.targetHas(PROXY_REMOVED_IN) ? `gone from ${PROXY_REMOVED_IN} ("Unknown directive")` : `deprecated from ${PROXY_DEPRECATED_IN} (--deprecations)`}`,
  });
}
