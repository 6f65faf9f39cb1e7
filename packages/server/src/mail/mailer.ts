import nodemailer from 'nodemailer';

/** One plain-text message. `messageId` is stable per queued message, so a resend is recognisable. */
export interface MailMessage {
  to: readonly string[];
  subject: string;
  text: string;
  messageId: string;
}

/** Sends mail; `send` resolves once the SMTP server accepted the message, and throws otherwise. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface SmtpSettings {
  /** smtp:// or smtps:// with credentials if the server needs them (PAYGATE_SMTP_URL). */
  url: string;
  /** The From header (PAYGATE_MAIL_FROM). */
  from: string;
  /** Per-connection and per-command time-outs. */
  timeoutMs?: number;
}

/** A mailer over one pooled SMTP transport (nodemailer). */
export function createSmtpMailer(settings: SmtpSettings): Mailer {
  const timeoutMs = settings.timeoutMs ?? 15_000;
  const url = new URL(settings.url);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    pool: true,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(message) {
      await transport.sendMail({
        from: settings.from,
        to: [...message.to],
        subject: message.subject,
        text: message.text,
        messageId: message.messageId,
      });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * The process's mailer from its configuration, or null when SMTP is not configured: then mail is
 * off, which is said once, here, at start (queued notices wait in the outbox).
 */
export function configuredMailer(
  settings: SmtpSettings | null,
  logger: { info(message: string): void },
): Mailer | null {
  if (settings === null) {
    logger.info('mail is off: PAYGATE_SMTP_URL is not set (notices stay in the mail outbox)');
    return null;
  }
  return createSmtpMailer(settings);
}
