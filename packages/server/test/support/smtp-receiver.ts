import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as it came over the wire: headers, blank line, body. */
  raw: string;
  subject: string;
  messageId: string;
}

export interface SmtpReceiver {
  url: string;
  received: ReceivedMail[];
  /** From now on, refuse every message with this SMTP reply (null: accept again). */
  refuseWith(code: number | null): void;
  close(): Promise<void>;
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const match = head.match(new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im'));
  return (match?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ').trim();
}

/** A real SMTP server on 127.0.0.1 (port 0, no TLS, no auth) that keeps every message it accepts. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  let refuse: number | null = null;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuse !== null) {
          const error = Object.assign(new Error('mailbox unavailable (test)'), { responseCode: refuse });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address).sort(),
          raw,
          subject: header(raw, 'Subject'),
          messageId: header(raw, 'Message-ID'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseWith(code) {
      refuse = code;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
