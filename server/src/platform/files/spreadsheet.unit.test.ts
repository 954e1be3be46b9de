import { describe, expect, it } from 'vitest';
import { neutralise, parseCsv, parseXlsx, unneutralise, writeCsv, writeXlsx } from './spreadsheet.ts';

describe('table files', () => {
  it('parses quoted CSV fields, CRLF and LF, a BOM, and skips empty rows', () => {
    const t = parseCsv('\ufeffa,b,c\r\n1,"two, with ""quotes""","multi\nline"\n\n,,\n4,5,6');
    expect(t.header).toEqual(['a', 'b', 'c']);
    expect(t.rows).toEqual([
      { row: 2, cells: ['1', 'two, with "quotes"', 'multi\nline'] },
      { row: 5, cells: ['4', '5', '6'] }, // records, as a spreadsheet numbers rows
    ]);
    expect(() => parseCsv('a\n"open')).toThrow();
    expect(parseCsv('')).toEqual({ header: [], rows: [] });
  });

  it('neutralises formula-looking text but not plain numbers, and undoes it on reading', () => {
    for (const s of ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutralise(s)).toBe(`'${s}`);
      expect(unneutralise(neutralise(s))).toBe(s);
    }
    for (const s of ['-1.5', '12', 'plain', "'quoted", '', '1e-3']) expect(neutralise(s)).toBe(s);
    expect(unneutralise("'hello")).toBe("'hello");
  });

  it('writes CSV that reads back the same', () => {
    const buf = writeCsv(['name', 'n', 'flag', 'none'], [['=evil, "x"', -1.5, true, null]]);
    const text = buf.toString('utf8');
    expect(text.startsWith('\ufeffname,n,flag,none\r\n"\'=evil, ""x"""')).toBe(true);
    expect(parseCsv(text).rows[0]!.cells).toEqual(['=evil, "x"', '-1.5', 'true', '']);
  });

  it('writes and reads XLSX', async () => {
    const buf = await writeXlsx(
      's',
      ['name', 'n'],
      [
        ['@x', 7],
        ['ok', null],
      ],
    );
    const t = await parseXlsx(buf);
    expect(t.header).toEqual(['name', 'n']);
    expect(t.rows).toEqual([
      { row: 2, cells: ['@x', '7'] },
      { row: 3, cells: ['ok'] },
    ]);
  });
});

describe('spreadsheet import archive checks (issue 15)', () => {
  it('refuses an xlsx that is an archive bomb or lies about its sizes, before the library inflates it', async () => {
    const { zip } = await import('../../modules/files/files.testkit.ts');
    const good = await writeXlsx('s', ['a'], [['1']]);
    expect((await parseXlsx(good)).header).toEqual(['a']);
    // 64 MB of zeros in one sheet part: ~1000:1.
    const bomb = zip({ '[Content_Types].xml': '<Types/>', 'xl/worksheets/sheet1.xml': Buffer.alloc(64 << 20) }, [
      'xl/worksheets/sheet1.xml',
    ]);
    await expect(parseXlsx(bomb)).rejects.toThrow(/bomb/);
    // Declared sizes that understate what the entry inflates to.
    const liar = Buffer.from(good);
    const cd = liar.indexOf(Buffer.from('PK\x01\x02', 'latin1'));
    liar.writeUInt32LE(1, cd + 24);
    await expect(parseXlsx(liar)).rejects.toThrow(/bomb/);
  });
});
