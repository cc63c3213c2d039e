/**
 * The kubernetes plugin's options across releases (endpoint, upstream, resyncperiod, transfer →
 * the transfer plugin and back) and federation (gone in 1.7.0).
 *
 * Pure: no Node APIs.
 */
import { formatToken } from '../corefile/printer.js';
import { isUsable, kubernetesUpstreamSupport } from '../coredns/availability.js';
import { FEDERATION_REMOVED_IN, KUBERNETES_OPTION_CHANGES, KUBERNETES_TRANSFER_MOVED_IN } from '../coredns/migration-facts.js';
import { firstReleaseWith } from '../coredns/features.js';
import type { MigrationPlan, PlannedDirective } from './plan.js';
import { pushAll } from '../util/lists.js';


/** The kubernetes plugin's options the target treats differently: endpoint trimmed, upstream and resyncperiod removed, transfer moved to the transfer plugin (1.8.0). */
export function migrateKubernetes(plan: MigrationPlan, entry: PlannedDirective): void {
  const block = entry.directive.block;
  if (block === undefined) {
    restoreUpstream(plan, entry);
    return;
  }
  const transfers: string[][] = [];
  block.directives.forEach((option, index) => {
    const position = option.position === undefined ? {} : { position: option.position };
    if (option.name === 'fallthrough' && option.arguments.length > 0 && !plan.features.kubernetesFallthroughZones) {
      // Before 1.0.3 fallthrough reads no zones: the line would fall through for every zone of the plugin, cluster names included.
      plan.notice('migrate-option-unavailable', {
        action: 'refused',
        plugin: 'kubernetes',
        option: 'fallthrough',
        ...position,
        message: `kubernetes fallthrough takes zones from ${firstReleaseWith((features) => features.kubernetesFallthroughZones) ?? '?'}: CoreDNS ${plan.to} would fall through for every zone of the plugin (a cluster name it does not know would go upstream) instead of ${option.arguments.join(' ')} only`,
      });
      return;
    }
    if (option.name === 'transfer' && plan.targetHas(KUBERNETES_TRANSFER_MOVED_IN)) {
      if (option.arguments[0] !== 'to' || option.arguments.length < 2) {
        plan.notice('migrate-option-unavailable', {
          action: 'refused',
          plugin: 'kubernetes',
          option: 'transfer',
          ...position,
          message: `kubernetes transfer is gone in ${KUBERNETES_TRANSFER_MOVED_IN} and this one is not 'transfer to ADDRESS…', so it cannot move to the transfer plugin`,
        });
        return;
      }
      transfers.push(option.arguments.slice(1));
      plan.removeOption(entry, index);
      plan.notice('migrate-transfer-moved', {
        action: 'moved',
        plugin: 'kubernetes',
        option: 'transfer',
        ...position,
        releases: plan.spanTo(KUBERNETES_TRANSFER_MOVED_IN),
        message: `kubernetes transfer moved to a transfer plugin for the kubernetes zones: the option is gone in ${KUBERNETES_TRANSFER_MOVED_IN}`,
      });
      return;
    }
    const change = KUBERNETES_OPTION_CHANGES.find((candidate) => candidate.option === option.name);
    if (change === undefined) return;
    const effective = plan.targetHas(change.ineffectiveFrom) || (plan.options.deprecations === true && plan.targetHas(change.deprecatedIn));
    if (!effective) {
      if (plan.targetHas(change.deprecatedIn)) {
        plan.notice('migrate-option-deprecated', {
          action: 'kept',
          plugin: 'kubernetes',
          option: option.name,
          ...position,
          releases: plan.spanTo(change.deprecatedIn),
          message: `kubernetes ${option.name} is deprecated from ${change.deprecatedIn} (from ${change.ineffectiveFrom}: ${change.ineffective}); kept for CoreDNS ${plan.to}`,
        });
      }
      return;
    }
    const why = change.removedIn !== undefined && plan.targetHas(change.removedIn) ? `CoreDNS refuses it from ${change.removedIn}` : `from ${change.ineffectiveFrom}: ${change.ineffective}`;
    if (change.action === 'remove') {
      plan.removeOption(entry, index);
      plan.notice('migrate-option-removed', {
        action: 'removed',
        plugin: 'kubernetes',
        option: option.name,
        ...position,
        releases: plan.spanTo(plan.targetHas(change.ineffectiveFrom) ? change.ineffectiveFrom : change.deprecatedIn),
        message: `kubernetes ${option.name} removed: ${why}`,
      });
      return;
    }
    if (option.arguments.length <= 1) return;
    const indent = option.position === undefined ? plan.optionIndent(entry) : plan.editor.indentation(option.position.line);
    plan.replaceOption(entry, index, [`${indent}${option.name} ${formatToken(option.arguments[0] ?? '')}`]);
    plan.notice('migrate-option-trimmed', {
      action: 'replaced',
      plugin: 'kubernetes',
      option: option.name,
      ...position,
      releases: plan.spanTo(change.ineffectiveFrom),
      message: `kubernetes ${option.name} keeps its first address only: ${why}`,
    });
  });
  restoreUpstream(plan, entry);
  plan.collapseEmptyBlock(entry);
  if (transfers.length > 0 && entry.lines !== null && entry.span !== undefined) {
    const indent = plan.editor.indentation(entry.span.first);
    // The cluster zone only, as corefile-migration does: a transfer of the reverse zones would
    // list the services under in-addr.arpa names, which no secondary wants.
    const zones = entry.directive.arguments.slice(0, 1).map(formatToken);
    const lines = [`${indent}${['transfer', ...zones].join(' ')} {`, ...transfers.map((to) => `${indent}${plan.unit}${['to', ...to.map(formatToken)].join(' ')}`), `${indent}}`];
    pushAll(entry.lines, lines);
    entry.changed = true;
  }
}

