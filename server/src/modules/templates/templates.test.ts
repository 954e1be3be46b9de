import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type TemplateOwnerData, type TemplateOwnerRow, type TemplateRow } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { roleWith, userToken } from '../devices/testkit.ts';
import { pdf, png, upload } from '../files/files.testkit.ts';

const T = '/api/v2/data/information/template';
type Invalid = { errors: { field: string; rule: string }[] };

describe('information templates', () => {
  let t: TestApp;
  let admin: string;
  const count = async (table: 'info_templates' | 'info_template_fields' | 'info_template_values'): Promise<number> =>
    Number(
      (
        await t.db.k
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const add = async (body: Record<string, unknown>, token = admin): Promise<number> => {
    const r = await t.api<{ menuId: number }>('POST', `${T}/addMenu`, { token, body });
    if (r.status !== 0) throw new Error(`addMenu: ${r.info}`);
    return r.data.menuId;
  };
  const menus = async (): Promise<TemplateRow[]> =>
    (await t.api<TemplateRow[]>('GET', `${T}/getMenuList`, { token: admin })).data;

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  it('requires the template name, the directory name and field names, and stores nothing otherwise', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ directoryName: 'Dam' }, 'The template name cannot be empty', 'menuName'],
      [{ menuName: '   ', directoryName: 'Dam' }, 'The template name cannot be empty', 'menuName'],
      [{ menuName: 'Dam info' }, 'The directory name cannot be empty', 'directoryName'],
      [
        { menuName: 'Dam info', directoryName: 'Dam', fields: JSON.stringify([{ name: 'Height' }, { name: ' ' }]) },
        'The field name cannot be empty',
        'fields.1.name',
      ],
    ];
    for (const [body, info, field] of cases) {
      const r = await t.api<Invalid>('POST', `${T}/addMenu`, { token: admin, form: true, body });
      expect(r.status).toBe(Status.invalid);
      expect(r.info).toBe(info);
      expect(r.data.errors).toEqual([{ field, rule: 'required' }]);
    }
    const zh = await t.api('POST', `${T}/addMenu`, { token: admin, body: { directoryName: 'x' }, lang: 'zh' });
    expect(zh.info).toBe('模板名称不能为空');
    const dup = await t.api('POST', `${T}/addMenu`, {
      token: admin,
      body: { menuName: 'X', directoryName: 'x', fields: [{ name: 'A' }, { name: 'A', kind: 'image' }] },
    });
    expect(dup.info).toBe('The field A already exists in the template');
    const kind = await t.api('POST', `${T}/addMenu`, {
      token: admin,
      body: { menuName: 'X', directoryName: 'x', fields: [{ name: 'A', kind: 'video' }] },
    });
    expect(kind.status).toBe(Status.invalid);
    expect(await count('info_templates')).toBe(0);
    expect(await count('info_template_fields')).toBe(0);
  });

  it('adds, lists, edits, binds, fills, renames and deletes', async () => {
    const fields = [
      { name: 'Dam height', kind: 'text', sort: 1 },
      { name: 'Photos', kind: 'image', sort: 2 },
      { name: 'Drawings', kind: 'file', sort: 3 },
    ];
    const id = await add({
      menuName: 'Dam info',
      menuCode: 'dam-info',
      menuContext: 'Basic facts',
      directoryName: 'Dam',
      fields: JSON.stringify(fields),
    });
    expect(
      (
        await t.api('POST', `${T}/addMenu`, {
          token: admin,
          body: { menuName: 'Y', directoryName: 'y', menuCode: 'DAM-INFO' },
        })
      ).info,
    ).toBe('The template code already exists');
    const listed = (await menus()).find((m) => m.menuId === id)!;
    expect(listed).toMatchObject({
      menuName: 'Dam info',
      menuCode: 'dam-info',
      menuContext: 'Basic facts',
      ownerCount: 0,
    });
    expect(listed.fields).toEqual(fields);
    const unbound = await t.api<TemplateRow[]>('GET', `${T}/getUnbind`, { token: admin });
    expect(unbound.data.map((m) => m.menuId)).toContain(id);

    const site = await buildPlatform(t, { type: 'reservoir', name: 'Template site' });
    const owner = `platform:${site}`;
    expect((await t.api('POST', `${T}/bind`, { token: admin, body: { menuId: id, owner } })).status).toBe(0);
    expect((await t.api('POST', `${T}/bind`, { token: admin, body: { menuId: id, owner: 'road-7' } })).status).toBe(0);
    const owners = await t.api<TemplateOwnerRow[]>('GET', `${T}/getOwnerByMenuId`, {
      token: admin,
      query: { menuId: String(id) },
    });
    expect(owners.data.map((o) => [o.owner, o.platformId])).toEqual([
      [owner, site],
      ['road-7', null],
    ]);
    expect(
      (await t.api<TemplateRow[]>('GET', `${T}/getUnbind`, { token: admin })).data.map((m) => m.menuId),
    ).not.toContain(id);

    // Values: text through updateObject, pictures and files through updateArray.
    const photo = (await upload(t, admin, { kind: 'picture' }, [{ filename: 'dam.png', data: png() }])).data;
    const drawing = (await upload(t, admin, { kind: 'document' }, [{ filename: 'plan.pdf', data: pdf() }])).data;
    const setObj = await t.api('POST', `${T}/updateObject`, {
      token: admin,
      form: true,
      body: { menuId: id, owner, data: JSON.stringify({ 'Dam height': 42.5 }) },
    });
    expect(setObj.status).toBe(0);
    const setArr = await t.api('POST', `${T}/updateArray`, {
      token: admin,
      form: true,
      body: { menuId: id, owner, key: 'Photos', value: JSON.stringify([photo.fileId]) },
    });
    expect(setArr.status).toBe(0);
    await t.api('POST', `${T}/updateArray`, {
      token: admin,
      body: { menuId: id, owner, key: 'Drawings', value: [{ file_id: drawing.fileId }] },
    });
    const data = await t.api<TemplateOwnerData[]>('GET', `${T}/getDataByOwner`, { token: admin, query: { owner } });
    expect(data.data).toHaveLength(1);
    expect(data.data[0]!.data).toEqual({
      'Dam height': '42.5',
      Photos: [{ file_id: photo.fileId, name: 'dam.png', mime: 'image/png', url: photo.url }],
      Drawings: [{ file_id: drawing.fileId, name: 'plan.pdf', mime: 'application/pdf', url: drawing.url }],
    });

    // Values that do not fit their field.
    const refusals: [Record<string, unknown>, string][] = [
      [{ key: 'Photos', value: [drawing.fileId] }, 'Field Photos takes pictures only; plan.pdf is not a picture'],
      [{ key: 'Photos', value: ['f'.repeat(32)] }, `Field Photos: the file ${'f'.repeat(32)} does not exist`],
      [{ key: 'Dam height', value: ['x'] }, 'The value of field Dam height does not suit its kind (text)'],
      [{ key: 'Photos', value: [{ id: 1 }] }, 'The value of field Photos does not suit its kind (image)'],
      [{ key: 'Colour', value: [] }, 'The template has no field Colour'],
    ];
    for (const [body, info] of refusals) {
      const r = await t.api('POST', `${T}/updateArray`, { token: admin, body: { menuId: id, owner, ...body } });
      expect(r.info).toBe(info);
    }
    const notBound = await t.api('POST', `${T}/updateObject`, {
      token: admin,
      body: { menuId: id, owner: 'road-8', data: { 'Dam height': '1' } },
    });
    expect(notBound.info).toBe('No template linked: the template is not bound to road-8');
    expect(
      (await t.api('POST', `${T}/updateObject`, { token: admin, body: { menuId: id, owner, data: '[1]' } })).status,
    ).toBe(Status.invalid);

    // Rename: the values follow. Delete field: its values go.
    const renamed = await t.api('POST', `${T}/renameField`, {
      token: admin,
      body: { menuId: id, oldField: 'Dam height', newField: 'Crest height' },
    });
    expect(renamed.status).toBe(0);
    expect(
      (
        await t.api('POST', `${T}/renameField`, {
          token: admin,
          body: { menuId: id, oldField: 'Photos', newField: 'Drawings' },
        })
      ).info,
    ).toBe('The field Drawings already exists in the template');
    expect(
      (
        await t.api('POST', `${T}/renameField`, {
          token: admin,
          body: { menuId: id, oldField: 'Photos', newField: '' },
        })
      ).info,
    ).toBe('The field name cannot be empty');
    expect(
      (await t.api('POST', `${T}/deleteField`, { token: admin, body: { menuId: id, key: 'Drawings' } })).status,
    ).toBe(0);
    expect(
      (await t.api('POST', `${T}/deleteField`, { token: admin, body: { menuId: id, key: 'Drawings' } })).info,
    ).toBe('The template has no field Drawings');
    const after = await t.api<TemplateOwnerData[]>('GET', `${T}/getDataByOwner`, { token: admin, query: { owner } });
    expect(Object.keys(after.data[0]!.data).sort()).toEqual(['Crest height', 'Photos']);
    expect(after.data[0]!.data['Crest height']).toBe('42.5');
    expect(after.data[0]!.fields.map((f) => f.name)).toEqual(['Crest height', 'Photos']);

    // Edit with a field list: kept fields keep their values unless their kind changes; dropped fields go.
    const edit = await t.api('POST', `${T}/updateMenu`, {
      token: admin,
      body: {
        menuId: id,
        menuName: 'Dam facts',
        directoryName: 'Dam',
        fields: [
          { name: 'Crest height', kind: 'text', sort: 5 },
          { name: 'Remarks', kind: 'text', sort: 6 },
        ],
      },
    });
    expect(edit.status).toBe(0);
    const edited = await t.api<TemplateOwnerData[]>('GET', `${T}/getDataByOwner`, { token: admin, query: { owner } });
    expect(edited.data[0]).toMatchObject({ menuName: 'Dam facts', menuCode: null, data: { 'Crest height': '42.5' } });
    expect(edited.data[0]!.fields.map((f) => f.name)).toEqual(['Crest height', 'Remarks']);
    // Clearing a value with null.
    await t.api('POST', `${T}/updateObject`, {
      token: admin,
      body: { menuId: id, owner, data: { 'Crest height': null } },
    });
    expect(
      (await t.api<TemplateOwnerData[]>('GET', `${T}/getDataByOwner`, { token: admin, query: { owner } })).data[0]!
        .data,
    ).toEqual({});

    // Delete: refused while bound; unbinding removes that owner's values.
    await t.api('POST', `${T}/updateObject`, { token: admin, body: { menuId: id, owner, data: { Remarks: 'ok' } } });
    expect((await t.api('POST', `${T}/deleteMenu`, { token: admin, body: { menuId: id } })).info).toBe(
      'The template is bound to 2 owners: unbind it first',
    );
    expect((await t.api('POST', `${T}/unbind`, { token: admin, body: { menuId: id, owner } })).info).toBe(
      'Unbinding success',
    );
    expect(await count('info_template_values')).toBe(0);
    expect((await t.api('POST', `${T}/unbind`, { token: admin, body: { menuId: id, owner } })).status).toBe(
      Status.notFound,
    );
    await t.api('POST', `${T}/unbind`, { token: admin, body: { menuId: id, owner: 'road-7' } });
    expect((await t.api('POST', `${T}/deleteMenu`, { token: admin, body: { menuId: id } })).status).toBe(0);
    expect((await t.api('POST', `${T}/deleteMenu`, { token: admin, body: { menuId: id } })).info).toBe(
      'The template does not exist',
    );
    expect(await count('info_template_fields')).toBe(0);
  });

  it('limits site owners to the data scope, and needs information:platformInfo', async () => {
    const a = await buildPlatform(t, { type: 'river', name: 'Scope A' });
    const b = await buildPlatform(t, { type: 'river', name: 'Scope B' });
    const role = await roleWith(t, admin, 'templateEditor', ['information:platformInfo']);
    const tok = await userToken(t, admin, { account: 'tplA', roleCode: role, platformIds: [a] });
    const id = await add({ menuName: 'River info', directoryName: 'River', fields: [{ name: 'Length' }] }, tok);
    await t.api('POST', `${T}/bind`, { token: admin, body: { menuId: id, owner: `platform:${b}` } });
    expect(
      (await t.api('POST', `${T}/bind`, { token: tok, body: { menuId: id, owner: `platform:${a}` } })).status,
    ).toBe(0);

    const owners = await t.api<TemplateOwnerRow[]>('GET', `${T}/getOwnerByMenuId`, {
      token: tok,
      query: { menuId: String(id) },
    });
    expect(owners.data.map((o) => o.owner)).toEqual([`platform:${a}`]);
    for (const [method, url, body] of [
      ['GET', `${T}/getDataByOwner`, { owner: `platform:${b}` }],
      ['POST', `${T}/bind`, { menuId: id, owner: `platform:${b}` }],
      ['POST', `${T}/unbind`, { menuId: id, owner: `platform:${b}` }],
      ['POST', `${T}/updateObject`, { menuId: id, owner: `platform:${b}`, data: { Length: '1' } }],
    ] as const) {
      const missingBody = { ...body, owner: 'platform:99999' };
      const send = (b2: Record<string, unknown>) =>
        method === 'GET'
          ? t.api('GET', url, { token: tok, query: b2 as Record<string, string> })
          : t.api('POST', url, { token: tok, body: b2 });
      const foreign = await send(body);
      expect(foreign).toEqual(await send(missingBody));
      expect(foreign.info).toBe('The site does not exist');
    }
    const section = await t.api('POST', `${T}/bind`, { token: tok, body: { menuId: id, owner: 'section:99999' } });
    expect(section.info).toBe('The section does not exist');

    const plain = await userToken(t, admin, { account: 'tplPlain', roleCode: 'user', scopeAll: true });
    expect((await t.api('GET', `${T}/getMenuList`, { token: plain })).status).toBe(Status.noPermission);
    expect(
      (await t.api('POST', `${T}/addMenu`, { token: plain, body: { menuName: 'x', directoryName: 'y' } })).status,
    ).toBe(Status.noPermission);
  });

  it('pages, sorts and filters the template list on the server (getListPage)', async () => {
    type P = { list: TemplateRow[]; total: number; pageNum: number; pageSize: number };
    const page = (query: Record<string, string>, token = admin) =>
      t.api<P>('GET', `${T}/getListPage`, { token, query });
    const ids: number[] = [];
    for (const [name, dir, field] of [
      ['Pager C', 'Zeta', 'Crest'],
      ['Pager A', 'Beta', 'Toe'],
      ['Pager E', 'Alpha', 'Crest height'],
      ['Pager B', 'Delta', 'Toe'],
      ['Pager D', 'Gamma', 'Toe'],
    ]) {
      ids.push(await add({ menuName: name!, directoryName: dir!, fields: [{ name: field! }] }));
    }
    await t.api('POST', `${T}/bind`, { token: admin, body: { menuId: ids[3], owner: 'pager-owner' } });

    const byName = await page({
      keyword: 'pager',
      sortField: 'menuName',
      sortOrder: 'descend',
      pageNum: '2',
      pageSize: '2',
    });
    expect(byName.data).toMatchObject({ total: 5, pageNum: 2, pageSize: 2 });
    expect(byName.data.list.map((r) => r.menuName)).toEqual(['Pager C', 'Pager B']);
    expect(byName.data.list[1]).toMatchObject({ ownerCount: 1, fields: [{ name: 'Toe', kind: 'text' }] });
    const byDirectory = await page({
      keyword: 'pager',
      sortField: 'directoryName',
      sortOrder: 'ascend',
      pageSize: '2',
    });
    expect(byDirectory.data.list.map((r) => r.directoryName)).toEqual(['Alpha', 'Beta']);
    // The keyword finds field names too; bound: only templates in use (or not).
    expect((await page({ keyword: 'crest' })).data.list.map((r) => r.menuName).sort()).toEqual(['Pager C', 'Pager E']);
    expect((await page({ keyword: 'pager', bound: 'true' })).data.list.map((r) => r.menuName)).toEqual(['Pager B']);
    expect((await page({ keyword: 'pager', bound: 'false' })).data.total).toBe(4);
    const byOwners = await page({ keyword: 'pager', sortField: 'ownerCount', sortOrder: 'descend', pageSize: '1' });
    expect(byOwners.data.list.map((r) => r.menuName)).toEqual(['Pager B']);

    const plain = await userToken(t, admin, { account: 'tplPager', roleCode: 'user', scopeAll: true });
    expect((await page({}, plain)).status).toBe(Status.noPermission);
  });
});
