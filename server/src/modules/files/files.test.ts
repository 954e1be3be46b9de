import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_DOCUMENT_BYTES,
  MAX_PICTURE_BYTES,
  Status,
  type FileDocument,
  type UploadAnswer,
} from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { roleWith, userToken } from '../devices/testkit.ts';
import { bmp, doc, docx, filesUnder, gif, jpeg, multipart, pdf, png, upload, UPLOAD } from './files.testkit.ts';

const F = '/api/v2/file';

describe('file uploads and downloads', () => {
  let t: TestApp;
  let admin: string;
  let root: string;
  const rowCount = async (): Promise<number> =>
    Number(
      (
        await t.db.k
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Rows and stored files together: a refused upload changes neither. */
  const stored = async (): Promise<{ rows: number; files: string[] }> => ({
    rows: await rowCount(),
    files: filesUnder(root),
  });

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    root = path.join(t.config.dataDir, 'files');
  });
  afterAll(() => t.close());

  it('stores good pictures, documents and attachments under generated names and serves them back', async () => {
    const cases: { kind: string; filename: string; data: Buffer; mime: string; ext: string; inline: boolean }[] = [
      { kind: 'picture', filename: 'site.jpg', data: jpeg(), mime: 'image/jpeg', ext: 'jpg', inline: true },
      { kind: 'picture', filename: 'site.JPEG', data: jpeg(), mime: 'image/jpeg', ext: 'jpg', inline: true },
      { kind: 'picture', filename: 'map.png', data: png(), mime: 'image/png', ext: 'png', inline: true },
      { kind: 'picture', filename: 'anim.gif', data: gif(), mime: 'image/gif', ext: 'gif', inline: true },
      { kind: 'picture', filename: 'scan.bmp', data: bmp(), mime: 'image/bmp', ext: 'bmp', inline: true },
      { kind: 'document', filename: 'report.pdf', data: pdf(), mime: 'application/pdf', ext: 'pdf', inline: false },
      {
        kind: 'document',
        filename: '巡检报告.docx',
        data: docx(),
        mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        ext: 'docx',
        inline: false,
      },
      { kind: 'document', filename: 'old.doc', data: doc(), mime: 'application/msword', ext: 'doc', inline: false },
      { kind: 'attachment', filename: 'photo.png', data: png(), mime: 'image/png', ext: 'png', inline: true },
      { kind: 'attachment', filename: 'memo.docx', data: docx(), mime: docxMime(), ext: 'docx', inline: false },
    ];
    for (const c of cases) {
      const r = await upload(t, admin, { kind: c.kind }, [{ filename: c.filename, data: c.data, type: 'text/html' }]);
      expect(r.status, `${c.filename}: ${r.info}`).toBe(0);
      expect(r.info).toBe('Uploaded successfully');
      const f = r.data;
      expect(f).toMatchObject({ name: c.filename, size: c.data.length, mime: c.mime, ext: c.ext, kind: c.kind });
      expect(f.fileId).toMatch(/^[0-9a-f]{32}$/);
      expect(f.files).toHaveLength(1);
      expect(f.url).toBe(c.inline ? `${F}/getOriginalImage?file_id=${f.fileId}` : `${F}/download?file_id=${f.fileId}`);
      const onDisk = path.join(root, f.fileId.slice(0, 2), `${f.fileId}.${c.ext}`);
      expect(fs.readFileSync(onDisk).equals(c.data)).toBe(true);
      const row = await t.db.k.selectFrom('files').selectAll().where('id', '=', f.fileId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ kind: c.kind, ext: c.ext, original_name: c.filename, platform_id: null });
      expect(row.sha256).toBe(crypto.createHash('sha256').update(c.data).digest('hex'));

      // The declared type (text/html) is ignored: the answer carries the detected one, with nosniff.
      const got = await t.raw('GET', `${F}/getOriginalImage?file_id=${f.fileId}`, { token: admin });
      expect(got.statusCode).toBe(200);
      expect(got.rawPayload.equals(c.data)).toBe(true);
      expect(got.headers['content-type']).toBe(c.mime);
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(got.headers['cache-control']).toMatch(/^private/);
      expect(got.headers['content-disposition']).toBe(
        `${c.inline ? 'inline' : 'attachment'}; filename="${c.filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(c.filename)}`,
      );
      const dl = await t.raw('GET', `${F}/download?file_id=${f.fileId}`, { token: admin });
      expect(dl.headers['content-disposition']).toMatch(/^attachment; /);
      expect(dl.headers['x-content-type-options']).toBe('nosniff');
      expect(dl.rawPayload.equals(c.data)).toBe(true);
    }
    expect(await rowCount()).toBe(cases.length);
    expect(filesUnder(path.join(root, '.tmp'))).toEqual([]);
  });

  it('uploads up to 3 documents at once, in any part names, with the fields after the files', async () => {
    const body = multipart([
      { name: 'files', filename: 'a.pdf', data: pdf() },
      { name: 'files', filename: 'b.docx', data: docx() },
      { name: 'other', filename: 'c.doc', data: doc() },
      { name: 'kind', value: 'document' },
    ]);
    const r = (await t.raw('POST', UPLOAD, { token: admin, payload: body.payload, headers: body.headers })).json<{
      status: number;
      data: UploadAnswer;
    }>();
    expect(r.status).toBe(0);
    expect(r.data.files.map((f) => f.name)).toEqual(['a.pdf', 'b.docx', 'c.doc']);
    expect(r.data.fileId).toBe(r.data.files[0]!.fileId);
  });

  it('refuses bad uploads with a clear, translated message and keeps nothing', async () => {
    const before = await stored();
    const big = Buffer.concat([pdf(), Buffer.alloc(MAX_DOCUMENT_BYTES)]);
    const refusals: [Record<string, string>, Parameters<typeof upload>[3], number, RegExp][] = [
      [
        { kind: 'picture' },
        [{ filename: 'photo.jpg', data: exe() }],
        Status.invalid,
        /^photo\.jpg: pictures must be jpg, png, gif or bmp/,
      ],
      [{ kind: 'picture' }, [{ filename: 'logo.svg', data: svg() }], Status.invalid, /pictures must be/],
      [{ kind: 'picture' }, [{ filename: 'logo.png', data: svg() }], Status.invalid, /pictures must be/],
      [{ kind: 'picture' }, [{ filename: 'page.png', data: html() }], Status.invalid, /pictures must be/],
      [{ kind: 'document' }, [{ filename: 'page.html', data: html() }], Status.invalid, /files must be Word or PDF/],
      [
        { kind: 'attachment' },
        [{ filename: 'anim.gif', data: gif() }],
        Status.invalid,
        /attachments must be Word, PDF, jpg or png/,
      ],
      [{ kind: 'document' }, [{ filename: 'map.png', data: png() }], Status.invalid, /files must be Word or PDF/],
      [
        { kind: 'picture' },
        [{ filename: 'cat.jpg', data: Buffer.concat([jpeg(), Buffer.from('<script>alert(1)</script>')]) }],
        Status.invalid,
        /cat\.jpg: the file contains active content/,
      ],
      [
        { kind: 'document' },
        [{ filename: 'x.pdf', data: pdf('/OpenAction << /S /JavaScript /JS (1) >>') }],
        Status.invalid,
        /active content/,
      ],
      [
        { kind: 'document' },
        [{ filename: 'm.docx', data: docx({ 'word/vbaProject.bin': 'x' }) }],
        Status.invalid,
        /active content/,
      ],
      [
        { kind: 'picture' },
        [{ filename: 'map.jpg', data: png() }],
        Status.invalid,
        /content is a png file, which does not match/,
      ],
      [
        { kind: 'document' },
        [{ filename: 'report', data: pdf() }],
        Status.invalid,
        /does not match the file extension/,
      ],
      [
        { kind: 'picture' },
        [{ filename: 'photo\u202egnp.exe', data: png() }],
        Status.invalid,
        /^photognp\.exe: .*does not match/,
      ],
      [
        { kind: 'picture' },
        [{ filename: 'cut.png', data: png().subarray(0, 40) }],
        Status.invalid,
        /damaged or not a valid png/,
      ],
      [{ kind: 'picture' }, [{ filename: 'empty.png', data: Buffer.alloc(0) }], Status.invalid, /is empty/],
      [
        { kind: 'picture' },
        [
          { filename: 'a.png', data: png() },
          { filename: 'b.png', data: png() },
        ],
        Status.invalid,
        /^Only a single picture can be uploaded$/,
      ],
      [
        { kind: 'document' },
        [1, 2, 3, 4].map((i) => ({ filename: `r${i}.pdf`, data: pdf() })),
        Status.invalid,
        /^You can select at most 3 files$/,
      ],
      [
        { kind: 'picture' },
        [{ filename: 'huge.png', data: png(MAX_PICTURE_BYTES) }],
        Status.tooLarge,
        /^File too large: pictures may be at most 10 MB and documents 20 MB$/,
      ],
      [{ kind: 'document' }, [{ filename: 'huge.pdf', data: big }], Status.tooLarge, /^File too large/],
      [{ kind: 'document' }, [], Status.invalid, /^Please choose a file to upload$/],
      [{}, [{ filename: 'a.pdf', data: pdf() }], Status.invalid, /kind is required/],
      [
        { kind: 'video' },
        [{ filename: 'a.pdf', data: pdf() }],
        Status.invalid,
        /kind is not one of the allowed values/,
      ],
    ];
    for (const [fields, files, status, info] of refusals) {
      const r = await upload<{ errors?: unknown } | null>(t, admin, fields, files);
      expect(r.status, files.map((f) => f.filename).join()).toBe(status);
      expect(r.info).toMatch(info);
    }
    // A good file beside a bad one: neither is kept.
    const mixed = await upload(t, admin, { kind: 'document' }, [
      { filename: 'good.pdf', data: pdf() },
      { filename: 'bad.pdf', data: pdf('/AA << /O << /S /Launch /F (calc.exe) >> >>') },
    ]);
    expect(mixed.info).toMatch(/^bad\.pdf: .*active content/);
    const zh = await upload(t, admin, { kind: 'picture' }, [{ filename: 'photo.jpg', data: exe() }], 'zh');
    expect(zh.info).toBe('photo.jpg：图片只能是 jpg、png、gif 或 bmp 格式');
    const ko = await upload(
      t,
      admin,
      { kind: 'document' },
      [1, 2, 3, 4].map((i) => ({ filename: `${i}.pdf`, data: pdf() })),
      'ko',
    );
    expect(ko.info).toBe('파일은 최대 3개까지 선택할 수 있습니다');
    // Not multipart at all.
    const json = await t.api('POST', UPLOAD, { token: admin, body: { kind: 'picture' } });
    expect(json.status).toBe(Status.notAcceptable);
    expect(await stored()).toEqual(before);
  });

  it('removes the stored bytes when the row cannot be inserted', async () => {
    const before = await stored();
    await t.db.script('alter table files add constraint files_refuse_all check (false) not valid');
    try {
      const r = await upload(t, admin, { kind: 'document' }, [
        { filename: 'a.pdf', data: pdf() },
        { filename: 'b.docx', data: docx() },
      ]);
      expect(r).toEqual({ status: Status.serverError, info: 'Upload failed', data: null });
    } finally {
      await t.db.script('alter table files drop constraint files_refuse_all');
    }
    expect(await stored()).toEqual(before);
  });

  it('never uses the client name on disk: path traversal names become display text', async () => {
    for (const filename of ['../../etc/passwd.png', '..\\..\\windows\\win.png', '/etc/cron.d/x.png']) {
      const body = multipart([
        { name: 'kind', value: 'picture' },
        { name: 'file', filename, data: png() },
      ]);
      const r = (await t.raw('POST', UPLOAD, { token: admin, payload: body.payload, headers: body.headers })).json<{
        status: number;
        data: UploadAnswer;
      }>();
      expect(r.status).toBe(0);
      expect(r.data.name).not.toMatch(/[/\\]/);
      expect(r.data.name).toBe(filename.split(/[/\\]/).pop());
    }
    // Everything in the data folder is the database or a stored file with a generated name.
    for (const f of filesUnder(root)) expect(f).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{32}\.(jpg|png|gif|bmp|pdf|doc|docx)$/);
    const outside = filesUnder(t.config.dataDir).filter((f) => !f.startsWith('files/') && !f.startsWith('pgdata/'));
    expect(outside.filter((f) => /passwd|win|cron/.test(f))).toEqual([]);
  });

  it('answers a missing or foreign file the same, and attaches uploads only to sites in scope', async () => {
    const a = await buildPlatform(t, { type: 'reservoir', name: 'Files A' });
    const b = await buildPlatform(t, { type: 'reservoir', name: 'Files B' });
    const tok = await userToken(t, admin, { account: 'fileA', roleCode: 'user', platformIds: [a] });
    const inA = (
      await upload(t, admin, { kind: 'picture', platformId: String(a) }, [{ filename: 'a.png', data: png() }])
    ).data;
    const inB = (
      await upload(t, admin, { kind: 'document', platformId: String(b) }, [{ filename: 'b.pdf', data: pdf() }])
    ).data;
    expect(inA.platformId).toBe(a);
    const free = (await upload(t, admin, { kind: 'attachment' }, [{ filename: 'c.png', data: png() }])).data;

    const get = (url: string, token = tok) => t.raw('GET', url, { token });
    expect((await get(`${F}/getOriginalImage?file_id=${inA.fileId}`)).statusCode).toBe(200);
    expect((await get(`${F}/getOriginalImage?file_id=${free.fileId}`)).headers['content-type']).toBe('image/png');
    for (const route of ['getOriginalImage', 'download', 'getDocument']) {
      const foreign = await get(`${F}/${route}?file_id=${inB.fileId}`);
      const missing = await get(`${F}/${route}?file_id=${'0'.repeat(32)}`);
      expect(foreign.json()).toEqual(missing.json());
      expect(foreign.json()).toEqual({ status: Status.notFound, info: 'The file does not exist', data: null });
      expect(foreign.headers['content-disposition']).toBeUndefined();
    }
    // The token may travel in the query (for <img src>); without any token the answer is "not logged in".
    const byQuery = await t.raw('GET', `${F}/getOriginalImage?file_id=${inA.fileId}&token=${tok}`);
    expect(byQuery.statusCode).toBe(200);
    expect(byQuery.rawPayload.equals(png())).toBe(true);
    expect((await t.raw('GET', `${F}/getOriginalImage?file_id=${inA.fileId}`)).json().status).toBe(Status.notLoggedIn);

    // Uploading to a foreign site answers like a missing site, and keeps nothing.
    const before = await stored();
    const foreign = await upload(t, tok, { kind: 'picture', platformId: String(b) }, [
      { filename: 'x.png', data: png() },
    ]);
    const missing = await upload(t, tok, { kind: 'picture', platformId: '99999' }, [
      { filename: 'x.png', data: png() },
    ]);
    expect(foreign).toEqual(missing);
    expect(foreign.status).toBe(Status.notFound);
    expect(await stored()).toEqual(before);
    const own = await upload(t, tok, { kind: 'picture', platformId: String(a) }, [{ filename: 'y.png', data: png() }]);
    expect(own.status).toBe(0);
  });

  it('keeps documents of fields beside file ids', async () => {
    const editor = await roleWith(t, admin, 'fileDocEditor', ['information:platformInfo']);
    const tok = await userToken(t, admin, { account: 'docEditor', roleCode: editor, scopeAll: true });
    const pic = (await upload(t, admin, { kind: 'picture' }, [{ filename: 'role.png', data: png() }])).data;

    // A new stand-alone document (no file_id): its id is answered.
    const created = await t.api<{ file_id: string }>('POST', `${F}/updateField`, {
      token: tok,
      form: true,
      body: { key: 'title', value: 'Role pictures' },
    });
    expect(created.status).toBe(0);
    const docId = created.data.file_id;
    expect(docId).toMatch(/^[0-9a-f]{32}$/);
    const arr = await t.api('POST', `${F}/updateArray`, {
      token: tok,
      form: true,
      body: { file_id: docId, key: 'image', value: JSON.stringify([{ file_id: pic.fileId }]) },
    });
    expect(arr.status).toBe(0);
    await t.api('POST', `${F}/updateArrayForDefaultDatabase`, {
      token: tok,
      body: { file_id: docId, key: 'image', value: [{ file_id: 'second' }], append: true },
    });
    const got = await t.api<FileDocument[]>('GET', `${F}/getDocument`, { token: tok, query: { file_id: docId } });
    expect(got.status).toBe(0);
    expect(got.data[0]!.detail).toEqual({
      title: 'Role pictures',
      image: [{ file_id: pic.fileId }, { file_id: 'second' }],
    });
    expect(got.data[0]!.file).toBeNull();
    // Replace, not append.
    await t.api('POST', `${F}/updateArray`, { token: tok, body: { file_id: docId, key: 'image', value: [] } });
    expect(
      (await t.api<FileDocument[]>('GET', `${F}/getDocument`, { token: tok, query: { file_id: docId } })).data[0]!
        .detail.image,
    ).toEqual([]);

    // A document of an uploaded file.
    expect(
      (
        await t.api('POST', `${F}/updateField`, {
          token: tok,
          body: { file_id: pic.fileId, key: 'note', value: 'front' },
        })
      ).status,
    ).toBe(0);
    const ofFile = await t.api<FileDocument[]>('GET', `${F}/getDocument`, {
      token: tok,
      query: { file_id: pic.fileId },
    });
    expect(ofFile.data[0]).toMatchObject({
      file_id: pic.fileId,
      detail: { note: 'front' },
      file: { name: 'role.png' },
    });

    // Bad input and unknown ids.
    const bad = await t.api('POST', `${F}/updateArray`, {
      token: tok,
      form: true,
      body: { file_id: docId, key: 'image', value: 'not json' },
    });
    expect(bad.status).toBe(Status.invalid);
    const proto = await t.api('POST', `${F}/updateField`, {
      token: tok,
      body: { file_id: docId, key: '__proto__', value: 'x' },
    });
    expect(proto.status).toBe(Status.invalid);
    const unknown = await t.api('POST', `${F}/updateField`, {
      token: tok,
      body: { file_id: 'f'.repeat(32), key: 'a', value: 'b' },
    });
    expect(unknown.status).toBe(Status.notFound);
    expect((await t.api('GET', `${F}/getDocument`, { token: tok, query: { file_id: 'nope' } })).status).toBe(
      Status.notFound,
    );
    // A NUL character is refused like any unstorable text (issue 15), and nothing is written.
    expect(
      (await t.api('POST', `${F}/updateField`, { token: tok, body: { file_id: docId, key: 'nul', value: 'a\u0000b' } }))
        .status,
    ).toBe(Status.invalid);
    expect(
      (await t.api<FileDocument[]>('GET', `${F}/getDocument`, { token: tok, query: { file_id: docId } })).data[0]!
        .detail,
    ).not.toHaveProperty('nul');

    // Writing needs information:platformInfo; reading needs a session.
    const plain = await userToken(t, admin, { account: 'docPlain', roleCode: 'user', scopeAll: true });
    expect(
      (await t.api('POST', `${F}/updateField`, { token: plain, body: { file_id: docId, key: 'a', value: 'b' } }))
        .status,
    ).toBe(Status.noPermission);
    expect((await t.api('GET', `${F}/getDocument`, { token: plain, query: { file_id: docId } })).status).toBe(0);
    expect((await t.api('GET', `${F}/getDocument`, { query: { file_id: docId } })).status).toBe(Status.notLoggedIn);
  });
});