/**
 * A downgrade from a release where kubernetes `upstream` does nothing (1.5.2 on: CoreDNS always
 * resolves an ExternalName Service's target itself) to one where the option is what makes it do so
 * (plugin/kubernetes/setup.go; kubeadm's defaults of those releases carry it): without it the older
 * CoreDNS answers such a name with the CNAME alone. The option is added back — bare, or
 * `upstream /etc/resolv.conf` where a bare one is an argument error (before 1.0.6).
 */
function restoreUpstream(plan: MigrationPlan, entry: PlannedDirective): void {
  const ignoredFrom = KUBERNETES_OPTION_CHANGES.find((change) => change.option === 'upstream')?.ineffectiveFrom;
  if (ignoredFrom === undefined || !plan.sourceHas(ignoredFrom) || plan.targetHas(ignoredFrom)) return;
  if (entry.directive.block?.directives.some((option) => option.name === 'upstream') === true) return;
  const text = kubernetesUpstreamSupport(plan.to) === 'addresses-required' ? 'upstream /etc/resolv.conf' : 'upstream';
  if (!plan.addOption(entry, text)) return;
  plan.notice('migrate-upstream-added', {
    action: 'added',
    plugin: 'kubernetes',
    option: 'upstream',
    ...(entry.directive.position === undefined ? {} : { position: entry.directive.position }),
    message: `added \`${text}\` to kubernetes: before ${ignoredFrom} the plugin resolves an ExternalName Service's target outside the cluster only with it (from ${ignoredFrom} it always does), so CoreDNS ${plan.to} would answer those names with the CNAME alone`,
  });
}

/** Below 1.8.0: `transfer [ZONES] { to … }` back into the kubernetes plugin of the block. */
export function foldTransfer(plan: MigrationPlan, entry: PlannedDirective, planned: PlannedDirective[]): void {
  const directive = entry.directive;
  const position = directive.position === undefined ? {} : { position: directive.position };
  const kubernetes = planned.find((candidate) => candidate.name === 'kubernetes');
  const options = directive.block?.directives ?? [];
  const zones = kubernetes?.directive.arguments ?? [];
  const fits =
    kubernetes !== undefined &&
    options.length > 0 &&
    options.every((option) => option.name === 'to' && option.arguments.length > 0 && option.block === undefined) &&
    directive.arguments.every((zone) => zones.includes(zone));
  if (!fits) {
    plan.notice('migrate-transfer-refused', {
      action: 'refused',
      plugin: 'transfer',
      ...position,
      releases: { from: plan.to, to: plan.to },
      message: `CoreDNS ${plan.to} has no transfer plugin (it arrives in ${KUBERNETES_TRANSFER_MOVED_IN}), and this one is not only 'to' lines for zones of a kubernetes plugin in the same block`,
    });
    return;
  }
  for (const option of options) {
    if (!plan.addOption(kubernetes, ['transfer', 'to', ...option.arguments.map(formatToken)].join(' '))) return;
  }
  plan.remove(entry);
  plan.notice('migrate-transfer-folded', {
    action: 'moved',
    plugin: 'transfer',
    ...position,
    releases: { from: plan.to, to: plan.to },
    message: `transfer folded into kubernetes as 'transfer to …': CoreDNS ${plan.to} has no transfer plugin (it arrives in ${KUBERNETES_TRANSFER_MOVED_IN})`,
  });
}

/** federation where the target has none (1.7.0+): refused, or removed with --drop-federations. */
export function migrateFederation(plan: MigrationPlan, entry: PlannedDirective): void {
  const availability = plan.plugin('federation');
  if (isUsable(availability)) return;
  const position = entry.directive.position === undefined ? {} : { position: entry.directive.position };
  const removedIn = availability.removedIn ?? FEDERATION_REMOVED_IN;
  if (plan.options.dropFederations === true) {
    plan.remove(entry);
    plan.notice('migrate-federation-dropped', {
      action: 'removed',
      plugin: 'federation',
      ...position,
      releases: plan.spanTo(removedIn),
      message: `federation removed (--drop-federations): CoreDNS has no federation plugin from ${removedIn}`,
    });
    return;
  }
  plan.notice('migrate-federation-removed', {
    action: 'refused',
    plugin: 'federation',
    ...position,
    releases: plan.spanTo(removedIn),
    message: `CoreDNS ${plan.to} has no federation plugin (removed in ${removedIn}) and would refuse to start; pass --drop-federations to remove it`,
  });
}
