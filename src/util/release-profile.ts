/**
 * Release profiles over eras: how one program's behaviour changes from release to release, as
 * data. Each fact is a timeline of eras: an era holds from its `from` release until the next era
 * of the same timeline. A profile is the value of every timeline at one release. CoreDNS
 * (src/coredns), kube-dns (src/kubedns) and node-cache (src/nodelocal) each describe their releases
 * this way; each brings the order of its own release names.
 *
 * Pure data and functions: no Node APIs.
 */

/** One era of a timeline ordered by `from`: it holds from `from` until the next era's `from`. */
export interface Era<T, V extends string = string> {
  readonly from: V;
  readonly value: T;
}

/** The eras of one fact, oldest first. */
export type Timeline<T, V extends string = string> = readonly Era<T, V>[];

/** How a program's releases are ordered: negative when `a` is older than `b`, 0 when equal. */
export type ReleaseOrder<V extends string> = (a: V, b: V) => number;

/** The value of the era `version` falls in (undefined before the first era). */
export function valueAt<T, V extends string>(timeline: Timeline<T, V>, version: V, order: ReleaseOrder<V>): T | undefined {
  let found: T | undefined;
  for (const era of timeline) {
    if (order(version, era.from) < 0) break;
    found = era.value;
  }
  return found;
}

/** A timeline that is `before` until `release`, then `after` (`oldest`: the first release modelled). */
export function changesIn<T, V extends string>(oldest: V, before: T, release: V, after: T): Timeline<T, V> {
  return [
    { from: oldest, value: before },
    { from: release, value: after },
  ];
}

/** The first release from which `timeline` has a value that `test` accepts, or undefined. */
export function firstReleaseWhere<T, V extends string>(timeline: Timeline<T, V>, test: (value: T) => boolean): V | undefined {
  return timeline.find((era) => test(era.value))?.from;
}

/** One timeline per field of the profile `P`. */
export type ProfileTimelines<P, V extends string = string> = { readonly [K in keyof P]-?: Timeline<P[K], V> };

/**
 * The profile of every release: the value of each timeline at `version`. Every timeline must start
 * at the program's oldest modelled release, so each field has a value for every release
 * (test/util/release-profile.test.ts checks the tables that use this).
 */
export function profileAt<P, V extends string>(timelines: ProfileTimelines<P, V>, version: V, order: ReleaseOrder<V>): P {
  const profile: Partial<Record<keyof P, unknown>> = {};
  for (const key of Object.keys(timelines) as (keyof P)[]) profile[key] = valueAt(timelines[key], version, order);
  return profile as P;
}

/** Where `timelines` change: every `from` of every timeline, oldest first, without repeats. */
export function changePoints<P, V extends string>(timelines: ProfileTimelines<P, V>, order: ReleaseOrder<V>): V[] {
  const points = new Set<V>();
  for (const timeline of Object.values(timelines) as Timeline<unknown, V>[]) for (const era of timeline) points.add(era.from);
  return [...points].sort(order);
}
