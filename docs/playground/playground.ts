/**
 * The playground page: wires the form of index.html to {@link convert} and renders the result.
 * Plain DOM, no framework; bundled by scripts/build-playground.mjs into one classic script, so the
 * page also works when opened from `file://`.
 */
import { COREDNS_VERSIONS, KUBEADM_PROFILE_IDS } from '../../src/releases.js';
import type { KubeadmProfileId } from '../../src/releases.js';
import { convert, DEFAULT_INPUT, describeProfile } from './convert.js';
import type { Message, Mode, PlaygroundInput } from './convert.js';
import { renderRoutingPanel } from './routing-panel.js';

/** examples/kube-dns-configmap.yaml, inlined by the build (see scripts/build-playground.mjs). */
declare const __EXAMPLE_CONFIGMAP__: string;

/** How long typing must pause before the page re-renders. */
const DEBOUNCE_MS = 200;

function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`playground: #${id} is missing from index.html`);
  return node;
}

const form = {
  text: byId('configmap', HTMLTextAreaElement),
  coredns: byId('coredns', HTMLSelectElement),
  kubeadmProfile: byId('kubeadm-profile', HTMLSelectElement),
  clusterDomain: byId('cluster-domain', HTMLInputElement),
  dropFederations: byId('drop-federations', HTMLInputElement),
  force: byId('force', HTMLInputElement),
  example: byId('load-example', HTMLButtonElement),
  clear: byId('clear', HTMLButtonElement),
};
const output = {
  status: byId('status', HTMLElement),
  corefile: byId('corefile', HTMLPreElement),
  messages: byId('diagnostics', HTMLUListElement),
  routing: byId('routing', HTMLElement),
};
const modeRadios = [...document.querySelectorAll<HTMLInputElement>('input[name="mode"]')];

function fillSelect(select: HTMLSelectElement, options: readonly { value: string; label: string }[], selected: string): void {
  select.replaceChildren(
    ...options.map(({ value, label }) => {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = label;
      option.selected = value === selected;
      return option;
    }),
  );
}

function currentMode(): Mode {
  return modeRadios.find((radio) => radio.checked)?.value === 'kubeadm' ? 'kubeadm' : 'translator';
}

function readForm(): PlaygroundInput {
  return {
    text: form.text.value,
    mode: currentMode(),
    coredns: form.coredns.value,
    kubeadmProfile: form.kubeadmProfile.value as KubeadmProfileId,
    clusterDomain: form.clusterDomain.value,
    dropFederations: form.dropFederations.checked,
    force: form.force.checked,
  };
}

/** Enables the controls that apply to the chosen mode only. */
function syncControls(mode: Mode): void {
  const kubeadm = mode === 'kubeadm';
  form.coredns.disabled = kubeadm;
  form.dropFederations.disabled = kubeadm;
  form.force.disabled = kubeadm;
  form.kubeadmProfile.disabled = !kubeadm;
}

function messageItem(entry: Message): HTMLLIElement {
  const item = document.createElement('li');
  item.className = `diagnostic ${entry.severity}`;
  item.dataset['severity'] = entry.severity;
  item.dataset['code'] = entry.code;
  const head = document.createElement('p');
  const severity = document.createElement('strong');
  severity.className = 'severity';
  severity.textContent = entry.severity;
  const code = document.createElement('code');
  code.textContent = entry.code;
  head.append(severity, ' ', code);
  if (entry.where !== '') {
    const where = document.createElement('code');
    where.className = 'where';
    where.textContent = entry.where;
    head.append(' ', where);
  }
  const message = document.createElement('p');
  message.className = 'message';
  message.textContent = entry.message;
  const hint = document.createElement('p');
  hint.className = 'hint';
  hint.textContent = entry.hint;
  item.append(head, message, hint);
  return item;
}

let renders = 0;

function render(): void {
  const input = readForm();
  syncControls(input.mode);
  const result = convert(input);

  const errors = result.messages.filter((entry) => entry.severity === 'error').length;
  const warnings = result.messages.filter((entry) => entry.severity === 'warning').length;
  const counts = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  output.status.textContent =
    result.status === 'ok'
      ? `Corefile for ${result.target} (${counts}).`
      : result.status === 'input-error'
        ? 'The input is not a readable ConfigMap; see the diagnostics.'
        : `No Corefile for ${result.target}: the translation was refused (${counts}).`;
  output.status.dataset['status'] = result.status;
  output.corefile.textContent = result.corefile ?? '';
  output.corefile.hidden = result.corefile === undefined;

  if (result.messages.length === 0) {
    const none = document.createElement('li');
    none.className = 'none';
    none.textContent = 'No diagnostics.';
    output.messages.replaceChildren(none);
  } else {
    output.messages.replaceChildren(...result.messages.map(messageItem));
  }

  renderRoutingPanel(output.routing, { data: result.data, corefile: result.corefile, clusterDomain: result.clusterDomain });

  renders += 1;
  document.body.dataset['renders'] = String(renders);
}

let timer: ReturnType<typeof setTimeout> | undefined;
function renderSoon(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    render();
  }, DEBOUNCE_MS);
}
function renderNow(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  render();
}

function start(): void {
  fillSelect(
    form.coredns,
    [...COREDNS_VERSIONS].reverse().map((version) => ({ value: version, label: version })),
    DEFAULT_INPUT.coredns,
  );
  fillSelect(
    form.kubeadmProfile,
    KUBEADM_PROFILE_IDS.map((id) => ({ value: id, label: describeProfile(id) })),
    DEFAULT_INPUT.kubeadmProfile,
  );
  for (const radio of modeRadios) radio.checked = radio.value === DEFAULT_INPUT.mode;
  form.clusterDomain.value = DEFAULT_INPUT.clusterDomain;
  form.dropFederations.checked = DEFAULT_INPUT.dropFederations;
  form.force.checked = DEFAULT_INPUT.force;
  form.text.value = __EXAMPLE_CONFIGMAP__;

  form.text.addEventListener('input', renderSoon);
  form.clusterDomain.addEventListener('input', renderSoon);
  for (const control of [form.coredns, form.kubeadmProfile, form.dropFederations, form.force, ...modeRadios]) control.addEventListener('change', renderNow);
  form.example.addEventListener('click', () => {
    form.text.value = __EXAMPLE_CONFIGMAP__;
    renderNow();
  });
  form.clear.addEventListener('click', () => {
    form.text.value = '';
    renderNow();
    form.text.focus();
  });

  document.getElementById('not-built')?.remove();
  document.body.classList.add('ready');
  render();
}

start();
