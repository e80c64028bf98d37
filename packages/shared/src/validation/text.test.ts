import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { blueInvoiceRequestSchema } from '../schemas/invoice.ts';
import { titleBodySchema } from '../schemas/titles.ts';
import {
  fieldLabel,
  hasHiddenChars,
  hiddenCharIndex,
  hiddenCharIndexByRule,
  hiddenCharMessage,
  isTextSchema,
  text,
  textLabel,
} from './text.ts';

// one representative (or several) of every refused class
const BAD: Array<[string, string[]]> = [
  ['NUL', ['\u0000']],
  ['other C0 controls', ['\u0001', '\u0007', '\u001B', '\u001F']],
  ['DEL and C1 controls', ['\u007F', '\u0085', '\u009F']],
  ['lone high surrogate', ['\uD800', '\uDBFF']],
  ['lone low surrogate', ['\uDC00', '\uDFFF']],
  ['bidi embeddings and overrides', ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E']],
  ['bidi isolates', ['\u2066', '\u2067', '\u2068', '\u2069']],
  ['bidi marks', ['\u200E', '\u200F', '\u061C']],
  ['zero-width characters', ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF']],
  ['other invisible format characters', ['\u00AD', '\u2028', '\u2029', '\u2061', '\u206A', '\uFFF9']],
];

const GOOD = [
  '杭州云栈软件科技有限公司',
  'Acme Trading Co., Ltd.',
  'Café Müller — naïve façade',
  '张三 (Zhang San) 13800000001',
  '好吃😀🍜的店',
  '𠀀𪚥 (astral CJK)',
  '👨‍👩‍👧 家庭套餐', // zero-width joiners inside an emoji sequence
  '👨‍💻 程序员',
  '❤️‍🔥',
  '',
];

describe('hasHiddenChars', () => {
  for (const [what, chars] of BAD) {
    it(`refuses ${what} anywhere in the value`, () => {
      for (const ch of chars) {
        for (const v of [ch, `购方${ch}名称`, `${ch}Acme`, `Acme${ch}`]) {
          expect(hasHiddenChars(v), JSON.stringify(v)).toBe(true);
        }
      }
    });
  }

  it('passes Chinese, Latin and emoji text (valid surrogate pairs)', () => {
    for (const v of GOOD) expect(hasHiddenChars(v), v).toBe(false);
  });

  it('keeps tab, line feed and carriage return inside multi-line fields only', () => {
    for (const v of ['第一行\n第二行', 'a\r\nb', 'a\tb']) {
      expect(hasHiddenChars(v)).toBe(true);
      expect(hasHiddenChars(v, { multiline: true })).toBe(false);
    }
    // around the value they are whitespace (an Excel cell's trailing line break), trimmed away
    expect(hasHiddenChars('  张三\r\n')).toBe(false);
    expect(hasHiddenChars('\t张三')).toBe(false);
    expect(hasHiddenChars('\n\u0000张三')).toBe(true);
    expect(hasHiddenChars('a\n\u0000', { multiline: true })).toBe(true);
    expect(hasHiddenChars('a\n\u202E', { multiline: true })).toBe(true);
  });

  it('keeps a joiner only between two emoji', () => {
    expect(hasHiddenChars('😀\u200D😀')).toBe(false);
    expect(hasHiddenChars('😀\u200Da')).toBe(true);
    expect(hasHiddenChars('a\u200D😀')).toBe(true);
  });

  it('reports the first refused position', () => {
    expect(hiddenCharIndex('ab\u200Bc\u0000')).toBe(2);
    expect(hiddenCharIndex('😀\uD800')).toBe(2);
    expect(hiddenCharIndex('fine')).toBe(-1);
    expect(hiddenCharIndex('  a\tb')).toBe(3);
    // the earliest position wins whichever rule finds it
    expect(hiddenCharIndex('a\u0000b\u200B')).toBe(1);
    expect(hiddenCharIndex('a\u200Bb\u0000')).toBe(1);
    expect(hiddenCharIndex('ab\u200Dc\u0000')).toBe(2);
    expect(hiddenCharIndex('a\u202Eb\nc')).toBe(1);
    expect(hiddenCharIndex('a\nb\u202E')).toBe(1);
  });

  it('the one-scan shortcut agrees with the rules for every UTF-16 code unit, alone and inside text', () => {
    const contexts = (ch: string) => [ch, `a${ch}b`, ` ${ch}`, `😀${ch}😀`, `张${ch}`];
    let looked = 0;
    for (let u = 0; u <= 0xffff; u++) {
      for (const v of contexts(String.fromCharCode(u))) {
        for (const multiline of [false, true]) {
          const byRule = hiddenCharIndexByRule(v, { multiline });
          if (hiddenCharIndex(v, { multiline }) !== byRule) {
            throw new Error(
              `U+${u.toString(16)} in ${JSON.stringify(v)}: ${hiddenCharIndex(v, { multiline })} ≠ ${byRule}`,
            );
          }
          if (byRule !== -1) looked++;
        }
      }
    }
    // the refused units were among them (C0/C1 controls, surrogates, format characters …)
    expect(looked).toBeGreaterThan(2048 * 5);
  });

  it('property: one bad character inserted anywhere into good text is refused', () => {
    // not the joiner: between two emoji (😀\u200D😀) it is part of the picture, tested above
    const bad = fc.constantFrom(...BAD.flatMap(([, chars]) => chars).filter((ch) => ch !== '\u200D'));
    const good = fc.string({ unit: fc.constantFrom('张', '三', 'a', 'Z', ' ', '😀', '𠀀', '-', '1') });
    fc.assert(
      fc.property(good, bad, fc.nat(), (s, ch, at) => {
        const chars = [...s];
        const i = at % (chars.length + 1);
        const v = [...chars.slice(0, i), ch, ...chars.slice(i)].join('');
        expect(hasHiddenChars(s)).toBe(false);
        expect(hasHiddenChars(v)).toBe(true);
        expect(hasHiddenChars(v, { multiline: true })).toBe(true);
      }),
    );
  });
});

describe('text()', () => {
  it('names the field from its path, with the row of an array item', () => {
    expect(fieldLabel(['buyer', 'name'])).toBe('购方名称');
    expect(fieldLabel(['account'])).toBe('账号');
    expect(fieldLabel(['goods_info', 0, 'name'])).toBe('项目名称');
    expect(fieldLabel(['something_new'])).toBe('字段“something_new”');
    // the longest labelled tail of the path: 'room_no' under 'hotel_stay'
    expect(fieldLabel(['hotel_stay', 'room_no'])).toBe('房间号');
    expect(fieldLabel(['passenger_transport', 1, 'origin'])).toBe('出发地');
    expect(fieldLabel(['goods_transport', 0, 'origin'])).toBe('起运地');
    expect(fieldLabel([])).toBe('输入内容');
    expect(fieldLabel([0])).toBe('输入内容');
  });

  it('names a field at the root of a parse 输入内容', () => {
    expect(text().safeParse('\u0000').error?.issues[0]?.message).toBe(hiddenCharMessage('输入内容'));
  });

  it('stops at the hidden character: no length message on top', () => {
    const r = z.object({ account: text().max(3) }).safeParse({ account: 'ab\u0000cd' });
    expect(r.error?.issues.map((i) => i.message)).toEqual([hiddenCharMessage('账号')]);
  });

  it('refuses with a Chinese message naming the field, chained checks still apply', () => {
    const schema = z.object({ account: text().trim().min(1).max(5), note: text('备注') });
    const r = schema.safeParse({ account: 'ab\u0000c', note: 'x\u202Ey' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['account', hiddenCharMessage('账号')],
      ['note', hiddenCharMessage('备注')],
    ]);
    expect(schema.parse({ account: ' 张三 ', note: '😀' })).toEqual({ account: '张三', note: '😀' });
    expect(schema.safeParse({ account: '123456', note: '' }).success).toBe(false);
  });

  it('is recognisable through chained methods', () => {
    expect(isTextSchema(text().trim().max(3).default('').unwrap())).toBe(true);
    expect(isTextSchema(z.string().trim())).toBe(false);
    // anything that is not a zod schema is not a text() one either
    expect(isTextSchema({})).toBe(false);
    expect(isTextSchema({ _zod: {} })).toBe(false);
    expect(isTextSchema({ _zod: { def: {} } })).toBe(false);
  });

  it('keeps the label it was given through chained methods (validation answers name the field)', () => {
    expect(textLabel(text('门店名称').trim().max(50))).toBe('门店名称');
    expect(textLabel(text({ label: '拒绝原因', multiline: true }).min(1))).toBe('拒绝原因');
    expect(textLabel(text().max(3))).toBeUndefined();
    expect(textLabel(z.string())).toBeUndefined();
    expect(textLabel(undefined)).toBeUndefined();
  });

  it('guards the buyer name of an invoice and the title name', () => {
    const title = titleBodySchema.safeParse({ title_type: 1, name: '张\u200B三' });
    expect(title.error?.issues[0]?.message).toBe('抬头名称含有不可见或控制字符，请删除后重新输入');
    const invoice = blueInvoiceRequestSchema.safeParse({
      serial_no: 'SERIAL-0001',
      device_id: 1,
      invoice_type: '82',
      buyer: { title_type: 1, name: '\u202E张三' },
      goods_info: [],
      invoice_info: {},
    });
    const buyer = invoice.error?.issues.find((i) => i.path.join('.') === 'buyer.name');
    expect(buyer?.message).toBe('购方名称含有不可见或控制字符，请删除后重新输入');
  });
});
