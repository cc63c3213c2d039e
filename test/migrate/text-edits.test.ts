import { describe, expect, it } from 'vitest';
import { LineEditor } from '../../src/migrate/text-edits.js';

describe('LineEditor', () => {
  it('keeps the line ending of every line it does not edit (mixed CRLF and LF)', () => {
    const editor = new LineEditor('a {\r\n    b\n    c\r\n}\n');
    editor.replace(3, 3, ['    d']);
    expect(editor.apply()).toBe('a {\r\n    b\n    d\r\n}\n');
    const lf = new LineEditor('a {\n    b\r\n    c\n}\n');
    lf.remove(3, 3);
    expect(lf.apply()).toBe('a {\n    b\r\n}\n');
  });

  it('ends the text as it ended: no final break, a final carriage return, lines added after the last one', () => {
    const bare = new LineEditor('a {\n    b\n}');
    bare.replace(2, 2, ['    c']);
    expect(bare.apply()).toBe('a {\n    c\n}');
    const cr = new LineEditor('a {\n    b\n}\r');
    cr.replace(2, 2, ['    c']);
    expect(cr.apply()).toBe('a {\n    c\n}\r');
    const appended = new LineEditor('a {\n}');
    appended.insertAfter(2, ['', 'b {', '}']);
    expect(appended.apply()).toBe('a {\n}\n\nb {\n}');
  });

  it('says which original lines each line of the result comes from', () => {
    const editor = new LineEditor('a\nb\nc\nd\n');
    editor.replace(2, 3, ['x', 'y', 'z']);
    editor.insertAfter(4, ['e']);
    expect(editor.applyWithSourceLines().sourceLines).toEqual([
      { first: 1, last: 1 },
      { first: 2, last: 3 },
      { first: 2, last: 3 },
      { first: 2, last: 3 },
      { first: 4, last: 4 },
      { first: 4, last: 4 },
    ]);
  });
});
