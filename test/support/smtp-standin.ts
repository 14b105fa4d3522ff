import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP relay (the `smtp-server` package speaking SMTP on loopback) that keeps every message it is sent: what
 * the server's mailer (nodemailer) delivers, read back as the recipient would.
 */

export interface SentMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpStandin {
  url: string;
  messages: SentMail[];
  close(): Promise<void>;
}

export async function startSmtpStandin(): Promise<SmtpStandin> {
  const messages: SentMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-in link in a message (quoted-printable soft breaks undone). */
export function linkIn(mail: SentMail): string | null {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return /https?:\/\/[^\s]+\/auth\/login\?token=[A-Za-z0-9_-]+/.exec(text)?.[0] ?? null;
}
