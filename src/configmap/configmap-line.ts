/**
 * A line that only a YAML or JSON ConfigMap starts with, never a Corefile one: the quick test of
 * not-a-configmap.ts, in a module of its own so that a reader can ask it without
 * loading the YAML parser. A Corefile whose lines start so (a server block `data:53 {`) is told
 * apart by loading the text as YAML.
 */
export const CONFIGMAP_LINE = /^[ \t]*(?:---[ \t]*$|"?(?:apiVersion|kind|metadata|data|Corefile)"?[ \t]*:|\{[ \t]*"(?:apiVersion|kind|metadata|data|Corefile)"[ \t]*:)/m;
