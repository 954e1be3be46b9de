import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertContactRow, AlertDeliveryRow, AlertGroupRow, AlertLevelRow } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { roleWith, userToken } from '../devices/testkit.ts';
import type { AlertNotifier } from './alertNotifications.outbox.ts';
import { notifyContext } from './alertNotifications.outbox.repository.ts';
import { raiseAlert, siteWithGauge, startGateway, startSmtp, until, updateAlert, type Site } from './testkit.ts';

const A = '/api/v2/data/alert';
const TOKEN_SECRET = 'gw-secret-token-31337';

let t: TestApp;
let admin: string;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let sms: Awaited<ReturnType<typeof startGateway>>;
let voice: Awaited<ReturnType<typeof startGateway>>;
let notifier: AlertNotifier;
let siteA: Site;
let siteB: Site;

async function contact(body: Record<string, unknown>): Promise<number> {
  const r = await t.api<{ id: number }>('POST', `${A}/contract/add`, { token: admin, body });
  if (r.status !== 0) throw new Error(`contact add: ${r.info}`);
  return r.data.id;
}

async function group(body: Record<string, unknown>): Promise<number> {
  const r = await t.api<{ id: number }>('POST', `${A}/group/add`, { token: admin, body });
  if (r.status !== 0) throw new Error(`group add: ${r.info}`);
  return r.data.id;
}

async function deliveries(alertId: number, token = admin) {
  return t.api<AlertDeliveryRow[]>('GET', `${A}/getDeliveries`, { token, query: { alertId: String(alertId) } });
}

beforeAll(async () => {
  smtp = await startSmtp();
  sms = await startGateway();
  voice = await startGateway();
  t = await testApp({
    smtpUrl: smtp.url,
    mailFrom: 'Geosentry <alerts@geosentry.test>',
    smsGatewayUrl: `${sms.url}/sms`,
    voiceGatewayUrl: `${voice.url}/voice`,
    gatewayToken: TOKEN_SECRET,
    notifyRetryMs: 150,
    notifyMaxAttempts: 3,
    notifyTimeZone: 'Asia/Shanghai',
  });
  admin = await t.token();
  notifier = t.built.notifier;
  siteA = await siteWithGauge(t, admin, 'North slope', 'A1');
  siteB = await siteWithGauge(t, admin, 'Dam east', 'B1');
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await sms?.close();
  await voice?.close();
});

