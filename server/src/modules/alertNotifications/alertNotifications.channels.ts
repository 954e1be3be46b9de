import nodemailer, { type Transporter } from 'nodemailer';
import type { AlertChannel, Language } from '@geosentry/contract';
import type { Config } from '../../config.ts';

/** One message as a channel sends it. */
export interface OutgoingMessage {
  channel: AlertChannel;
  to: string;
  language: Language;
  subject: string;
  body: string;
  templateCode: string | null;
  /** Files sent with a mail (scheduled reports), read from their paths. */
  attachments?: { filename: string; path: string; contentType: string }[];
}

/** A failure to send; `message` never carries a secret (no URL credentials, no token). */
export class SendError extends Error {}

/** A channel: sends one message or throws SendError. */
export interface ChannelSender {
  send(m: OutgoingMessage): Promise<void>;
  close(): void;
}

/** The address with any user:password removed (for messages and logs). */
export function redactUrl(u: string): string {
  try {
    const url = new URL(u);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.toString();
  } catch {
    return '(invalid address)';
  }
}

/** Mail over SMTP (nodemailer), one pooled connection. */
export class MailSender implements ChannelSender {
  private transport: Transporter | null = null;

  constructor(
    private readonly smtpUrl: string | null,
    private readonly from: string,
  ) {}

  private get t(): Transporter {
    if (!this.smtpUrl) throw new SendError('mail is not configured (SMTP_URL)');
    // Bounded timeouts: a stuck server fails the attempt (retried later) instead of holding the sender.
    this.transport ??= nodemailer.createTransport({
      url: this.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return this.transport;
  }

  async send(m: OutgoingMessage): Promise<void> {
    try {
      await this.t.sendMail({
        from: this.from,
        to: m.to,
        subject: m.subject,
        text: m.body,
        headers: { 'Content-Language': m.language },
        ...(m.attachments?.length ? { attachments: m.attachments } : {}),
      });
    } catch (e) {
      if (e instanceof SendError) throw e;
      const err = e as { code?: string; responseCode?: number; message?: string };
      // nodemailer's messages name the server and the SMTP reply, never the password of the URL.
      const detail = err.responseCode ? `SMTP ${err.responseCode}` : (err.code ?? 'error');
      throw new SendError(`mail failed: ${detail}`);
    }
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }
}

/** SMS kinds and voice through an HTTP gateway: POST JSON {to, templateCode, text, language, channel}. */
export class GatewaySender implements ChannelSender {
  constructor(
    private readonly url: string | null,
    private readonly token: string | null,
    private readonly name: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(m: OutgoingMessage): Promise<void> {
    if (!this.url) throw new SendError(`${this.name} gateway is not configured`);
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        body: JSON.stringify({
          to: m.to,
          templateCode: m.templateCode,
          text: m.body,
          language: m.language,
          channel: m.channel,
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      const err = e as { name?: string; cause?: { code?: string } };
      const why = err.name === 'TimeoutError' ? 'timeout' : (err.cause?.code ?? err.name ?? 'error');
      throw new SendError(`${this.name} gateway unreachable (${redactUrl(this.url)}): ${why}`);
    }
    // Drain the body so the connection can be reused; its content is not echoed (it may quote our request).
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new SendError(`${this.name} gateway answered HTTP ${res.status}`);
  }

  close(): void {}
}

/** The channel senders of a configuration. */
export class Channels {
  readonly mail: MailSender;
  readonly sms: GatewaySender;
  readonly voice: GatewaySender;

  constructor(config: Config) {
    this.mail = new MailSender(config.smtpUrl, config.mailFrom);
    this.sms = new GatewaySender(config.smsGatewayUrl, config.gatewayToken, 'SMS');
    this.voice = new GatewaySender(config.voiceGatewayUrl, config.gatewayToken, 'voice');
  }

  of(channel: AlertChannel): ChannelSender {
    if (channel === 'mail') return this.mail;
    if (channel === 'voice') return this.voice;
    return this.sms;
  }

  close(): void {
    this.mail.close();
  }
}
