/**
 * kubeadm's `prepCorefileFormat`: indents every line of a FromJSON text (continuation lines of
 * quoted tokens and empty separator lines included) so it sits inside the manifest's literal
 * block, prepends a line break, and turns every tab — even one inside a quoted token or a key —
 * into three spaces.
 *
 * Up to v1.14 an empty text still became a line break plus the indentation; from v1.15 it stays
 * empty (`emptyStaysEmpty`).
 */
export function prepCorefileFormat(text: string, indentation: number, emptyStaysEmpty: boolean): string {
  if (text === '' && emptyStaysEmpty) return '';
  const indent = ' '.repeat(indentation);
  return `\n${indent}${text.replaceAll('\n', `\n${indent}`)}`.replaceAll('\t', '   ');
}