function docxMime(): string {
  return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
}
function exe(): Buffer {
  return Buffer.concat([
    Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'),
    Buffer.alloc(120),
    Buffer.from('PE\0\0', 'latin1'),
  ]);
}
function svg(): Buffer {
  return Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
}
function html(): Buffer {
  return Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
}

describe('uploads over a real socket', () => {
  let t: TestApp;
  let admin: string;
  let base: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    // fetch keeps its sockets alive; a socket that turns idle just after close() began would wait for the timeout.
    t.app.server.closeAllConnections();
    await t.close();
  });

  const send = async (kind: string, files: { filename: string; data: Buffer }[]) => {
    const form = new FormData();
    form.append('kind', kind);
    for (const f of files) form.append('file', new Blob([new Uint8Array(f.data)]), f.filename);
    const res = await fetch(`${base}${UPLOAD}`, {
      method: 'POST',
      body: form,
      headers: { token: admin },
      signal: AbortSignal.timeout(30_000),
    });
    return (await res.json()) as { status: number; info: string; data: UploadAnswer };
  };

  it('answers refusals over a real socket, and the server keeps serving', async () => {
    const tooMany = await send(
      'document',
      [1, 2, 3, 4].map((i) => ({ filename: `${i}.pdf`, data: pdf() })),
    );
    expect(tooMany.info).toBe('You can select at most 3 files');
    const big = await send('document', [
      { filename: 'big.pdf', data: Buffer.concat([pdf(), Buffer.alloc(MAX_DOCUMENT_BYTES)]) },
      { filename: 'small.pdf', data: pdf() },
    ]);
    expect(big.status).toBe(Status.tooLarge);
    const bad = await send('picture', [{ filename: 'a.jpg', data: exe() }]);
    expect(bad.status).toBe(Status.invalid);
    const ok = await send('picture', [{ filename: 'a.png', data: png() }]);
    expect(ok.status).toBe(0);
    const img = await fetch(`${base}${ok.data.url}&token=${admin}`);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await img.arrayBuffer()).equals(png())).toBe(true);
    expect(filesUnder(path.join(t.config.dataDir, 'files')).filter((f) => !f.startsWith('.tmp'))).toHaveLength(1);
  });
});
