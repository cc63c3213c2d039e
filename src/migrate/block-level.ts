/**
 * Rules for a whole server block: the new default plugins (loop, ready) an upgrade adds and a
 * downgrade removes, and stub forwards split into blocks of their own before 1.9.4.
 *
 * Pure: no Node APIs.
 */
import type { ServerBlock } from '../corefile/model.js';
import { isUsable } from '../coredns/availability.js';
import { SEVERAL_FORWARDS_PER_BLOCK_FROM, SPLIT_STUB_BLOCK_PLUGINS } from '../coredns/migration-facts.js';
import type { MigrationPlan, PlannedDirective } from './plan.js';
import { LINE_SEPARATOR, REMOVED } from './plan.js';

/** loop and ready added by an upgrade that crosses the release where they became defaults. */
export function addNewDefaultPlugins(plan: MigrationPlan, block: ServerBlock, planned: PlannedDirective[]): void {
  if (plan.options.newDefaults === false) return;
  // The names the block keeps (a directive without lines of its own is kept), made only for an
  // upgrade that crosses a default's release.
  let names: Set<string> | undefined;
  for (const item of plan.crossedDefaultPlugins()) {
    const kept = (names ??= new Set(planned.filter((entry) => !entry.removed || entry.span === undefined).map((entry) => entry.name)));
    if (kept.has(item.plugin)) continue;
    if (!item.blocksWith.some((name) => kept.has(name))) continue;
    const position = block.position === undefined ? {} : { position: block.position };
    if (names.has('import')) {
      plan.notice('migrate-new-default', {
        action: 'kept',
        plugin: item.plugin,
        ...position,
        releases: plan.spanTo(item.release),
        message: `${item.plugin} (a default since ${item.release}) was not added: the block imports other text, which may hold it already`,
      });
      continue;
    }
    const last = [...planned].reverse().find((entry) => entry.lines !== null);
    if (last === undefined || last.span === undefined || last.lines === null) {
      plan.notInPlace(block.directives[block.directives.length - 1] ?? { name: item.plugin, arguments: [] });
      continue;
    }
    last.lines.push(plan.editor.indentation(last.span.first) + item.plugin);
    last.changed = true;
    names.add(item.plugin);
    plan.notice('migrate-new-default', {
      action: 'added',
      plugin: item.plugin,
      ...position,
      releases: plan.spanTo(item.release),
      message: `added ${item.plugin}: a default since ${item.release} for server blocks with ${item.blocksWith.join(' or ')} (corefile-migration and kubeadm add it on upgrade)`,
    });
  }
}

/** Before 1.9.4 a block takes one forward: the stub forwards move into blocks of their own, as corefile-migration does. */
export function splitForwards(plan: MigrationPlan, block: ServerBlock, planned: PlannedDirective[]): void {
  if (plan.features.multipleForwardPerBlock) return;
  const forwards = planned.filter((entry) => entry.lines !== null && entry.name === 'forward');
  if (forwards.length <= 1) return;
  const stubs = forwards.filter((entry) => entry.directive.arguments[0] !== '.');
  const key = block.keys.length === 1 ? block.keys[0] ?? '' : '';
  const keyMatch = /^((?:dns:\/\/)?)\.((?::\d+)?)$/.exec(key);
  const closeLine = block.closePosition?.line;
  const position = block.position === undefined ? {} : { position: block.position };
  if (keyMatch === null || forwards.length - stubs.length > 1 || closeLine === undefined || stubs.some((entry) => entry.span === undefined)) {
    plan.notice('migrate-forward-split-refused', {
      action: 'refused',
      plugin: 'forward',
      ...position,
      releases: { from: plan.to, to: plan.to },
      message: `server block ${block.keys.join(' ')} would hold ${forwards.length} forward lines, which CoreDNS ${plan.to} refuses (several per block from ${SEVERAL_FORWARDS_PER_BLOCK_FROM}); only stubs of a single-key root block (. or .:PORT) are split automatically`,
    });
    return;
  }
  const moved: string[] = [];
  for (const entry of stubs) {
    const directive = entry.directive;
    const lines = entry.lines ?? [];
    const zone = directive.arguments[0] ?? '';
    const headMatch = /^([ \t]*forward[ \t]+)\S+/.exec(lines[0] ?? '');
    if (headMatch === null || directive.arguments.length < 2) {
      plan.notInPlace(directive);
      continue;
    }
    const head = `${headMatch[1] ?? ''}.${(lines[0] ?? '').slice(headMatch[0].length)}`;
    const indent = plan.editor.indentation(entry.span?.first ?? 1);
    const body = [head, ...lines.slice(1)].filter((line) => line !== REMOVED).flatMap((line) => line.split(LINE_SEPARATOR));
    const comments = (directive.leadingComments ?? []).map((comment) => `${indent}#${comment.text}`);
    moved.push('', ...comments.map((line) => line.slice(indent.length)), `${keyMatch[1] ?? ''}${zone}${keyMatch[2] ?? ''} {`, ...body);
    for (const [name, ...args] of SPLIT_STUB_BLOCK_PLUGINS) {
      if (name === undefined || !isUsable(plan.plugin(name))) continue;
      moved.push(`${indent}${[name, ...args].join(' ')}`);
    }
    moved.push('}');
    plan.remove(entry);
    if (comments.length > 0 && directive.leadingComments?.[0]?.position !== undefined && entry.span !== undefined) {
      plan.editor.remove(directive.leadingComments[0].position.line, entry.span.first - 1);
    }
    plan.notice('migrate-forward-split', {
      action: 'moved',
      plugin: 'forward',
      ...(directive.position === undefined ? {} : { position: directive.position }),
      releases: { from: plan.to, to: plan.to },
      message: `forward for ${zone} moved into a server block of its own (${zone}): CoreDNS ${plan.to} takes one forward per server block (several from ${SEVERAL_FORWARDS_PER_BLOCK_FROM})`,
    });
  }
  if (moved.length > 0) plan.editor.insertAfter(closeLine, moved);
}
