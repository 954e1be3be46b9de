import { describe, expect, it } from 'vitest';
import { fillTemplate, placeholdersOf } from '@geosentry/contract';
import { backoffMs, formatTime, levelName, renderMessage, type AlertFacts } from './alertNotifications.render.ts';
import { GatewaySender, MailSender, SendError, redactUrl } from './alertNotifications.channels.ts';
import { eventSeq } from './alertNotifications.outbox.ts';

const facts: AlertFacts = {
  level: 4,
  siteName: 'Bridge 7',
  deviceName: 'Tilt T-3',
  moduleId: 1,
  quantity: 'dH',
  value: 12.34567,
  threshold: 10,
  at: new Date('2026-03-04T23:59:58Z'),
  suggestion: { en: 'Close the bridge', ko: '교량을 폐쇄하세요' },
};

describe('rendering', () => {
  it('fills placeholders and leaves unknown ones', () => {
    expect(fillTemplate('{site}/{device} {nope}', { site: 'S', device: 'D' })).toBe('S/D {nope}');
    expect(placeholdersOf('a {site} {x y} {} {value}')).toEqual(['site', '', 'value']);
  });

  it("renders in the recipient's language with units, level names, time zone and suggestion", () => {
    const tpl = {
      subject: { en: '[{level}] {site}' },
      content: { en: '{quantity}={value} >= {threshold}; {suggestion}' },
    };
    expect(renderMessage(facts, tpl, 'en', 'UTC')).toEqual({
      subject: '[Red alert (level 4)] Bridge 7',
      body: 'Vertical displacement (mm)=12.346 mm >= 10 mm; Close the bridge',
    });
    // No Korean text in the template: English is used, but the facts are Korean.
    expect(renderMessage(facts, tpl, 'ko', 'UTC').body).toBe('수직 변위 (mm)=12.346 mm >= 10 mm; 교량을 폐쇄하세요');
    // No template: the built-in text of the language; a missing suggestion falls back to English.
    const zh = renderMessage(facts, null, 'zh', 'Asia/Shanghai');
    expect(zh.subject).toBe('【红色预警（4级）】Bridge 7 / Tilt T-3');
    expect(zh.body).toContain('2026-03-05 07:59:58 Asia/Shanghai');
    expect(zh.body).toContain('Close the bridge');
  });

  it('formats times and level names', () => {
    expect(formatTime(new Date('2026-01-01T00:00:00Z'), 'UTC')).toBe('2026-01-01 00:00:00 UTC');
    expect(levelName(1, 'en')).toBe('Blue alert (level 1)');
    expect(levelName(2, 'zh')).toBe('黄色预警（2级）');
  });

  it('backs off exponentially up to an hour', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(1000, a))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(60_000, 20)).toBe(3_600_000);
  });

  it('numbers events so that each level and each reminder has its own dedupe key', () => {
    expect(eventSeq({ kind: 'raised', level: 2 })).toBe(2);
    expect(eventSeq({ kind: 'escalated', level: 4 })).toBe(4);
    expect(eventSeq({ kind: 'reminder', level: 4, reminder: 3 })).toBe(103);
  });
});

describe('channels never reveal secrets', () => {
  const msg = {
    channel: 'sms' as const,
    to: '123456',
    language: 'en' as const,
    subject: 's',
    body: 'b',
    templateCode: null,
  };

  it('gateway errors name neither the token nor URL credentials', async () => {
    const g = new GatewaySender('http://user:pa55word@127.0.0.1:9/sms?key=k3y', 'tok-SECRET', 'SMS', 2000);
    const e = (await g.send(msg).catch((x: unknown) => x)) as Error;
    expect(e).toBeInstanceOf(SendError);
    expect(e.message).toMatch(/^SMS gateway unreachable \(http:\/\/127\.0\.0\.1:9\/sms\): /);
    expect(e.message).not.toMatch(/pa55word|tok-SECRET|k3y/);
    expect(redactUrl('smtp://u:p@h:25')).toBe('smtp://h:25');
  });

  it('SMTP errors name no password; an unconfigured channel says so', async () => {
    const m = new MailSender('smtp://user:pa55word@127.0.0.1:9', 'a@b.c');
    const e = (await m.send({ ...msg, channel: 'mail', to: 'x@example.com' }).catch((x: unknown) => x)) as Error;
    m.close();
    expect(e).toBeInstanceOf(SendError);
    expect(e.message).not.toContain('pa55word');
    const none = await new MailSender(null, 'a@b.c').send({ ...msg, channel: 'mail' }).catch((x: unknown) => x);
    expect((none as Error).message).toBe('mail is not configured (SMTP_URL)');
  });
});