describe('contacts, groups, templates and colour levels', () => {
  it('adds, lists (paged, sorted, filtered), edits and deletes contacts', async () => {
    const a = await contact({
      name: 'Zhang Wei',
      phone: '+86 138-0000-0001',
      email: 'zhang@example.cn',
      language: 'zh',
    });
    const b = await contact({ name: 'Alice Kim', email: 'alice@example.kr', language: 'ko' });
    const list = await t.api<{ list: AlertContactRow[]; total: number }>('GET', `${A}/contract/getListPage`, {
      token: admin,
      query: { keyword: 'example', sortField: 'name', sortOrder: 'descend', pageSize: '1' },
    });
    expect(list.status).toBe(0);
    expect(list.data.total).toBe(2);
    expect(list.data.list.map((c) => c.name)).toEqual(['Zhang Wei']);
    const ko = await t.api<{ list: AlertContactRow[] }>('GET', `${A}/contract/getListPage`, {
      token: admin,
      query: { language: 'ko' },
    });
    expect(ko.data.list.map((c) => c.id)).toEqual([b]);

    const e = await t.api('POST', `${A}/contract/edit`, {
      token: admin,
      body: { id: a, name: 'Zhang Wei', phone: '13800000002', language: 'en' },
    });
    expect(e.status).toBe(0);
    const after = await t.api<{ list: AlertContactRow[] }>('GET', `${A}/contract/getListPage`, {
      token: admin,
      query: { keyword: '13800000002' },
    });
    expect(after.data.list[0]).toMatchObject({ id: a, phone: '13800000002', email: null, language: 'en' });

    expect((await t.api('POST', `${A}/contract/delete`, { token: admin, body: { id: b } })).status).toBe(0);
    const gone = await t.api('POST', `${A}/contract/delete`, { token: admin, body: { id: b } });
    expect(gone.status).toBe(404);
    expect(gone.info).toBe('The alert contact does not exist');
    await t.api('POST', `${A}/contract/delete`, { token: admin, body: { id: a } });
  });

  it('refuses bad contacts with a clear message and changes nothing', async () => {
    const before = await t.db.k
      .selectFrom('alert_contacts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const noAddress = await t.api('POST', `${A}/contract/add`, { token: admin, body: { name: 'Nobody' }, lang: 'zh' });
    expect(noAddress.status).toBe(422);
    expect(noAddress.info).toBe('请填写联系人的手机号码或邮箱');
    const badPhone = await t.api('POST', `${A}/contract/add`, { token: admin, body: { name: 'X', phone: '12ab' } });
    expect(badPhone.status).toBe(422);
    expect(badPhone.info).toContain('phone');
    const badMail = await t.api('POST', `${A}/contract/add`, { token: admin, body: { name: 'X', email: 'not-mail' } });
    expect(badMail.status).toBe(422);
    expect(badMail.info).toContain('email');
    const badLang = await t.api('POST', `${A}/contract/add`, {
      token: admin,
      body: { name: 'X', email: 'x@example.com', language: 'fr' },
    });
    expect(badLang.status).toBe(422);
    const noPerson = await t.api('POST', `${A}/contract/add`, {
      token: admin,
      body: { name: 'X', email: 'x@example.com', personId: 999999 },
    });
    expect(noPerson.status).toBe(404);
    const after = await t.db.k
      .selectFrom('alert_contacts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(after).toEqual(before);
  });

  it('keeps groups with members and sites; names are unique; unknown members or sites are refused', async () => {
    const c1 = await contact({ name: 'G member', email: 'g@example.com' });
    const g = await group({ name: 'Slope duty', contactIds: [c1], platformIds: [siteA.platformId] });
    const list = await t.api<{ list: AlertGroupRow[] }>('GET', `${A}/group/getListPage`, {
      token: admin,
      query: { platformId: String(siteA.platformId) },
    });
    expect(list.data.list).toEqual([
      expect.objectContaining({ id: g, contactIds: [c1], platformIds: [siteA.platformId] }),
    ]);
    const dup = await t.api('POST', `${A}/group/add`, { token: admin, body: { name: 'slope DUTY' } });
    expect(dup.status).toBe(409);
    const badMember = await t.api('POST', `${A}/group/add`, {
      token: admin,
      body: { name: 'Other', contactIds: [c1, 424242] },
    });
    expect(badMember.status).toBe(404);
    expect(badMember.info).toBe('The alert contact does not exist');
    const badSite = await t.api('POST', `${A}/group/add`, {
      token: admin,
      body: { name: 'Other', platformIds: [777777] },
    });
    expect(badSite.status).toBe(404);
    expect((await t.api('POST', `${A}/group/delete`, { token: admin, body: { id: g } })).status).toBe(0);
    await t.api('POST', `${A}/contract/delete`, { token: admin, body: { id: c1 } });
  });

  it('checks template placeholders and content; one default template', async () => {
    const bad = await t.api('POST', `${A}/template/add`, {
      token: admin,
      body: { name: 'Bad', content: { en: 'Level {lvl} at {site}' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.info).toContain('{lvl}');
    const empty = await t.api('POST', `${A}/template/add`, {
      token: admin,
      body: { name: 'Empty', content: { en: ' ' } },
    });
    expect(empty.status).toBe(422);
    expect(empty.info).toBe('Enter the template content in at least one language');
    const badCode = await t.api('POST', `${A}/template/add`, {
      token: admin,
      body: { name: 'Code', smsTemplateCode: 'SMS 1; drop', content: { en: 'x' } },
    });
    expect(badCode.status).toBe(422);
    const one = await t.api<{ id: number }>('POST', `${A}/template/add`, {
      token: admin,
      // Form-encoded clients send the per-language texts as JSON text.
      body: { name: 'T1', smsTemplateCode: 'SMS_001', content: JSON.stringify({ en: 'A {site}' }), isDefault: 'true' },
      form: true,
    });
    expect(one.status).toBe(0);
    const two = await t.api<{ id: number }>('POST', `${A}/template/add`, {
      token: admin,
      body: { name: 'T2', content: { zh: '乙 {site}' }, isDefault: true },
    });
    const rows = await t.db.k.selectFrom('alert_templates').select(['id', 'is_default']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: one.data.id, is_default: false },
      { id: two.data.id, is_default: true },
    ]);
    await t.api('POST', `${A}/template/delete`, { token: admin, body: { id: one.data.id } });
    await t.api('POST', `${A}/template/delete`, { token: admin, body: { id: two.data.id } });
  });

  it('lists the four colour levels and sets members, suggestion and template', async () => {
    const c = await contact({ name: 'Level member', email: 'lv@example.com' });
    const set = await t.api('POST', `${A}/configure/edit`, {
      token: admin,
      body: { level: 4, contactIds: [c], suggestion: { en: 'Evacuate now', zh: '立即撤离' } },
    });
    expect(set.status).toBe(0);
    const list = await t.api<AlertLevelRow[]>('GET', `${A}/configure/getList`, { token: admin });
    expect(list.data.map((l) => [l.level, l.colour, l.hex])).toEqual([
      [1, 'blue', '#0099ff'],
      [2, 'yellow', '#ffcc33'],
      [3, 'orange', '#ff6600'],
      [4, 'red', '#cc0033'],
    ]);
    expect(list.data[3]).toMatchObject({ contactIds: [c], suggestion: { en: 'Evacuate now', zh: '立即撤离' } });
    const bad = await t.api('POST', `${A}/configure/edit`, { token: admin, body: { level: 5 } });
    expect(bad.status).toBe(422);
    const badTpl = await t.api('POST', `${A}/configure/edit`, { token: admin, body: { level: 1, templateId: 9999 } });
    expect(badTpl.status).toBe(404);
    await t.api('POST', `${A}/configure/edit`, { token: admin, body: { level: 4, contactIds: [] } });
    await t.api('POST', `${A}/contract/delete`, { token: admin, body: { id: c } });
  });

  it('guards the routes by permission', async () => {
    const role = await roleWith(t, admin, 'alert_template_only', ['alert-predict:alert-template']);
    const tok = await userToken(t, admin, { account: 'tpl-editor', roleCode: role, scopeAll: true });
    expect((await t.api('GET', `${A}/template/getListPage`, { token: tok })).status).toBe(0);
    expect((await t.api('GET', `${A}/contract/getListPage`, { token: tok })).status).toBe(1003);
    expect((await t.api('POST', `${A}/configure/edit`, { token: tok, body: { level: 1 } })).status).toBe(1003);
  });
  it('reads whom the events of a store tell in one go: level members, groups of the site or of every site', async () => {
    const member = await contact({ name: 'Red member', email: 'red@example.com' });
    const ofA = await contact({ name: 'A duty', email: 'a@example.com' });
    const ofAll = await contact({ name: 'All duty', email: 'all@example.com' });
    const ofB = await contact({ name: 'B duty', email: 'b@example.com' });
    await t.api('POST', `${A}/configure/edit`, { token: admin, body: { level: 4, contactIds: [member] } });
    const gA = await group({ name: 'Ctx A', contactIds: [ofA, ofB], platformIds: [siteA.platformId] });
    const gAll = await group({ name: 'Ctx all', contactIds: [ofAll] });
    const gB = await group({ name: 'Ctx B', contactIds: [ofB], platformIds: [siteB.platformId] });
    const want = (site: Site, level: number, groupId: number | null) => ({
      platformId: site.platformId,
      level,
      groupId,
      deviceId: site.deviceId,
    });
    const wants = [
      want(siteA, 4, gA),
      want(siteA, 2, gA),
      want(siteA, 2, gB),
      want(siteB, 2, gB),
      want(siteB, 4, gAll),
      want(siteB, 1, null),
    ];
    const ctx = await notifyContext(t.db.k, wants);
    const names = (w: (typeof wants)[number]) => ctx.recipientsOf(w).map((r) => r.name);
    expect(wants.map(names)).toEqual([
      ['Red member', 'A duty', 'B duty'],
      ['A duty', 'B duty'],
      [],
      ['B duty'],
      ['Red member', 'All duty'],
      [],
    ]);
    expect(ctx.namesOf(wants[3]!)).toMatchObject({ siteName: 'Dam east', deviceName: 'Device B1' });
    expect([...ctx.levels.keys()]).toEqual([1, 2, 3, 4]);
    await t.api('POST', `${A}/configure/edit`, { token: admin, body: { level: 4, contactIds: [] } });
    for (const id of [gA, gAll, gB]) await t.api('POST', `${A}/group/delete`, { token: admin, body: { id } });
  });
});

describe('delivery', () => {
  it('mails each recipient in its own language over a real SMTP conversation', async () => {
    const zh = await contact({ name: '王工', email: 'wang@example.cn', language: 'zh' });
    const en = await contact({ name: 'Sam', email: 'sam@example.com', language: 'en', phone: '+44 7700 900123' });
    const g = await group({ name: 'Mail group', contactIds: [zh, en], platformIds: [siteA.platformId] });
    const tpl = await t.api<{ id: number }>('POST', `${A}/template/add`, {
      token: admin,
      body: {
        name: 'Rain',
        smsTemplateCode: 'SMS_RAIN',
        subject: { en: '{level}: {site}', zh: '{level}：{site}' },
        content: {
          en: '{device} {quantity} reached {value} (limit {threshold}) at {time}. {suggestion}',
          zh: '{device}{quantity}达到{value}（阈值{threshold}），时间{time}。{suggestion}',
        },
      },
    });
    await t.api('POST', `${A}/configure/edit`, {
      token: admin,
      body: { level: 3, templateId: tpl.data.id, suggestion: { en: 'Close the road', zh: '封闭道路' } },
    });
    const ev = await raiseAlert(t.built, t.db, siteA, {
      level: 3,
      groupId: g,
      channels: ['mail'],
      value: 42.5,
      threshold: 30,
      at: '2026-07-01T02:03:04.000Z',
    });
    await until(() => smtp.mails.length >= 2, 10_000, 'two mails');
    const byTo = Object.fromEntries(smtp.mails.map((m) => [m.to[0], m]));
    expect(byTo['wang@example.cn']!.subject).toBe('橙色预警（3级）：North slope');
    expect(byTo['wang@example.cn']!.body).toBe(
      'Device A1雨量 (mm)达到42.5 mm（阈值30 mm），时间2026-07-01 10:03:04 Asia/Shanghai。封闭道路',
    );
    expect(byTo['sam@example.com']!.subject).toBe('Orange alert (level 3): North slope');
    expect(byTo['sam@example.com']!.body).toBe(
      'Device A1 Rainfall (mm) reached 42.5 mm (limit 30 mm) at 2026-07-01 10:03:04 Asia/Shanghai. Close the road',
    );
    expect(byTo['sam@example.com']!.from).toBe('alerts@geosentry.test');
    await until(async () => (await deliveries(ev.alertId)).data.every((d) => d.state === 'sent'), 5000, 'sent');
    const d = await deliveries(ev.alertId);
    expect(d.status).toBe(0);
    expect(d.data.map((x) => [x.channel, x.recipient, x.language, x.state, x.attempts]).sort()).toEqual([
      ['mail', 'sam@example.com', 'en', 'sent', 1],
      ['mail', 'wang@example.cn', 'zh', 'sent', 1],
    ]);
    // The same event again (a redelivery) writes nothing new.
    expect(await notifier.enqueueForEvent(ev)).toBe(0);
    await t.api('POST', `${A}/configure/edit`, { token: admin, body: { level: 3 } });
  });

  it('sends SMS and voice through the HTTP gateways with the token, retrying 500s with backoff', async () => {
    const c = await contact({ name: 'Duty phone', phone: '13900000009', language: 'ko' });
    const g = await group({ name: 'Phone group', contactIds: [c] });
    sms.script.push(500, 500);
    const ev = await raiseAlert(t.built, t.db, siteB, { level: 2, groupId: g, channels: ['sms', 'voice'] });
    await until(() => sms.requests.some((r) => r.answered === 200) && voice.requests.length >= 1, 10_000, 'sms+voice');
    const smsReq = sms.requests.filter((r) => r.body.to === '13900000009');
    expect(smsReq.map((r) => r.answered)).toEqual([500, 500, 200]);
    // Backoff: 150 ms, then 300 ms (at least; the poll may add a little).
    expect(smsReq[1]!.at - smsReq[0]!.at).toBeGreaterThanOrEqual(140);
    expect(smsReq[2]!.at - smsReq[1]!.at).toBeGreaterThanOrEqual(290);
    expect(smsReq[0]).toMatchObject({
      path: '/sms',
      authorization: `Bearer ${TOKEN_SECRET}`,
      body: { to: '13900000009', language: 'ko', channel: 'sms', templateCode: null },
    });
    expect(smsReq[0]!.body.text).toContain('황색 경보 (2단계)');
    expect(smsReq[0]!.body.text).toContain('Dam east');
    expect(voice.requests[0]).toMatchObject({ path: '/voice', body: { channel: 'voice', to: '13900000009' } });
    await until(async () => (await deliveries(ev.alertId)).data.every((d) => d.state === 'sent'), 5000, 'sent');
    const d = await deliveries(ev.alertId);
    const smsRow = d.data.find((x) => x.channel === 'sms')!;
    expect(smsRow).toMatchObject({ state: 'sent', attempts: 3, lastError: null });
  });

  it('marks a message failed after the last attempt, never records the token, and sends it again on request', async () => {
    const c = await contact({ name: 'Unlucky', phone: '13900000010' });
    const g = await group({ name: 'Failing group', contactIds: [c] });
    sms.fallback.status = 503;
    const ev = await raiseAlert(t.built, t.db, siteB, { level: 1, groupId: g, channels: ['networkSms'] });
    await until(async () => (await deliveries(ev.alertId)).data[0]?.state === 'failed', 10_000, 'failed');
    const row = (await deliveries(ev.alertId)).data[0]!;
    expect(row).toMatchObject({ state: 'failed', attempts: 3, lastError: 'SMS gateway answered HTTP 503' });
    expect(JSON.stringify(row)).not.toContain(TOKEN_SECRET);
    expect(sms.requests.filter((r) => r.body.to === '13900000010')).toHaveLength(3);

    sms.fallback.status = 200;
    const notFailed = await t.api('POST', `${A}/delivery/retry`, { token: admin, body: { id: 999999 } });
    expect(notFailed.status).toBe(404);
    const retry = await t.api('POST', `${A}/delivery/retry`, { token: admin, body: { id: row.id } });
    expect(retry.status).toBe(0);
    await until(async () => (await deliveries(ev.alertId)).data[0]?.state === 'sent', 10_000, 'sent');
    const again = await t.api('POST', `${A}/delivery/retry`, { token: admin, body: { id: row.id } });
    expect(again.status).toBe(409);
  });

  it('notifies an escalation at once and repeats a persisting alert only after its push interval', async () => {
    const c = await contact({ name: 'Interval', email: 'interval@example.com' });
    const g = await group({ name: 'Interval group', contactIds: [c] });
    const mailsTo = () => smtp.mails.filter((m) => m.to[0] === 'interval@example.com');
    const ev = await raiseAlert(t.built, t.db, siteA, {
      level: 1,
      groupId: g,
      channels: ['mail'],
      pushIntervalMinutes: 10,
    });
    await until(() => mailsTo().length === 1, 10_000, 'first mail');
    const t0 = Date.now();

    // More hits at the same level: nothing before 10 minutes, one reminder after, then nothing again at once.
    await updateAlert(t.built, t.db, ev, { hits: 3 });
    expect(await notifier.sweepReminders(new Date(t0 + 5 * 60_000))).toBe(0);
    expect(await notifier.sweepReminders(new Date(t0 + 11 * 60_000))).toBe(1);
    expect(await notifier.sweepReminders(new Date(t0 + 12 * 60_000))).toBe(0);
    await until(() => mailsTo().length === 2, 10_000, 'reminder');
    // No new hits: no reminder even after the interval.
    expect(await notifier.sweepReminders(new Date(t0 + 30 * 60_000))).toBe(0);

    // Escalation: at once, whatever the interval.
    const up = await updateAlert(t.built, t.db, ev, { level: 4, value: 99 });
    expect(up?.kind).toBe('escalated');
    await until(() => mailsTo().length === 3, 10_000, 'escalation mail');
    expect(mailsTo()[2]!.subject).toContain('Red alert (level 4)');

    // A handled alert gets no reminders.
    await updateAlert(t.built, t.db, up!, { hits: 2 });
    await t.db.k.updateTable('alerts').set({ status: 'preProcess' }).where('id', '=', ev.alertId).execute();
    expect(await notifier.sweepReminders(new Date(t0 + 60 * 60_000))).toBe(0);
    const seqs = (await deliveries(ev.alertId)).data.map((d) => d.eventSeq);
    expect(seqs).toEqual([1, 4, 101]);
  });

  it('a reading over a rule value raises an alert through the alerts service, and it is mailed; escalation too', async () => {
    const siteC = await siteWithGauge(t, admin, 'Valley C', 'C1');
    const c = await contact({ name: 'Engineer C', email: 'c@example.com', language: 'en' });
    const g = await group({ name: 'Valley group', contactIds: [c], platformIds: [siteC.platformId] });
    for (const [level, value] of [
      [3, 30],
      [4, 60],
    ] as const) {
      const r = await t.api('POST', `${A}/manage/value/add`, {
        token: admin,
        body: {
          deviceId: siteC.deviceId,
          quantity: 'rainfall',
          level,
          valueType: 'threshold',
          value,
          groupId: g,
          channels: ['mail'],
          pushIntervalMinutes: 30,
        },
      });
      expect(r.status, r.info).toBe(0);
    }
    const mailsTo = () => smtp.mails.filter((m) => m.to[0] === 'c@example.com');
    const now = Date.now();
    await t.built.ingest.writer.submit([{ deviceId: siteC.deviceId, ts: now - 60_000, values: { rainfall: 45 } }]);
    await until(() => mailsTo().length === 1, 10_000, 'alert mail');
    expect(mailsTo()[0]!.subject).toBe('[Orange alert (level 3)] Valley C / Device C1');
    expect(mailsTo()[0]!.body).toContain('Rainfall (mm) = 45 mm (threshold 30 mm)');
    await t.built.ingest.writer.submit([{ deviceId: siteC.deviceId, ts: now - 30_000, values: { rainfall: 70 } }]);
    await until(() => mailsTo().length === 2, 10_000, 'escalation mail');
    expect(mailsTo()[1]!.subject).toContain('Red alert (level 4)');
    // A redelivered reading raises nothing new, so nothing more is sent.
    await t.built.ingest.writer.submit([{ deviceId: siteC.deviceId, ts: now - 30_000, values: { rainfall: 70 } }]);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo()).toHaveLength(2);
    const alertId = (
      await t.db.k.selectFrom('alerts').select('id').where('device_id', '=', siteC.deviceId).executeTakeFirstOrThrow()
    ).id;
    const d = await deliveries(alertId);
    expect(d.data.map((x) => [x.eventSeq, x.state])).toEqual([
      [3, 'sent'],
      [4, 'sent'],
    ]);
  });

  it('writes the outbox in the alert transaction: a rolled-back alert leaves no notification', async () => {
    const c = await contact({ name: 'Rollback', email: 'rollback@example.com' });
    const g = await group({ name: 'Rollback group', contactIds: [c] });
    let alertId = 0;
    await expect(
      t.db.k.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('alerts')
          .values({
            platform_id: siteA.platformId,
            device_id: siteA.deviceId,
            quantity: 'rainfall',
            kind: 'single',
            family: 'rollback',
            value_type: 'threshold',
            level: 2,
            first_level: 2,
            first_at: new Date().toISOString(),
            last_at: new Date().toISOString(),
            evidence: '{}',
            group_id: g,
            channels: ['mail'],
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        alertId = row.id;
        await t.built.alertEvents.emitTx(tx, {
          alertId,
          kind: 'raised',
          level: 2,
          previousLevel: null,
          platformId: siteA.platformId,
          platformName: 'North slope',
          deviceId: siteA.deviceId,
          deviceName: 'Device A1',
          deviceNumber: 'DEV-A1',
          quantity: 'rainfall',
          ruleId: null,
          relationId: null,
          groupId: g,
          channels: ['mail'],
          pushIntervalMinutes: 0,
          valueType: 'threshold',
          value: 1,
          metric: 1,
          threshold: 1,
          at: new Date().toISOString(),
        });
        const inTx = await tx.selectFrom('notification_outbox').select('id').where('alert_id', '=', alertId).execute();
        expect(inTx).toHaveLength(1);
        throw new Error('alert transaction fails');
      }),
    ).rejects.toThrow('alert transaction fails');
    const after = await t.db.k.selectFrom('notification_outbox').select('id').where('alert_id', '=', alertId).execute();
    expect(after).toHaveLength(0);
  });

  it("answers deliveries only within the alert's site scope; a foreign alert answers like a missing one", async () => {
    const c = await contact({ name: 'Scope', email: 'scope@example.com' });
    const g = await group({ name: 'Scope group', contactIds: [c] });
    const ev = await raiseAlert(t.built, t.db, siteA, { level: 1, groupId: g, channels: ['mail'] });
    await until(async () => (await deliveries(ev.alertId)).data.length === 1, 5000, 'row');
    const role = await roleWith(t, admin, 'alert_viewer', ['alert-predict:alert', 'alert-predict:alert-contract']);
    const inA = await userToken(t, admin, { account: 'viewer-a', roleCode: role, platformIds: [siteA.platformId] });
    const inB = await userToken(t, admin, { account: 'viewer-b', roleCode: role, platformIds: [siteB.platformId] });
    expect((await deliveries(ev.alertId, inA)).data).toHaveLength(1);
    const foreign = await deliveries(ev.alertId, inB);
    const missing = await deliveries(987654, inB);
    expect(foreign.status).toBe(404);
    expect(foreign).toEqual(missing);
    const row = (await deliveries(ev.alertId)).data[0]!;
    const retryForeign = await t.api('POST', `${A}/delivery/retry`, { token: inB, body: { id: row.id } });
    expect(retryForeign.status).toBe(404);
    // Groups bound to site A are not shown to a user of site B; such a user must bind a new group to a site.
    const groups = await t.api<{ list: AlertGroupRow[] }>('GET', `${A}/group/getListPage`, { token: inB });
    expect(groups.data.list.every((x) => x.platformIds.length === 0 || x.platformIds.includes(siteB.platformId))).toBe(
      true,
    );
  });
});
