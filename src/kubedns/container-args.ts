/**
 * The argument vector a Kubernetes container runtime starts a container with, read from the
 * container's `command`, `args` and `env` as a Pod spec writes them.
 *
 * Kubernetes expands `$(NAME)` in `command` and `args` from the container's environment: `$$` is a
 * literal `$`, a reference to a name the environment does not define stays as written, and a `$` not
 * followed by `(` or `$` is kept. Environment values are expanded the same way, each from the
 * variables listed before it. Values that come from `valueFrom` (or `envFrom`) are only known at run
 * time: a reference to one is left as written and reported.
 *
 * Expansion is bounded: each reference can double a value (`B=$(A)$(A)`, `C=$(B)$(B)`, …: 2.4 KB of
 * env entries stand for gigabytes). Linux refuses to start a program with an argument or an
 * environment string longer than {@link MAX_ARG_STRLEN} (execve fails with E2BIG), so no container
 * ever ran with one: past that length a value is not expanded further, and it is reported in
 * `tooLong`.
 */

/** The longest argument or environment string (`NAME=value`) Linux passes to a program: 32 pages of 4 KiB (`MAX_ARG_STRLEN`, include/uapi/linux/binfmts.h), counted here in UTF-16 units. */
export const MAX_ARG_STRLEN = 32 * 4096;

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

/** A value that expands past {@link MAX_ARG_STRLEN}: the container could not have started. */
export interface TooLongValue {
  readonly field: 'command' | 'args' | 'env';
  readonly index: number;
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
  /** Items of `command`, `args` and `env` longer than {@link MAX_ARG_STRLEN} once expanded (their expansion stops there). */
  readonly tooLong: readonly TooLongValue[];
}

/**
 * `text` with its `$(NAME)` references replaced through `lookup` (undefined keeps the reference);
 * the expansion stops once it is longer than `maxLength` (the result is then cut there).
 */
export function expandReferences(text: string, lookup: (name: string) => string | undefined, onUnresolved?: (name: string) => void, maxLength = Number.POSITIVE_INFINITY): string {
  let out = '';
  let cursor = 0;
  while (cursor < text.length) {
    if (out.length > maxLength) return out.slice(0, maxLength + 1);
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
  out += text.slice(cursor);
  return out.length > maxLength ? out.slice(0, maxLength + 1) : out;
}

/** The argv a runtime builds for `container`, references expanded from its `env`. */
export function readContainerArgv(container: ContainerSpec): ContainerArgv {
  const known = new Map<string, string>();
  const runTime = new Set<string>();
  const tooLong: TooLongValue[] = [];
  (container.env ?? []).forEach((variable, index) => {
    if (variable.value === undefined) {
      known.delete(variable.name);
      runTime.add(variable.name);
      return;
    }
    // The environment string is NAME=value.
    const room = Math.max(0, MAX_ARG_STRLEN - variable.name.length - 1);
    const value = expandReferences(variable.value, (name) => known.get(name), undefined, room);
    if (value.length > room) tooLong.push({ field: 'env', index });
    runTime.delete(variable.name);
    known.set(variable.name, value);
  });
  const unresolved: UnresolvedReference[] = [];
  const expandAll = (field: 'command' | 'args', list: readonly string[] | undefined): string[] | undefined =>
    list?.map((item, index) => {
      const value = expandReferences(
        item,
        (name) => known.get(name),
        (name) => unresolved.push({ field, index, name, reason: runTime.has(name) ? 'run-time' : 'undefined' }),
        MAX_ARG_STRLEN,
      );
      if (value.length > MAX_ARG_STRLEN) tooLong.push({ field, index });
      return value;
    });
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
    tooLong,
  };
}
