/**
 * The "routing differences" panel: which query names kube-dns and the produced Corefile send to
 * different places, from the package's routing check (src/routing). The only playground module that
 * knows that API, so a change there stays in this file.
 */
import { checkRouting, describeDestination } from '../../src/routing/index.js';
import type { Route, RoutingCheck } from '../../src/routing/index.js';
import type { ConfigMapData } from '../../src/index.js';

export interface RoutingPanelInput {
  /** The kube-dns ConfigMap data (`null`: none), or `undefined` when it could not be read. */
  readonly data: ConfigMapData | null | undefined;
  /** The produced Corefile, or `undefined` when there is none. */
  readonly corefile: string | undefined;
  readonly clusterDomain: string;
}

/** The check's result, or why there is none; never throws. */
export function routingCheck(input: RoutingPanelInput): { check: RoutingCheck } | { unavailable: string } {
  if (input.data === undefined) return { unavailable: 'No routing check: the ConfigMap could not be read.' };
  if (input.corefile === undefined) return { unavailable: 'No routing check: there is no Corefile to compare.' };
  try {
    return { check: checkRouting({ kubeDns: input.data, corefile: input.corefile, clusterDomain: input.clusterDomain }) };
  } catch (error) {
    return { unavailable: `No routing check: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Replaces the content of `panel` with the check of `input`. */
export function renderRoutingPanel(panel: HTMLElement, input: RoutingPanelInput): void {
  const result = routingCheck(input);
  const doc = panel.ownerDocument;
  const summary = doc.createElement('p');
  summary.id = 'routing-summary';
  const parts: Node[] = [summary];
  if ('unavailable' in result) {
    summary.textContent = result.unavailable;
    panel.dataset['state'] = 'unavailable';
  } else {
    const { check } = result;
    panel.dataset['state'] = check.ok ? 'equivalent' : 'different';
    summary.textContent = check.ok
      ? `kube-dns and the Corefile route all ${check.names.length} checked names the same way.`
      : `kube-dns and the Corefile route ${check.differences.length} of ${check.names.length} checked names differently:`;
    if (!check.ok) parts.push(differencesTable(doc, check));
    if (check.notes.length > 0) {
      const notes = doc.createElement('ul');
      notes.className = 'routing-notes';
      notes.setAttribute('aria-label', 'Routing notes');
      for (const note of check.notes) notes.append(element(doc, 'li', note));
      parts.push(notes);
    }
  }
  panel.replaceChildren(...parts);
}

function differencesTable(doc: Document, check: RoutingCheck): HTMLTableElement {
  const table = doc.createElement('table');
  table.id = 'routing-differences';
  table.append(element(doc, 'caption', 'Names routed differently'));
  const head = doc.createElement('tr');
  for (const title of ['Name', 'kube-dns', 'CoreDNS']) {
    const cell = element(doc, 'th', title);
    cell.setAttribute('scope', 'col');
    head.append(cell);
  }
  const thead = doc.createElement('thead');
  thead.append(head);
  const tbody = doc.createElement('tbody');
  for (const difference of check.differences) {
    const row = doc.createElement('tr');
    const name = element(doc, 'th', difference.name === '' ? '.' : difference.name);
    name.setAttribute('scope', 'row');
    row.append(name, routeCell(doc, difference.kubeDns), routeCell(doc, difference.coreDns));
    tbody.append(row);
  }
  table.append(thead, tbody);
  return table;
}

function routeCell(doc: Document, route: Route): HTMLTableCellElement {
  const cell = doc.createElement('td');
  cell.append(element(doc, 'span', describeDestination(route.destination)), element(doc, 'small', route.via));
  return cell;
}

function element<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, text: string): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  node.textContent = text;
  return node;
}
