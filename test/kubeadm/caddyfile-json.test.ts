import { describe, expect, it } from 'vitest';
import { caddyfileFromJson, caddyToken } from '../../src/kubeadm/caddyfile-json.js';
import { prepCorefileFormat } from '../../src/kubeadm/prep-corefile-format.js';

describe('caddyToken (caddyfile.FromJSON quoting)', () => {
  it.each([
    ['1.1.1.1', '1.1.1.1'],
    ['x y', '"x y"'],
    ['q"r', '"q\\"r"'],
    ['t\tu', '"t\tu"'],
    ['n\nl', '"n\nl"'],
    ['c\rr', '"c\rr"'],
    ['back\\slash', 'back\\slash'],
    ['', ''],
    ['{', '{'],
    ['#', '#'],
    [';', ';'],
    ['é\u2028', 'é\u2028'],
  ])('%j → %j', (token, printed) => {
    expect(caddyToken(token)).toBe(printed);
  });
});

describe('caddyfileFromJson', () => {
  it('separates blocks by an empty line and indents body lines by a tab', () => {
    const text = caddyfileFromJson([
      { keys: ['a.com:53'], body: [['errors'], ['proxy', '.', '1.1.1.1', '2.2.2.2']] },
      { keys: ['b.com:53', 'c.com:53'], body: [] },
    ]);
    expect(text).toBe('a.com:53 {\n\terrors\n\tproxy . 1.1.1.1 2.2.2.2\n}\n\nb.com:53, c.com:53 {\n}');
  });

  it('never quotes keys and lets empty tokens collapse into double spaces', () => {
    expect(caddyfileFromJson([{ keys: ['a b"{}#.com:53'], body: [['proxy', '.', '', 'x'], ['t', '']] }])).toBe(
      'a b"{}#.com:53 {\n\tproxy .  x\n\tt \n}',
    );
  });

  it('renders nothing at all for no blocks', () => {
    expect(caddyfileFromJson([])).toBe('');
  });
});

describe('prepCorefileFormat', () => {
  it('indents every line, including empty separators and quoted continuations, and turns tabs into 3 spaces', () => {
    expect(prepCorefileFormat('a {\n\tx "y\nz"\n}\n\nb', 4, true)).toBe('\n    a {\n       x "y\n    z"\n    }\n    \n    b');
  });

  it('keeps an empty text empty from v1.15 and indents it before', () => {
    expect(prepCorefileFormat('', 4, true)).toBe('');
    expect(prepCorefileFormat('', 4, false)).toBe('\n    ');
  });
});

describe('IndentedCaddyWriter', () => {
  it('writes exactly prepCorefileFormat(caddyfileFromJson(blocks))', async () => {
    const fc = (await import('fast-check')).default;
    const { IndentedCaddyWriter } = await import('../../src/kubeadm/caddyfile-json.js');
    const token = fc.stringMatching(/^[a-z .:"{}#\\\t\n\r]{0,6}$/);
    const block = fc.record({ keys: fc.array(token, { minLength: 1, maxLength: 2 }), body: fc.array(fc.array(token, { minLength: 1, maxLength: 4 }), { maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(block, { maxLength: 4 }), fc.integer({ min: 0, max: 8 }), fc.boolean(), (blocks, indentation, emptyStaysEmpty) => {
        const writer = new IndentedCaddyWriter(indentation);
        for (const each of blocks) writer.block(each);
        expect(writer.text(emptyStaysEmpty)).toBe(prepCorefileFormat(caddyfileFromJson(blocks), indentation, emptyStaysEmpty));
      }),
    );
  });
});
