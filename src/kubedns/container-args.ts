/**
 * The argument vector a Kubernetes container runtime starts a container with, read from the
 * container's `command`, `args` and `env` as a Pod spec writes them.
 *
 * Kubernetes expands `$(NAME)` in `command` and `args` from the container's environment: `$$` is a
 * literal `$`, a reference to a name the environment does not define stays as written, and a `$` not
 * followed by `(` or `$` is kept. Environment values are expanded the same way, each from the
 * variables listed before it. Values that come from `valueFrom` (or `envFrom`) are only known at run
 * time: a reference to one is left as written and reported.
 */

export interface EnvVar {
  readonly name: string;
  /** The literal `value`; undefined when the variable is set by `valueFrom`. */
  readonly value?: string;
}

export interface ContainerSpec {
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly env?: readonly EnvVar[];
}

/** A `$(NAME)` reference left as written, and why. */
export interface UnresolvedReference {
  readonly field: 'command' | 'args';
  readonly index: number;
  readonly name: string;
  /** `run-time`: the name is set by `valueFrom`; `undefined`: no env entry names it. */
  readonly reason: 'run-time' | 'undefined';
}

export interface ContainerArgv {
  /** `command` expanded; undefined when unset — the image's ENTRYPOINT runs. */
  readonly command: readonly string[] | undefined;
  /** `args` expanded; undefined when unset — the image's CMD applies, but only when `command` is unset too. */
  readonly args: readonly string[] | undefined;
  /**
   * The arguments the program receives after its own name (argv[1:]), when the manifest fixes them:
   * `command[1:]` then `args` when `command` is set (the image's CMD is then dropped), `args` when only
   * `args` is set (the image's ENTRYPOINT is the program). Undefined when neither is set.
   */
  readonly programArguments: readonly string[] | undefined;
  readonly unresolved: readonly UnresolvedReference[];
}

/** `text` with its `$(NAME)` references replaced through `lookup` (undefined keeps the reference). */
export function expandReferences(text: string, lookup: (name: string) => string | undefined, onUnresolved?: (name: string) => void): string {
  let out = '';
  let cursor = 0;
  while (cursor < text.length) {
    const dollar = text.indexOf('$', cursor);
    if (dollar === -1 || dollar === text.length - 1) break;
    out += text.slice(cursor, dollar);
    const next = text[dollar + 1];
    if (next === '$') {
      out += '$';
      cursor = dollar + 2;
    } else if (next === '(') {
      const close = text.indexOf(')', dollar + 2);
      if (close === -1) {
        // An unclosed reference is kept; scanning resumes after the `(`.
        out += '$(';
        cursor = dollar + 2;
      } else {
        const name = text.slice(dollar + 2, close);
        const value = lookup(name);
        if (value === undefined) onUnresolved?.(name);
        out += value ?? `$(${name})`;
        cursor = close + 1;
      }
    } else {
      out += '$' + next;
      cursor = dollar + 2;
    }
  }
  return out + text.slice(cursor);
}

/** The argv a runtime builds for `container`, references expanded from its `env`. */
export function readContainerArgv(container: ContainerSpec): ContainerArgv {
  const known = new Map<string, string>();
  const runTime = new Set<string>();
  for (const variable of container.env ?? []) {
    if (variable.value === undefined) {
      known.delete(variable.name);
      runTime.add(variable.name);
      continue;
    }
    const value = expandReferences(variable.value, (name) => known.get(name));
    runTime.delete(variable.name);
    known.set(variable.name, value);
  }
  const unresolved: UnresolvedReference[] = [];
  const expandAll = (field: 'command' | 'args', list: readonly string[] | undefined): string[] | undefined =>
    list?.map((item, index) =>
      expandReferences(
        item,
        (name) => known.get(name),
        (name) => unresolved.push({ field, index, name, reason: runTime.has(name) ? 'run-time' : 'undefined' }),
      ),
    );
  const command = expandAll('command', container.command);
  const args = expandAll('args', container.args);
  // An empty list counts as unset, as in Kubernetes.
  const commandSet = command !== undefined && command.length > 0;
  const argsSet = args !== undefined && args.length > 0;
  const programArguments = commandSet ? [...command.slice(1), ...(args ?? [])] : argsSet ? args : undefined;
  return {
    command: commandSet ? command : undefined,
    args: argsSet ? args : undefined,
    programArguments,
    unresolved,
  };
}
